/**
 * The admin credential of a fresh node (Bitcoin Core's `.cookie`, docs/design.md "Node APIs and access"): an API key with every scope and the
 * admin flag, written to `<datadir>/api.cookie` with mode 0600. Kept across restarts while the file and its key are
 * both valid; otherwise a new one is made and the old cookie keys are revoked. The path is logged, never the key.
 */
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scopes } from '../../src/auth/scopes.ts';
import type { ApiKeyStore } from './api-keys.ts';

const apiCookieFile = 'api.cookie';
const cookieLabel = 'api.cookie';

export interface ApiCookie {
  readonly path: string;
  readonly keyId: string;
  /** True when this start wrote a new key. */
  readonly created: boolean;
}

export async function ensureApiCookie(datadir: string, keys: ApiKeyStore): Promise<ApiCookie> {
  const path = join(datadir, apiCookieFile);
  if (existsSync(path)) {
    const current = keys.verify(readFileSync(path, 'utf8').trim());
    if (current?.admin) {
      // Someone may have loosened the mode; the file is a credential.
      chmodSync(path, 0o600);
      return { path, keyId: current.id, created: false };
    }
  }
  for (const old of keys.list()) if (old.admin && old.label === cookieLabel && old.revokedAtMs === null) await keys.revoke(old.id);
  const { key, info } = await keys.create({ label: cookieLabel, scopes, admin: true });
  // Write beside and rename: a reader never sees a half-written key, and the mode is set before the key is in it.
  const temp = `${path}.tmp`;
  writeFileSync(temp, `${key}\n`, { mode: 0o600 });
  chmodSync(temp, 0o600);
  renameSync(temp, path);
  return { path, keyId: info.id, created: true };
}

/** The admin key text, for local tools (the CLI, tests). */
export function readApiCookie(datadir: string): string {
  return readFileSync(join(datadir, apiCookieFile), 'utf8').trim();
}
