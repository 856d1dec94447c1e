/**
 * Keystore files on disk (Node only): `<datadir>/wallets/<name>.json`, mode 0600 in a 0700 directory, written
 * atomically (temp file, fsync, rename) so a crash mid-save leaves the old file or the new one, never half of each.
 * Next to each, its sealed attachments (`<name>.<purpose>.json`, same mode and atomic write; a dot keeps them out
 * of the wallet names). Also the node's wallet passphrase: configured (config / WEFT_WALLET_PASSPHRASE), else a generated secret in
 * `<datadir>/wallet.secret` (mode 0600) — docs/wallet.md "Unlocking" says why.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, writeSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { KeystoreFormatError } from '../../src/wallet/errors.ts';
import type { KeystoreFile, SealedAttachment } from '../../src/wallet/keystore.ts';
import { checkWalletName } from '../../src/wallet/wallet.ts';
import { keystoreFileBytesMax, walletAttachmentBytesMax } from '../../src/wallet/wallet-limits.ts';

const walletsDirName = 'wallets';
const walletSecretFileName = 'wallet.secret';
/** The environment variable a node reads its wallet passphrase from when the config gives none. */
const walletPassphraseEnv = 'WEFT_WALLET_PASSPHRASE';
const secretBytes = 32;
const fileMode = 0o600;
const dirMode = 0o700;

function walletsDir(datadir: string): string {
  return join(datadir, walletsDirName);
}

export function walletFilePath(datadir: string, name: string): string {
  return join(walletsDir(datadir), `${checkWalletName(name)}.json`);
}

/** Writes `text` to `path` atomically with mode 0600. */
function writeFileAtomic(path: string, text: string): void {
  const temp = `${path}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w', fileMode);
  try {
    fchmodSync(fd, fileMode); // a temp file left by a crash keeps its old mode otherwise
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
}

export function saveKeystoreFile(datadir: string, file: KeystoreFile): void {
  mkdirSync(walletsDir(datadir), { recursive: true, mode: dirMode });
  writeFileAtomic(walletFilePath(datadir, file.name), `${JSON.stringify(file, null, 2)}\n`);
}

/** `<datadir>/wallets/<name>.<purpose>.json`: a wallet's sealed attachment. */
export function attachmentFilePath(datadir: string, name: string, purpose: string): string {
  if (!/^[a-z]{1,32}$/.test(purpose)) throw new KeystoreFormatError(`attachment purpose "${purpose}": expected 1–32 lowercase letters`);
  return join(walletsDir(datadir), `${checkWalletName(name)}.${purpose}.json`);
}

export function saveAttachmentFile(datadir: string, file: SealedAttachment): void {
  mkdirSync(walletsDir(datadir), { recursive: true, mode: dirMode });
  writeFileAtomic(attachmentFilePath(datadir, file.name, file.purpose), `${JSON.stringify(file)}\n`);
}

/** Moves an attachment file aside (`.unreadable-<ms>`): what does not open now is kept, never overwritten. */
export function setAsideAttachmentFile(datadir: string, name: string, purpose: string, nowMs: number): void {
  const path = attachmentFilePath(datadir, name, purpose);
  try {
    renameSync(path, `${path}.unreadable-${nowMs}`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** The parsed JSON of a wallet's attachment file, or undefined when there is none. */
export function loadAttachmentFile(datadir: string, name: string, purpose: string): unknown {
  return readJsonFile(attachmentFilePath(datadir, name, purpose), walletAttachmentBytesMax);
}

/** The parsed JSON of a wallet file, or undefined when there is none. */
export function loadKeystoreFile(datadir: string, name: string): unknown {
  return readJsonFile(walletFilePath(datadir, name), keystoreFileBytesMax);
}

function readJsonFile(path: string, bytesMax: number): unknown {
  let size: number;
  try {
    size = statSync(path).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (size > bytesMax) throw new KeystoreFormatError(`${path}: ${size} bytes, at most ${bytesMax}`);
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    throw new KeystoreFormatError(`${path}: not JSON`);
  }
}

/** Names of the wallets in the datadir (files `<name>.json` with a valid name). */
export function listWalletNames(datadir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(walletsDir(datadir));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length))
    .filter((n) => /^[A-Za-z0-9_-]{1,64}$/.test(n))
    .sort();
}

export type PassphraseSource = 'config' | 'env' | 'secret-file';

/**
 * The passphrase that unlocks this node's wallets: the configured one, else $WEFT_WALLET_PASSPHRASE, else the
 * content of `<datadir>/wallet.secret`, created (32 random bytes, hex, mode 0600) on first use.
 */
export function resolveWalletPassphrase(
  datadir: string,
  configured?: string,
  env: NodeJS.ProcessEnv = process.env,
): { passphrase: string; source: PassphraseSource } {
  if (configured !== undefined && configured !== '') return { passphrase: configured, source: 'config' };
  const fromEnv = env[walletPassphraseEnv];
  if (fromEnv !== undefined && fromEnv !== '') return { passphrase: fromEnv, source: 'env' };
  mkdirSync(datadir, { recursive: true });
  const path = join(datadir, walletSecretFileName);
  try {
    const fd = openSync(path, 'wx', fileMode);
    try {
      writeSync(fd, `${randomBytes(secretBytes).toString('hex')}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return { passphrase: readFileSync(path, 'utf8').trim(), source: 'secret-file' };
}
