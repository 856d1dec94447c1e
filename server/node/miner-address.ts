/**
 * Where a mining node's rewards go (docs/mining.md "Reward address"): `--miner-address` when given, else the first
 * address of the node's `default` wallet (created on first use), so every coin the node mines can be spent with
 * `send_transaction` out of the box and is covered by the wallet's mnemonic backup. `resolveMinerAddress` (a raw key
 * in `<datadir>/miner.key`) is what nodes without a wallet service used; the node no longer pays it.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeAddress, encodeAddress, standardAddress } from '../../src/crypto/address.ts';
import { generatePrivateKey, publicKeyFromPrivate } from '../../src/crypto/keys.ts';
import { fromHex, toHex } from '../../src/util/bytes.ts';
import type { NodeConfig } from '../config.ts';
import { defaultWalletName, type WalletService } from '../wallet/wallet-service.ts';

export interface RewardAddress {
  readonly bytes: Uint8Array;
  readonly text: string;
  /** Where it comes from: the config, or the wallet (name and derivation path). */
  readonly source: 'config' | 'wallet';
  readonly wallet?: string;
  readonly path?: string;
}

/** The first standard address (index 0) of the `default` wallet; the wallet and the address are made on first use. */
function walletRewardAddress(wallets: WalletService): RewardAddress {
  const wallet = wallets.wallet(defaultWalletName);
  const first = wallet.addresses().find((a) => a.type === 'standard' && a.index === 0)
    ?? wallets.createAddress(defaultWalletName, 'standard');
  return { bytes: first.address, text: first.text, source: 'wallet', wallet: wallet.name, ...(first.path ? { path: first.path } : {}) };
}

/** The reward address of a node: `--miner-address`, else the wallet's first address. */
export function resolveRewardAddress(config: Pick<NodeConfig, 'minerAddress' | 'params'>, wallets: WalletService): RewardAddress {
  if (config.minerAddress !== undefined) return { bytes: decodeAddress(config.minerAddress, config.params.hrp), text: config.minerAddress, source: 'config' };
  return walletRewardAddress(wallets);
}

/** A `<datadir>/miner.key` left by an earlier version (its coins are not in the wallet): its address, for a warning. */
export function legacyMinerKeyAddress(config: Pick<NodeConfig, 'datadir' | 'params'>): { file: string; text: string } | undefined {
  const file = join(config.datadir, 'miner.key');
  if (!existsSync(file)) return undefined;
  try {
    return { file, text: encodeAddress(config.params.hrp, standardAddress(publicKeyFromPrivate(fromHex(readFileSync(file, 'utf8').trim())))) };
  } catch {
    return undefined;
  }
}

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
