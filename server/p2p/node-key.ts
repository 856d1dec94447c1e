/**
 * The node's Noise static key — its p2p identity (NodeID = X25519 public key) — persisted in the datadir as
 * `p2p_key` (hex private key, mode 0600), created on first start. Losing it only changes the NodeID.
 */
import { existsSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { x25519Dh, type KeyPair } from '../../src/p2p/noise/suites.ts';
import { fromHex, toHex } from '../../src/util/bytes.ts';

const nodeKeyFile = 'p2p_key';

export function loadOrCreateNodeKey(datadir: string): { key: KeyPair; path: string; created: boolean } {
  const path = join(datadir, nodeKeyFile);
  if (existsSync(path)) {
    const hex = readFileSync(path, 'utf8').trim();
    if (!/^[0-9a-f]{64}$/.test(hex)) throw new Error(`${path}: expected 64 hex digits (an X25519 private key)`);
    return { key: x25519Dh.keyPairFromPrivate(fromHex(hex)), path, created: false };
  }
  const key = x25519Dh.generateKeyPair((n) => new Uint8Array(randomBytes(n)));
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, `${toHex(key.privateKey)}\n`, { mode: 0o600 });
  renameSync(tmp, path);
  return { key, path, created: true };
}
