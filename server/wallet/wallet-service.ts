/**
 * The node's wallets (Node only): named wallets (`wallet_name`, default `default`) kept as encrypted keystore files
 * in `<datadir>/wallets/`, unlocked with the node's wallet passphrase (server/wallet/wallet-files.ts), and the
 * operations the RPC needs: create_address, sign_message, building and signing transfers for send_transaction.
 * Each wallet is unlocked (one scrypt) the first time it is used and stays unlocked in memory; every change is
 * sealed again under a fresh nonce and written atomically before the call returns.
 */
import { randomBytes as nodeRandomBytes } from 'node:crypto';
import type { RandomBytes } from '../../src/crypto/keys.ts';
import { auxRandBytes } from '../../src/crypto/keys.ts';
import { KeystoreFormatError, WalletParamError } from '../../src/wallet/errors.ts';
import { createKeystoreKey, openAttachment, openKeystore, sealAttachment, sealKeystore, type KeystoreKey, type ScryptParams } from '../../src/wallet/keystore.ts';
import type { MessageSignatureType } from '../../src/wallet/message.ts';
import type { StealthAccount } from '../../src/wallet/stealth-accounts.ts';
import { buildTransfer, type BuiltTransfer, type TransferRequest } from '../../src/wallet/transfer.ts';
import {
  checkWalletName,
  newWalletPayload,
  openWallet,
  parseWalletPayload,
  type MultisigOptions,
  type Wallet,
  type WalletAddress,
  type WalletAddressType,
  type WalletNetwork,
} from '../../src/wallet/wallet.ts';
import {
  listWalletNames,
  loadAttachmentFile,
  loadKeystoreFile,
  resolveWalletPassphrase,
  saveAttachmentFile,
  saveKeystoreFile,
  setAsideAttachmentFile,
  type PassphraseSource,
} from './wallet-files.ts';

export const defaultWalletName = 'default';
/** Wallets one node keeps unlocked; also bounds the scan of `findAddress`. */
const walletsOpenMax = 64;

export interface WalletServiceOptions {
  readonly datadir: string;
  readonly network: WalletNetwork;
  /** From the config; else $WEFT_WALLET_PASSPHRASE, else `<datadir>/wallet.secret`. */
  readonly passphrase?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly scrypt?: ScryptParams;
  readonly randomBytes?: RandomBytes;
}

export interface WalletService {
  readonly passphraseSource: PassphraseSource;
  /** Creates a wallet (a fresh mnemonic, or the given one to restore a backup). Refuses an existing name. */
  createWallet(name: string, options?: { mnemonic?: string }): Wallet;
  /** Opens a wallet; the `default` wallet is created on first use, others only with `create`. */
  wallet(name?: string, options?: { create?: boolean }): Wallet;
  listWallets(): string[];
  /** Creates the named wallet first if it does not exist (the seed has no create_wallet method). */
  createAddress(walletName: string | undefined, type: WalletAddressType, options?: MultisigOptions): WalletAddress;
  /** The wallet holding `address`, searching every wallet in the datadir. */
  findAddress(address: Uint8Array): { wallet: Wallet; entry: WalletAddress } | undefined;
  signMessage(address: Uint8Array, message: string, type: MessageSignatureType): Uint8Array;
  buildTransfer(request: TransferRequest): BuiltTransfer;
  /** A new stealth account (spend/view key pair) in the named wallet, created first if absent; saved before return. */
  createStealthAccount(walletName: string | undefined): { wallet: Wallet; account: StealthAccount };
  /** Every stealth account of every wallet in the datadir. */
  stealthAccounts(): { wallet: Wallet; account: StealthAccount }[];
  /**
   * A secret the node keeps for a wallet beside its keystore (`<name>.<purpose>.json`), sealed under the wallet's
   * keystore key with a fresh nonce and written atomically; the wallet must exist.
   */
  saveAttachment(walletName: string, purpose: string, payload: unknown): void;
  /** The attachment's payload, undefined when none was saved; throws KeystoreFormatError when it does not open. */
  loadAttachment(walletName: string, purpose: string): unknown;
  /** Renames an attachment that does not open to `<file>.unreadable-<ms>`, for the operator to inspect. */
  setAsideAttachment(walletName: string, purpose: string): void;
  /** The mnemonic, for an operator's backup (CLI), never for RPC. */
  exportMnemonic(name: string): string;
}

interface Unlocked {
  readonly wallet: Wallet;
  readonly key: KeystoreKey;
}

