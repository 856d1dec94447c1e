/**
 * An unlocked wallet: a mnemonic, the addresses derived from it so far and the multisig scripts it takes part in
 * (docs/wallet.md). Pure and in memory; saving it (sealed with src/wallet/keystore.ts) is the caller's job after
 * each change — server/wallet/ writes files, a browser would use IndexedDB.
 *
 * Standard address i = the x-only key of `m/44'/coin'/0'/0/i` (src/wallet/hd.ts). A multisig address is m-of-n
 * over fresh wallet keys and/or public keys given by the caller (src/crypto/address.ts `multisigAddress`).
 */
import type { HDKey } from '@scure/bip32';
import { canonicalMultisigKeys, encodeAddress, multisigAddress, multisigKeysMax, standardAddress } from '../crypto/address.ts';
import { isValidPublicKey, publicKeyFromPrivate, type RandomBytes } from '../crypto/keys.ts';
import type { MultisigScript } from '../kinds/transaction-codec.ts';
import { fromHex, toHex } from '../util/bytes.ts';
import { WalletParamError } from './errors.ts';
import { deriveChainNode, derivationPath, generateMnemonic, mnemonicSeed, normalizeMnemonic } from './hd.ts';
import { signMessageWithKey, type MessageSignatureType } from './message.ts';
import { openStealthAccounts, type StealthAccounts } from './stealth-accounts.ts';
import { walletAddressesMax, walletMultisigScriptsMax, walletNameCharsMax, walletStealthAccountsMax } from './wallet-limits.ts';

export interface WalletNetwork {
  readonly name: string;
  readonly chainId: number;
  readonly hrp: string;
}

/** What the keystore seals: enough to re-derive every key and address. */
export interface WalletPayload {
  readonly mnemonic: string;
  readonly account: number;
  /** Standard addresses derived so far: indexes 0 .. nextIndex−1. */
  readonly nextIndex: number;
  /** Public keys as hex, sorted ascending (canonical). */
  readonly multisig: readonly { readonly m: number; readonly publicKeys: readonly string[] }[];
  /** Stealth accounts derived so far (src/wallet/stealth-accounts.ts); absent in payloads from before them: 0. */
  readonly stealthNext?: number;
}

export type WalletAddressType = 'standard' | 'multisig';

export interface WalletAddress {
  readonly type: WalletAddressType;
  /** 33-byte binary address. */
  readonly address: Uint8Array;
  /** bech32m with the network's prefix. */
  readonly text: string;
  /** Standard: the derivation index and path. */
  readonly index?: number;
  readonly path?: string;
  /** Multisig: the script. */
  readonly script?: MultisigScript;
}

export interface MultisigOptions {
  readonly m: number;
  /** Keys of other parties (x-only, 32 bytes). */
  readonly publicKeys?: readonly Uint8Array[];
  /** Fresh wallet keys to add (each also becomes a standard address of the wallet). Default 1. */
  readonly walletKeys?: number;
}

export interface Wallet {
  readonly name: string;
  readonly network: WalletNetwork;
  addresses(): WalletAddress[];
  find(address: Uint8Array): WalletAddress | undefined;
  createAddress(type: 'standard'): WalletAddress;
  createAddress(type: 'multisig', options: MultisigOptions): WalletAddress;
  createAddress(type: WalletAddressType, options?: MultisigOptions): WalletAddress;
  /** The private key behind an x-only public key this wallet derived, if any. */
  privateKeyOf(publicKey: Uint8Array): Uint8Array | undefined;
  signMessage(address: Uint8Array, message: string | Uint8Array, type: MessageSignatureType, auxRand: Uint8Array): Uint8Array;
  /** Monero-style spend/view key pairs from the same mnemonic (src/wallet/stealth-accounts.ts). */
  readonly stealth: StealthAccounts;
  /** The current payload to seal. */
  payload(): WalletPayload;
}

/** A name is one safe file name on every platform: letters, digits, `_`, `-`. */
export function checkWalletName(name: unknown): string {
  if (typeof name !== 'string' || !new RegExp(`^[A-Za-z0-9_-]{1,${walletNameCharsMax}}$`).test(name)) {
    throw new WalletParamError('bad_name', `wallet_name: expected 1–${walletNameCharsMax} letters, digits, _ or -`);
  }
  return name;
}

/** A new payload: a fresh mnemonic from `randomBytes`, or the given one (restoring a backup). */
export function newWalletPayload(randomBytes: RandomBytes, mnemonic?: string): WalletPayload {
  return { mnemonic: mnemonic === undefined ? generateMnemonic(randomBytes) : normalizeMnemonic(mnemonic), account: 0, nextIndex: 0, multisig: [] };
}

/** Checks a decrypted payload's shape (it was authenticated, but may come from another version). */
export function parseWalletPayload(value: unknown): WalletPayload {
  const p = value as Partial<WalletPayload> | null;
  const okIndex = (n: unknown, max: number) => Number.isInteger(n) && (n as number) >= 0 && (n as number) <= max;
  if (typeof p !== 'object' || p === null || typeof p.mnemonic !== 'string' || !okIndex(p.account, 0x7fff_ffff)) {
    throw new WalletParamError('bad_request', 'wallet payload: expected mnemonic and account');
  }
  if (!okIndex(p.nextIndex, walletAddressesMax) || !Array.isArray(p.multisig) || p.multisig.length > walletMultisigScriptsMax) {
    throw new WalletParamError('bad_request', 'wallet payload: bad address counts');
  }
  if (p.stealthNext !== undefined && !okIndex(p.stealthNext, walletStealthAccountsMax)) throw new WalletParamError('bad_request', 'wallet payload: bad stealth account count');
  return { mnemonic: p.mnemonic, account: p.account!, nextIndex: p.nextIndex!, multisig: p.multisig, ...(p.stealthNext ? { stealthNext: p.stealthNext } : {}) };
}

