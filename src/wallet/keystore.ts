/**
 * The encrypted keystore format (docs/wallet.md "Keystore"), independent of any file system: the node writes it to
 * `<datadir>/wallets/<name>.json` (server/wallet/), a browser could keep it in IndexedDB.
 *
 *   { "format": "weft-keystore", "version": 1, "name", "network",
 *     "kdf": { "name": "scrypt", "log2n", "r", "p", "salt" (hex) },
 *     "cipher": { "name": "xchacha20-poly1305", "nonce" (hex, 24 bytes) },
 *     "ciphertext": hex }
 *
 * key = scrypt(NFKC(passphrase), salt, N = 2^log2n, r, p, 32 bytes) (@noble/hashes); the secret payload (the
 * mnemonic and the wallet's address book, JSON) is sealed with XChaCha20-Poly1305 (@noble/ciphers) under a fresh
 * random 24-byte nonce on every save, with the header (format, version, name, network, kdf, cipher name) as
 * associated data: renaming the file's wallet, moving it to another network or weakening its kdf breaks the tag.
 * The key is derived once per unlock and kept by the caller, so saves do not pay scrypt again.
 *
 * Attachments are other secrets of the same wallet sealed under the same key (the node wallet's scanned outputs,
 * docs/privacy.md "Wallets"): the same cipher with a fresh nonce, whose associated data adds the attachment's
 * purpose to the header's, so neither a keystore's ciphertext nor another purpose's opens as one.
 */
import { xchacha20poly1305 } from '@noble/ciphers/chacha.js';
import { scrypt } from '@noble/hashes/scrypt.js';
import type { RandomBytes } from '../crypto/keys.ts';
import { fromHex, toHex } from '../util/bytes.ts';
import { KeystoreFormatError, WalletPassphraseError } from './errors.ts';
import {
  keystoreSaltBytes,
  keystoreScryptLog2NDefault,
  keystoreScryptLog2NMax,
  keystoreScryptMemoryBytesMax,
  keystoreScryptPMax,
  keystoreScryptRMax,
} from './wallet-limits.ts';

const keystoreFormat = 'weft-keystore';
const keystoreVersion = 1;
const keyBytes = 32;
const nonceBytes = 24;

export interface ScryptParams {
  readonly log2n: number;
  readonly r: number;
  readonly p: number;
}
const defaultScryptParams: ScryptParams = Object.freeze({ log2n: keystoreScryptLog2NDefault, r: 8, p: 1 });

interface KeystoreHeader {
  readonly format: typeof keystoreFormat;
  readonly version: typeof keystoreVersion;
  readonly name: string;
  readonly network: string;
  readonly kdf: ScryptParams & { readonly name: 'scrypt'; readonly salt: string };
}

export interface KeystoreFile extends KeystoreHeader {
  readonly cipher: { readonly name: 'xchacha20-poly1305'; readonly nonce: string };
  readonly ciphertext: string;
}

/** An unlocked keystore's key, bound to its header (same salt and cost on every save). */
export interface KeystoreKey {
  readonly header: KeystoreHeader;
  readonly key: Uint8Array;
}

function deriveKey(passphrase: string, kdf: KeystoreHeader['kdf']): Uint8Array {
  const N = 2 ** kdf.log2n;
  return scrypt(passphrase.normalize('NFKC'), fromHex(kdf.salt), { N, r: kdf.r, p: kdf.p, dkLen: keyBytes, maxmem: 128 * N * kdf.r * kdf.p + 1024 * 1024 });
}

/** Associated data: the header's fields in a fixed order (never the file's own text, whose key order may vary). */
function associatedData(header: KeystoreHeader): Uint8Array {
  const { format, version, name, network, kdf } = header;
  const canonical = [format, version, name, network, kdf.name, kdf.log2n, kdf.r, kdf.p, kdf.salt, 'xchacha20-poly1305'];
  return new TextEncoder().encode(JSON.stringify(canonical));
}

