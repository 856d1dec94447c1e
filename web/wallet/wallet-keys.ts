/**
 * Creating, importing and unlocking the tab's wallet with the isomorphic src/wallet: BIP39 mnemonic, BIP32 keys,
 * keystore sealed under the user's password (scrypt + XChaCha20-Poly1305, docs/wallet.md). The key derived from the
 * password is held in memory only while the page is open; the sealed file is all that IndexedDB ever sees.
 */
import type { RandomBytes } from '../../src/crypto/keys.ts';
import { createKeystoreKey, openKeystore, sealKeystore, type KeystoreKey } from '../../src/wallet/keystore.ts';
import { checkWalletName, newWalletPayload, openWallet, parseWalletPayload, type Wallet, type WalletNetwork, type WalletPayload } from '../../src/wallet/wallet.ts';
import { FieldError } from './form-errors.ts';
import type { WalletDb } from './wallet-db.ts';

/** The browser's CSPRNG (Web Crypto), the random source src/wallet takes as a parameter. */
export const browserRandomBytes: RandomBytes = (length) => crypto.getRandomValues(new Uint8Array(length));

export interface UnlockedWallet {
  readonly wallet: Wallet;
  readonly key: KeystoreKey;
  /** A recovery phrase generated in this tab just now: nothing can have paid it before (the private scan starts late). */
  readonly fresh?: true;
}

/** Passwords shorter than this are refused at creation (the keystore is only as strong as its password). */
export const walletPasswordCharsMin = 8;

/**
 * Checks what a new wallet needs before anything is shown or derived: a valid name not taken in this browser, and
 * a password of at least walletPasswordCharsMin characters. Errors name their field (`name`, `password`).
 */
export async function checkNewWallet(db: WalletDb, options: { name: string; password: string }): Promise<void> {
  try {
    checkWalletName(options.name);
  } catch (error) {
    throw new FieldError('name', (error as Error).message);
  }
  if ((await db.loadKeystore(options.name)) !== undefined) throw new FieldError('name', `a wallet named "${options.name}" exists already in this browser`);
  if (options.password.length < walletPasswordCharsMin) throw new FieldError('password', `password: at least ${walletPasswordCharsMin} characters`);
}

/**
 * Seals and saves a new wallet from `payload` (a fresh phrase once confirmed, a restored phrase, or an imported
 * backup's whole payload) with at least one address. `key` is an already derived keystore key for this name and
 * network (an imported backup's, when its name is kept), which saves a second scrypt.
 */
export async function saveNewBrowserWallet(
  db: WalletDb,
  options: { name: string; network: WalletNetwork; password: string; payload: WalletPayload; key?: KeystoreKey },
): Promise<UnlockedWallet> {
  await checkNewWallet(db, options);
  const wallet = openWallet({ name: options.name, network: options.network, payload: options.payload });
  if (wallet.addresses().length === 0) wallet.createAddress('standard');
  const reusable = options.key?.header.name === options.name && options.key.header.network === options.network.name;
  const key = reusable ? options.key! : createKeystoreKey(options.password, { name: options.name, network: options.network.name }, browserRandomBytes);
  const unlocked = { wallet, key };
  await saveBrowserWallet(db, unlocked);
  return unlocked;
}

/** Creates a wallet (fresh 24-word mnemonic, or `mnemonic` to import a backup) with its first address, and saves it. */
export async function createBrowserWallet(
  db: WalletDb,
  options: { name: string; network: WalletNetwork; password: string; mnemonic?: string },
): Promise<UnlockedWallet> {
  await checkNewWallet(db, options);
  return saveNewBrowserWallet(db, { ...options, payload: newWalletPayload(browserRandomBytes, options.mnemonic) });
}

/** Opens the sealed keystore `name` with `password` (wrong password → WalletPassphraseError, -32001). */
export async function unlockBrowserWallet(db: WalletDb, name: string, password: string, network: WalletNetwork): Promise<UnlockedWallet> {
  const file = await db.loadKeystore(name);
  if (file === undefined) throw new Error(`no wallet named "${name}" in this browser`);
  if (file.network !== network.name) throw new Error(`wallet "${name}" is for ${file.network}, the node runs ${network.name}`);
  const opened = openKeystore(file, password);
  return { wallet: openWallet({ name, network, payload: parseWalletPayload(opened.payload) }), key: opened.key };
}

/** Re-seals the wallet (fresh nonce, same key: no scrypt) after a change such as a new address. */
export async function saveBrowserWallet(db: WalletDb, unlocked: UnlockedWallet): Promise<void> {
  await db.saveKeystore(sealKeystore(unlocked.key, unlocked.wallet.payload(), browserRandomBytes));
}
