// The OAuth consent page clicked through in Chromium against a real node process: a client registered with the real
// `weft oauth client create` command, the page shown by GET /oauth/authorize, a wrong admin key refused, the
// admin key from <datadir>/api.cookie approving, the browser landing on the client's redirect URI with the code and
// state, and the code exchanged (with its PKCE verifier) for tokens.
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { startNodeProcess, type NodeProcess } from '../test/helpers/node-process.ts';
import { repoRoot } from '../test/vectors.ts';

let node: NodeProcess;
let base: string;
let datadir: string;
let callback: Server;
let redirectUri: string;
let clientId: string;
let clientSecret: string;
let cookiePath: string;

test.beforeAll(async () => {
  datadir = mkdtempSync(join(tmpdir(), 'weft-e2e-oauth-'));
  callback = createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<h1>Client callback</h1><p>${req.url}</p>`));
  await new Promise<void>((done) => callback.listen(0, '127.0.0.1', done));
  const port = (callback.address() as { port: number }).port;
  redirectUri = `http://127.0.0.1:${port}/callback`;

  node = startNodeProcess(['--network', 'regtest', '--datadir', datadir, '--rpc-port', '0', '--ws-port', '0', '--p2p-port', '0']);
  cookiePath = (await node.waitFor((l) => l.msg === 'api cookie')).path as string;
  base = ((await node.waitFor((l) => l.msg === 'http listening')).url as string).replace(/\/$/, '');
  // The real CLI, while the node runs: LMDB lets a second process write the auth store.
  const out = execFileSync(process.execPath, [resolve(repoRoot, 'bin/weft.mjs'), 'oauth', 'client', 'create', '--network', 'regtest', '--datadir', datadir, '--redirect-uri', redirectUri, '--scopes', 'read_balance,send_transactions', '--name', 'E2E Wallet'], { encoding: 'utf8' });
  clientId = /client_id=(\w+)/.exec(out)![1]!;
  clientSecret = /client_secret=(\S+)/.exec(out)![1]!;
});

test.afterAll(async () => {
  node.child.kill('SIGTERM');
  await node.exited;
  await new Promise<void>((done) => callback.close(() => done()));
  rmSync(datadir, { recursive: true, force: true });
});

test('a person approves a client on the consent page with the admin key, and the client gets its tokens', async ({ page }, testInfo) => {
  expect(cookiePath).toBe(join(datadir, 'api.cookie'));
  expect(statSync(cookiePath).mode & 0o777).toBe(0o600);
  const adminKey = readFileSync(cookiePath, 'utf8').trim();
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const state = randomBytes(8).toString('hex');
  const query = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: redirectUri, scope: 'read_balance send_transactions', state, code_challenge: challenge, code_challenge_method: 'S256' });

  await page.goto(`${base}/oauth/authorize?${query}`);
  await expect(page.getByRole('heading', { name: 'Authorize E2E Wallet' })).toBeVisible();
  await expect(page.getByText('read_balance')).toBeVisible();
  await expect(page.getByText('send_transactions')).toBeVisible();

  await page.getByLabel('Node admin key').fill('weft_ak_0000000000000000_' + 'A'.repeat(43));
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('alert')).toHaveText('That is not the node’s admin key.');
  await page.screenshot({ path: testInfo.outputPath('consent-wrong-key.png'), fullPage: true });

  await page.getByLabel('Node admin key').fill(adminKey);
  await page.getByRole('button', { name: 'Approve' }).click();
  await page.waitForURL((url) => url.href.startsWith(redirectUri));
  await expect(page.getByRole('heading', { name: 'Client callback' })).toBeVisible();
  const landed = new URL(page.url());
  expect(landed.searchParams.get('state')).toBe(state);
  const code = landed.searchParams.get('code')!;
  expect(code).toMatch(/^weft_code_/);

  const res = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: clientId, client_secret: clientSecret, code_verifier: verifier }),
  });
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ token_type: 'Bearer', scope: 'read_balance send_transactions', expires_in: 3600 });
});

test('Deny sends the browser back with access_denied', async ({ page }) => {
  const query = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: redirectUri, scope: 'read_balance', state: 'deny-me', code_challenge: createHash('sha256').update('v'.repeat(43)).digest('base64url'), code_challenge_method: 'S256' });
  await page.goto(`${base}/oauth/authorize?${query}`);
  await page.getByRole('button', { name: 'Deny' }).click();
  await page.waitForURL((url) => url.href.startsWith(redirectUri));
  const landed = new URL(page.url());
  expect([landed.searchParams.get('error'), landed.searchParams.get('state')]).toEqual(['access_denied', 'deny-me']);
});