/** A new keystore key: fresh salt, scrypt once. */
export function createKeystoreKey(
  passphrase: string,
  identity: { name: string; network: string },
  randomBytes: RandomBytes,
  params: ScryptParams = defaultScryptParams,
): KeystoreKey {
  const kdf = { name: 'scrypt' as const, ...params, salt: toHex(randomBytes(keystoreSaltBytes)) };
  checkKdf(kdf);
  const header: KeystoreHeader = { format: keystoreFormat, version: keystoreVersion, name: identity.name, network: identity.network, kdf };
  return { header, key: deriveKey(passphrase, kdf) };
}

/** Seals `payload` (JSON-serialisable) under the key with a fresh nonce. */
export function sealKeystore(key: KeystoreKey, payload: unknown, randomBytes: RandomBytes): KeystoreFile {
  const nonce = randomBytes(nonceBytes);
  const plaintext = new TextEncoder().encode(JSON.stringify(payload));
  const ciphertext = xchacha20poly1305(key.key, nonce, associatedData(key.header)).encrypt(plaintext);
  return { ...key.header, cipher: { name: 'xchacha20-poly1305', nonce: toHex(nonce) }, ciphertext: toHex(ciphertext) };
}

/** Opens a keystore: checks its shape, derives the key, authenticates and decrypts. */
export function openKeystore(file: unknown, passphrase: string): { key: KeystoreKey; payload: unknown } {
  const parsed = parseKeystoreFile(file);
  const header: KeystoreHeader = {
    format: parsed.format,
    version: parsed.version,
    name: parsed.name,
    network: parsed.network,
    kdf: parsed.kdf,
  };
  const key = { header, key: deriveKey(passphrase, parsed.kdf) };
  let plaintext: Uint8Array;
  try {
    plaintext = xchacha20poly1305(key.key, fromHex(parsed.cipher.nonce), associatedData(header)).decrypt(fromHex(parsed.ciphertext));
  } catch {
    throw new WalletPassphraseError(parsed.name);
  }
  try {
    return { key, payload: JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(plaintext)) };
  } catch {
    throw new KeystoreFormatError('authenticated payload is not JSON');
  }
}

const attachmentFormat = 'weft-wallet-attachment';

/** A secret of a wallet sealed under its keystore key, with the keystore's header repeated for identification. */
export interface SealedAttachment {
  readonly format: typeof attachmentFormat;
  readonly version: typeof keystoreVersion;
  readonly purpose: string;
  readonly name: string;
  readonly network: string;
  readonly cipher: { readonly name: 'xchacha20-poly1305'; readonly nonce: string };
  readonly ciphertext: string;
}

function attachmentData(header: KeystoreHeader, purpose: string): Uint8Array {
  const keystore = JSON.parse(new TextDecoder().decode(associatedData(header))) as unknown[];
  return new TextEncoder().encode(JSON.stringify([...keystore, attachmentFormat, purpose]));
}

/** Seals `payload` (JSON-serialisable) as the wallet's `purpose` attachment under its keystore key, fresh nonce. */
export function sealAttachment(key: KeystoreKey, purpose: string, payload: unknown, randomBytes: RandomBytes): SealedAttachment {
  const nonce = randomBytes(nonceBytes);
  const plaintext = new TextEncoder().encode(JSON.stringify(payload));
  const ciphertext = xchacha20poly1305(key.key, nonce, attachmentData(key.header, purpose)).encrypt(plaintext);
  const { name, network } = key.header;
  return { format: attachmentFormat, version: keystoreVersion, purpose, name, network, cipher: { name: 'xchacha20-poly1305', nonce: toHex(nonce) }, ciphertext: toHex(ciphertext) };
}