export function createWalletService(options: WalletServiceOptions): WalletService {
  const { datadir, network } = options;
  const random: RandomBytes = options.randomBytes ?? ((n) => new Uint8Array(nodeRandomBytes(n)));
  const { passphrase, source } = resolveWalletPassphrase(datadir, options.passphrase, options.env);
  const open = new Map<string, Unlocked>();

  const save = (unlocked: Unlocked) => saveKeystoreFile(datadir, sealKeystore(unlocked.key, unlocked.wallet.payload(), random));

  const remember = (unlocked: Unlocked): Wallet => {
    if (open.size >= walletsOpenMax) throw new WalletParamError('too_many', `at most ${walletsOpenMax} wallets per node`);
    open.set(unlocked.wallet.name, unlocked);
    return unlocked.wallet;
  };

  const createWallet = (name: string, opts: { mnemonic?: string } = {}): Wallet => {
    checkWalletName(name);
    if (open.has(name) || loadKeystoreFile(datadir, name) !== undefined) {
      throw new WalletParamError('bad_name', `wallet "${name}" already exists`);
    }
    const payload = newWalletPayload(random, opts.mnemonic);
    const key = createKeystoreKey(passphrase, { name, network: network.name }, random, options.scrypt);
    const unlocked = { wallet: openWallet({ name, network, payload }), key };
    save(unlocked);
    return remember(unlocked);
  };

  const unlock = (name: string): Wallet | undefined => {
    const cached = open.get(checkWalletName(name));
    if (cached !== undefined) return cached.wallet;
    const file = loadKeystoreFile(datadir, name);
    if (file === undefined) return undefined;
    const { key, payload } = openKeystore(file, passphrase);
    if (key.header.name !== name) throw new KeystoreFormatError(`file ${name}.json holds wallet "${key.header.name}"`);
    if (key.header.network !== network.name) throw new KeystoreFormatError(`wallet "${name}" is for ${key.header.network}, not ${network.name}`);
    return remember({ wallet: openWallet({ name, network, payload: parseWalletPayload(payload) }), key });
  };

  const wallet = (name: string = defaultWalletName, opts: { create?: boolean } = {}): Wallet => {
    const found = unlock(name);
    if (found !== undefined) return found;
    if (name === defaultWalletName || opts.create === true) return createWallet(name);
    throw new WalletParamError('bad_name', `no wallet named "${name}"`);
  };

  const findAddress = (address: Uint8Array) => {
    for (const name of listWalletNames(datadir).slice(0, walletsOpenMax)) unlock(name);
    for (const { wallet: w } of open.values()) {
      const entry = w.find(address);
      if (entry !== undefined) return { wallet: w, entry };
    }
    return undefined;
  };

  const unlockAll = () => {
    for (const name of listWalletNames(datadir).slice(0, walletsOpenMax)) unlock(name);
    return [...open.values()].map((u) => u.wallet);
  };

  const owner = (address: Uint8Array) => {
    const found = findAddress(address);
    if (found === undefined) throw new WalletParamError('not_in_wallet', 'address is in none of this node\'s wallets');
    return found.wallet;
  };

  return {
    passphraseSource: source,
    createWallet,
    wallet,
    listWallets: () => listWalletNames(datadir),
    createAddress(walletName, type, opts) {
      // The seed has no create_wallet method: create_address with a new wallet_name creates that wallet.
      const w = wallet(walletName ?? defaultWalletName, { create: true });
      const entry = w.createAddress(type, opts);
      save(open.get(w.name)!);
      return entry;
    },
    findAddress,
    createStealthAccount(walletName) {
      const w = wallet(walletName ?? defaultWalletName, { create: true });
      const account = w.stealth.create();
      save(open.get(w.name)!);
      return { wallet: w, account };
    },
    stealthAccounts: () => unlockAll().flatMap((w) => w.stealth.list().map((account) => ({ wallet: w, account }))),
    signMessage: (address, message, type) => owner(address).signMessage(address, message, type, random(auxRandBytes)),
    buildTransfer: (request) => buildTransfer(owner(request.from), request, random),
    saveAttachment(walletName, purpose, payload) {
      const { key } = open.get(wallet(walletName).name)!;
      saveAttachmentFile(datadir, sealAttachment(key, purpose, payload, random));
    },
    loadAttachment(walletName, purpose) {
      const { key } = open.get(wallet(walletName).name)!;
      const file = loadAttachmentFile(datadir, walletName, purpose);
      return file === undefined ? undefined : openAttachment(key, purpose, file);
    },
    setAsideAttachment: (walletName, purpose) => setAsideAttachmentFile(datadir, walletName, purpose, Date.now()),
    exportMnemonic: (name) => wallet(name).payload().mnemonic,
  };
}
