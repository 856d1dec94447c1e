// API keys and OAuth clients at rest (docs/auth.md): only hashes in the LMDB auth store, the api.cookie admin key
// (mode 0600, kept across restarts, replaced when lost), and the `weft apikey` / `weft oauth client` commands.
import { mkdtempSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureApiCookie, readApiCookie } from '../../../../server/auth/api-cookie.ts';
import { createApiKeyStore } from '../../../../server/auth/api-keys.ts';
import { openAuthStore } from '../../../../server/auth/access-control.ts';
import { runAuthCommand } from '../../../../server/auth/auth-cli.ts';
import { createOAuthClientStore } from '../../../../server/auth/oauth-clients.ts';
import { createManualClock, systemClock } from '../../../../src/util/clock.ts';
import { apiKeyRecheckMs } from '../../../../src/auth/auth-limits.ts';

let datadir: string;
beforeEach(() => {
  datadir = mkdtempSync(join(tmpdir(), 'weft-auth-'));
});
afterEach(() => rmSync(datadir, { recursive: true, force: true }));

/** Every byte the LMDB files hold, as latin1 text, to search for secrets. */
const storeBytes = () => ['data.mdb'].map((f) => readFileSync(join(datadir, 'auth', f)).toString('latin1')).join('');

async function cli(command: 'apikey' | 'oauth', ...args: string[]) {
  let out = '';
  let err = '';
  const code = await runAuthCommand(command, [...args, '--datadir', datadir], { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

describe('API key store', () => {
  it('keeps only the SHA-256 of a key, verifies it, and refuses it once revoked', async () => {
    const kv = openAuthStore(datadir);
    const keys = createApiKeyStore(kv, systemClock);
    const { key, info } = await keys.create({ label: 'ci', scopes: ['read_balance'] });
    expect(key).toMatch(/^weft_ak_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    expect(keys.verify(key)).toMatchObject({ id: info.id, scopes: ['read_balance'] });
    expect(keys.verify(key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A'))).toBeUndefined();
    await keys.revoke(info.id);
    expect(keys.verify(key)).toBeUndefined();
    await kv.close();
    const bytes = storeBytes();
    // The secret is everything after the id (base64url, so it may hold '_' itself).
    const secret = /^weft_ak_[0-9a-f]{16}_(.+)$/.exec(key)![1]!;
    expect(bytes).not.toContain(secret);
    expect(bytes).toContain(info.id);
  });

  it('trusts a verified key from memory for apiKeyRecheckMs: a revocation by another process lands within it, its own at once', async () => {
    const kv = openAuthStore(datadir);
    const clock = createManualClock(1_000_000);
    const node = createApiKeyStore(kv, clock);
    const cli = createApiKeyStore(kv, clock); // another process's view of the same LMDB store
    const first = await node.create({ label: 'a', scopes: [] });
    const second = await node.create({ label: 'b', scopes: [] });
    expect(node.verify(first.key)?.id).toBe(first.info.id);
    await cli.revoke(first.info.id);
    clock.advance(apiKeyRecheckMs - 1);
    expect(node.verify(first.key)?.id).toBe(first.info.id);
    clock.advance(1);
    expect(node.verify(first.key)).toBeUndefined();
    expect(node.verify(second.key)?.id).toBe(second.info.id);
    await node.revoke(second.info.id);
    expect(node.verify(second.key)).toBeUndefined();
    await kv.close();
  });

  it('writes api.cookie with mode 0600, keeps it across restarts, and replaces a lost one (revoking the old key)', async () => {
    const kv = openAuthStore(datadir);
    const keys = createApiKeyStore(kv, systemClock);
    const first = await ensureApiCookie(datadir, keys);
    expect(first).toMatchObject({ path: join(datadir, 'api.cookie'), created: true });
    expect(statSync(first.path).mode & 0o777).toBe(0o600);
    const key = readApiCookie(datadir);
    expect(keys.verify(key)).toMatchObject({ admin: true, scopes: ['read_balance', 'send_transactions', 'mine_blocks'] });

    expect(await ensureApiCookie(datadir, keys)).toMatchObject({ keyId: first.keyId, created: false });
    unlinkSync(first.path);
    const second = await ensureApiCookie(datadir, keys);
    expect(second.created).toBe(true);
    expect(keys.verify(key)).toBeUndefined();
    writeFileSync(second.path, 'garbage\n', { mode: 0o644 });
    const third = await ensureApiCookie(datadir, keys);
    expect(third.created).toBe(true);
    expect(statSync(third.path).mode & 0o777).toBe(0o600);
    await kv.close();
  });
});

describe('weft apikey / weft oauth client', () => {
  it('creates a key with scopes (printed once), lists it, and revokes it', async () => {
    const created = await cli('apikey', 'create', '--scopes', 'read_balance,mine_blocks', '--label', 'miner', '--require-signature');
    expect(created.code).toBe(0);
    const key = created.out.split('\n')[0]!;
    const id = /^weft_ak_([0-9a-f]{16})_/.exec(key)![1]!;
    const listed = await cli('apikey', 'list', '--json');
    expect(JSON.parse(listed.out)).toEqual([expect.objectContaining({ id, label: 'miner', scopes: ['read_balance', 'mine_blocks'], requireSignature: true, revokedAtMs: null })]);
    expect(listed.out).not.toContain(key);
    expect((await cli('apikey', 'revoke', id)).out).toBe(`revoked ${id}\n`);
    const kv = openAuthStore(datadir);
    expect(createApiKeyStore(kv, systemClock).verify(key)).toBeUndefined();
    await kv.close();
  });

  it('refuses unknown scopes, missing --scopes and unknown ids with exit code 2', async () => {
    expect(await cli('apikey', 'create', '--scopes', 'everything')).toMatchObject({ code: 2, err: expect.stringContaining("unknown scope 'everything'") });
    expect((await cli('apikey', 'create')).code).toBe(2);
    expect((await cli('apikey', 'revoke', 'ffffffffffffffff')).code).toBe(2);
    expect((await cli('oauth', 'client', 'create', '--redirect-uri', 'http://evil.example/cb', '--scopes', 'read_balance')).err).toContain('must be https');
  });

  it('registers an OAuth client with redirect URIs and scopes and prints its secret once', async () => {
    const created = await cli('oauth', 'client', 'create', '--redirect-uri', 'https://app.example/cb', '--redirect-uri', 'http://127.0.0.1:8765/cb', '--scopes', 'read_balance send_transactions', '--name', 'My wallet');
    expect(created.code).toBe(0);
    const id = /client_id=(\w+)/.exec(created.out)![1]!;
    const secret = /client_secret=(\S+)/.exec(created.out)![1]!;
    const kv = openAuthStore(datadir);
    const clients = createOAuthClientStore(kv, systemClock);
    expect(clients.get(id)).toMatchObject({ name: 'My wallet', redirectUris: ['https://app.example/cb', 'http://127.0.0.1:8765/cb'], scopes: ['read_balance', 'send_transactions'], public: false });
    expect(clients.checkSecret(id, secret)).toBe(true);
    await kv.close();
    expect(storeBytes()).not.toContain(secret);
  });
});