interface StandardKey {
  readonly index: number;
  readonly privateKey: Uint8Array;
  readonly entry: WalletAddress;
}

export function openWallet(options: { name: string; network: WalletNetwork; payload: WalletPayload }): Wallet {
  const { network } = options;
  const name = checkWalletName(options.name);
  const start = parseWalletPayload(options.payload);
  const seed = mnemonicSeed(start.mnemonic);
  const node: HDKey = deriveChainNode(seed, network.name, start.account);
  const stealth = openStealthAccounts(seed, network, start.account, start.stealthNext ?? 0);
  const byPublicKey = new Map<string, StandardKey>();
  const byAddress = new Map<string, WalletAddress>();
  const multisig: { m: number; publicKeys: string[] }[] = [];
  let nextIndex = 0;

  const deriveNext = (): StandardKey => {
    if (nextIndex >= walletAddressesMax) throw new WalletParamError('too_many', `wallet "${name}" holds ${walletAddressesMax} addresses already`);
    const index = nextIndex++;
    const privateKey = node.deriveChild(index).privateKey!;
    const publicKey = publicKeyFromPrivate(privateKey);
    const address = standardAddress(publicKey);
    const entry: WalletAddress = {
      type: 'standard',
      address,
      text: encodeAddress(network.hrp, address),
      index,
      path: derivationPath(network.name, start.account, index),
    };
    const key = { index, privateKey, entry };
    byPublicKey.set(toHex(publicKey), key);
    byAddress.set(toHex(address), entry);
    return key;
  };

  const addMultisig = (m: number, keys: readonly Uint8Array[]): WalletAddress => {
    const sorted = canonicalMultisigKeys(m, keys);
    const address = multisigAddress(m, sorted);
    const existing = byAddress.get(toHex(address));
    if (existing !== undefined) return existing;
    if (multisig.length >= walletMultisigScriptsMax) throw new WalletParamError('too_many', `at most ${walletMultisigScriptsMax} multisig scripts`);
    const entry: WalletAddress = { type: 'multisig', address, text: encodeAddress(network.hrp, address), script: { m, publicKeys: sorted } };
    multisig.push({ m, publicKeys: sorted.map(toHex) });
    byAddress.set(toHex(address), entry);
    return entry;
  };

  while (nextIndex < start.nextIndex) deriveNext();
  for (const script of start.multisig) addMultisig(script.m, script.publicKeys.map(fromHex));

  const createAddress = (type: WalletAddressType, opts?: MultisigOptions): WalletAddress => {
    if (type === 'standard') return deriveNext().entry;
    if (type !== 'multisig' || opts === undefined) {
      throw new WalletParamError('bad_request', `address_type: got ${String(type)}, expected standard or multisig (with m)`);
    }
    const walletKeys = opts.walletKeys ?? 1;
    if (!Number.isInteger(walletKeys) || walletKeys < 0 || walletKeys > multisigKeysMax) throw new WalletParamError('bad_request', 'wallet_keys: expected 0–16');
    const others = opts.publicKeys ?? [];
    const n = walletKeys + others.length;
    // Check what can be checked before deriving, so a refused request consumes no derivation index.
    if (!Number.isInteger(opts.m) || opts.m < 1 || opts.m > n || n > multisigKeysMax || !others.every(isValidPublicKey)) {
      throw new WalletParamError('bad_request', `multisig: got m=${opts.m}, n=${n}, expected 1 ≤ m ≤ n ≤ ${multisigKeysMax} valid keys`);
    }
    const own = Array.from({ length: walletKeys }, () => deriveNext().entry.address.subarray(1));
    return addMultisig(opts.m, [...own, ...(opts.publicKeys ?? [])]);
  };

  return {
    name,
    network,
    addresses: () => [...byAddress.values()],
    find: (address) => byAddress.get(toHex(address)),
    createAddress: createAddress as Wallet['createAddress'],
    privateKeyOf: (publicKey) => byPublicKey.get(toHex(publicKey))?.privateKey,
    signMessage(address, message, type, auxRand) {
      const entry = byAddress.get(toHex(address));
      if (entry === undefined) throw new WalletParamError('not_in_wallet', `address is not in wallet "${name}"`);
      if (entry.type !== 'standard') throw new WalletParamError('not_standard', 'sign_message: needs a standard address');
      return signMessageWithKey(byPublicKey.get(toHex(address.subarray(1)))!.privateKey, message, type, auxRand);
    },
    stealth,
    payload: () => ({
      mnemonic: start.mnemonic,
      account: start.account,
      nextIndex,
      multisig: multisig.map((s) => ({ ...s })),
      ...(stealth.count() > 0 ? { stealthNext: stealth.count() } : {}),
    }),
  };
}
