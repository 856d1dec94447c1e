/**
 * Seeds and keys: BIP39 mnemonics (@scure/bip39, English list) and BIP32 derivation (@scure/bip32) — nothing
 * hand-written. The random source is a parameter (core code never reads one itself).
 *
 * Derivation path (docs/wallet.md "Derivation"): BIP44's shape, `m/44'/coin'/account'/0/index`, hardened down to
 * the account. coin = 1' (SLIP-44 "testnet, all coins") on testnet, devnet and regtest, so test keys never equal
 * mainnet keys; on mainnet `weftCoinTypeMainnet`, provisional until registered with SLIP-44. The BIP32 key is used
 * as the BIP340 secret as is; its x-only public key (even-y point) is the standard address payload.
 */
import { HDKey } from '@scure/bip32';
import { entropyToMnemonic, mnemonicToEntropy, mnemonicToSeedSync, validateMnemonic } from '@scure/bip39';
import { wordlist as english } from '@scure/bip39/wordlists/english.js';
import type { RandomBytes } from '../crypto/keys.ts';
import { WalletParamError } from './errors.ts';

/** 256 bits of entropy: 24 words. */
const mnemonicEntropyBytes = 32;
/** Provisional SLIP-44 coin type for mainnet (unregistered; see docs/wallet.md). */
const weftCoinTypeMainnet = 0x5745; // "WE"
/** SLIP-44's shared coin type for every test network. */
const weftCoinTypeTest = 1;
const hardened = 0x8000_0000;

/** A fresh 24-word English mnemonic from `randomBytes`. */
export function generateMnemonic(randomBytes: RandomBytes): string {
  const entropy = randomBytes(mnemonicEntropyBytes);
  if (!(entropy instanceof Uint8Array) || entropy.length !== mnemonicEntropyBytes) {
    throw new WalletParamError('bad_request', `random source gave no ${mnemonicEntropyBytes} bytes`);
  }
  return entropyToMnemonic(entropy, english);
}

/** Normalises (NFKD, single spaces, lowercase) and checks words and checksum; throws WalletParamError. */
export function normalizeMnemonic(mnemonic: string): string {
  if (typeof mnemonic !== 'string') throw new WalletParamError('bad_mnemonic', 'mnemonic: expected a string');
  const words = mnemonic.normalize('NFKD').trim().toLowerCase().split(/\s+/).join(' ');
  if (!validateMnemonic(words, english)) throw new WalletParamError('bad_mnemonic', 'mnemonic: unknown word or bad checksum');
  return words;
}

export function mnemonicEntropy(mnemonic: string): Uint8Array {
  return mnemonicToEntropy(normalizeMnemonic(mnemonic), english);
}

/** The 64-byte BIP39 seed (PBKDF2-HMAC-SHA512, 2048 rounds) of a mnemonic and optional BIP39 passphrase. */
export function mnemonicSeed(mnemonic: string, passphrase = ''): Uint8Array {
  return mnemonicToSeedSync(normalizeMnemonic(mnemonic), passphrase);
}

export function coinTypeFor(networkName: string): number {
  return networkName === 'mainnet' ? weftCoinTypeMainnet : weftCoinTypeTest;
}

/** `m/44'/coin'/account'/0/index` as a path string. */
export function derivationPath(networkName: string, account: number, index: number): string {
  for (const [what, n] of [['account', account], ['index', index]] as const) {
    if (!Number.isInteger(n) || n < 0 || n >= hardened) throw new WalletParamError('bad_request', `${what}: expected 0 ≤ n < 2^31`);
  }
  return `m/44'/${coinTypeFor(networkName)}'/${account}'/0/${index}`;
}

/** The private key at `path` below `seed` (BIP32). */
export function derivePrivateKey(seed: Uint8Array, path: string): Uint8Array {
  const key = HDKey.fromMasterSeed(seed).derive(path).privateKey;
  if (key === null) throw new WalletParamError('bad_request', `derivation ${path}: no private key`);
  return key;
}

/** The account node (`m/44'/coin'/account'/0`), from which each address key is one non-hardened step. */
export function deriveChainNode(seed: Uint8Array, networkName: string, account: number): HDKey {
  return HDKey.fromMasterSeed(seed).derive(derivationPath(networkName, account, 0).replace(/\/0$/, ''));
}