/** Opens the wallet's `purpose` attachment: checks its shape, authenticates under the unlocked key and decrypts. */
export function openAttachment(key: KeystoreKey, purpose: string, file: unknown): unknown {
  const f = file as Partial<SealedAttachment> | null;
  if (typeof f !== 'object' || f === null || f.format !== attachmentFormat || f.version !== keystoreVersion || f.purpose !== purpose) {
    throw new KeystoreFormatError(`expected a "${attachmentFormat}" version ${keystoreVersion} for "${purpose}"`);
  }
  const cipher = f.cipher;
  if (typeof cipher !== 'object' || cipher === null || cipher.name !== 'xchacha20-poly1305' || !/^[0-9a-f]{48}$/.test(String(cipher.nonce))) {
    throw new KeystoreFormatError('cipher: expected xchacha20-poly1305 with a 24-byte hex nonce');
  }
  if (typeof f.ciphertext !== 'string' || !/^([0-9a-f]{2})+$/.test(f.ciphertext)) throw new KeystoreFormatError('ciphertext: expected hex');
  let plaintext: Uint8Array;
  try {
    plaintext = xchacha20poly1305(key.key, fromHex(cipher.nonce), attachmentData(key.header, purpose)).decrypt(fromHex(f.ciphertext));
  } catch {
    throw new KeystoreFormatError(`the "${purpose}" attachment of wallet "${key.header.name}" does not authenticate under its key`);
  }
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(plaintext));
  } catch {
    throw new KeystoreFormatError('authenticated attachment is not JSON');
  }
}

function checkKdf(kdf: KeystoreHeader['kdf']): void {
  const int = (n: unknown, max: number) => Number.isInteger(n) && (n as number) >= 1 && (n as number) <= max;
  if (kdf.name !== 'scrypt' || !int(kdf.log2n, keystoreScryptLog2NMax) || !int(kdf.r, keystoreScryptRMax) || !int(kdf.p, keystoreScryptPMax)) {
    throw new KeystoreFormatError(
      `kdf: expected scrypt with 1 ≤ log2n ≤ ${keystoreScryptLog2NMax}, 1 ≤ r ≤ ${keystoreScryptRMax}, 1 ≤ p ≤ ${keystoreScryptPMax}`,
    );
  }
  if (128 * 2 ** kdf.log2n * kdf.r * kdf.p > keystoreScryptMemoryBytesMax) {
    throw new KeystoreFormatError(`kdf: 128·N·r·p is over ${keystoreScryptMemoryBytesMax} bytes`);
  }
  if (typeof kdf.salt !== 'string' || !/^[0-9a-f]{32,128}$/.test(kdf.salt)) throw new KeystoreFormatError('kdf salt: expected 16–64 bytes of hex');
}

/** Checks the untrusted JSON's shape (every field, every bound) before any work is spent on it. */
export function parseKeystoreFile(file: unknown): KeystoreFile {
  const f = file as Partial<KeystoreFile> | null;
  if (typeof f !== 'object' || f === null || f.format !== keystoreFormat) throw new KeystoreFormatError(`expected format "${keystoreFormat}"`);
  if (f.version !== keystoreVersion) throw new KeystoreFormatError(`version: got ${String(f.version)}, expected ${keystoreVersion}`);
  if (typeof f.name !== 'string' || typeof f.network !== 'string') throw new KeystoreFormatError('name and network: expected strings');
  if (typeof f.kdf !== 'object' || f.kdf === null) throw new KeystoreFormatError('kdf: expected an object');
  checkKdf(f.kdf);
  const cipher = f.cipher;
  if (typeof cipher !== 'object' || cipher === null || cipher.name !== 'xchacha20-poly1305' || !/^[0-9a-f]{48}$/.test(String(cipher.nonce))) {
    throw new KeystoreFormatError('cipher: expected xchacha20-poly1305 with a 24-byte hex nonce');
  }
  if (typeof f.ciphertext !== 'string' || !/^([0-9a-f]{2})+$/.test(f.ciphertext)) throw new KeystoreFormatError('ciphertext: expected hex');
  const { log2n, r, p, salt } = f.kdf;
  return {
    format: keystoreFormat,
    version: keystoreVersion,
    name: f.name,
    network: f.network,
    kdf: { name: 'scrypt', log2n, r, p, salt },
    cipher: { name: cipher.name, nonce: cipher.nonce },
    ciphertext: f.ciphertext,
  };
}
