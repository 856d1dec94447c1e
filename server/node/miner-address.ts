/**
 * Where a mining node's rewards go: `--miner-address` when given, else a key this node keeps in
 * `<datadir>/miner.key` (hex, mode 0600), created on first use so `npm start` mines with no setup.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeAddress, encodeAddress, standardAddress } from '../../src/crypto/address.ts';
import { generatePrivateKey, publicKeyFromPrivate } from '../../src/crypto/keys.ts';
import { fromHex, toHex } from '../../src/util/bytes.ts';
import type { NodeConfig } from '../config.ts';

export function resolveMinerAddress(config: NodeConfig): { bytes: Uint8Array; text: string; keyFile?: string } {
  if (config.minerAddress !== undefined) {
    const bytes = decodeAddress(config.minerAddress, config.params.hrp);
    return { bytes, text: config.minerAddress };
  }
  const keyFile = join(config.datadir, 'miner.key');
  let privateKey: Uint8Array;
  if (existsSync(keyFile)) {
    privateKey = fromHex(readFileSync(keyFile, 'utf8').trim());
  } else {
    privateKey = generatePrivateKey((n) => crypto.getRandomValues(new Uint8Array(n)));
    writeFileSync(keyFile, `${toHex(privateKey)}\n`, { mode: 0o600 });
  }
  const bytes = standardAddress(publicKeyFromPrivate(privateKey));
  return { bytes, text: encodeAddress(config.params.hrp, bytes), keyFile };
}
