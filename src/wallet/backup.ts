/**
 * The encrypted wallet backup file (docs/widget.md "Backup file"): what the web wallet's "Download encrypted backup"
 * writes and "Import a backup file" reads. It is a versioned envelope around a keystore (keystore.ts) sealed under
 * the backup's own password — scrypt (N = 2^16, r = 8, p = 1) and XChaCha20-Poly1305, the keystore's header bound as
 * associated data — so the file is exactly as hard to open as the wallet itself, and a node could read it too.
 *
 *   { "format": "weft-wallet-backup", "version": 1, "created": ISO 8601 time, "keystore": { weft-keystore v1 } }
 *
 * The sealed payload is the wallet's whole payload (mnemonic, account, addresses derived so far, multisig scripts),
 * so an import restores the same address list, not only the phrase. A wrong password or an altered file is
 * WalletPassphraseError (-32001) and yields nothing.
 */
import type { RandomBytes } from '../crypto/keys.ts';
import { WeftError } from '../errors.ts';
import { WalletPassphraseError } from './errors.ts';
import { createKeystoreKey, openKeystore, parseKeystoreFile, sealKeystore, type KeystoreFile, type KeystoreKey, type ScryptParams } from './keystore.ts';
import { parseWalletPayload, type WalletPayload } from './wallet.ts';
import { keystoreFileBytesMax } from './wallet-limits.ts';

const backupFormat = 'weft-wallet-backup';
const backupVersion = 1;

export interface BackupFile {
  readonly format: typeof backupFormat;
  readonly version: typeof backupVersion;
  readonly created: string;
  readonly keystore: KeystoreFile;
}

/** -32602: the text is not a Weft wallet backup of a version this code reads (the message says what is wrong). */
export class BackupFormatError extends WeftError {
  constructor(message: string) {
    super('invalid_params', `backup file: ${message}`);
  }
}

/** Seals `payload` of the wallet `name` on `network` under `password` into a backup file's JSON text. */
export function createBackupFile(
  options: { name: string; network: string; password: string; payload: WalletPayload; createdMs: number },
  randomBytes: RandomBytes,
  scrypt?: ScryptParams,
): string {
  const key = createKeystoreKey(options.password, { name: options.name, network: options.network }, randomBytes, scrypt);
  const file: BackupFile = {
    format: backupFormat,
    version: backupVersion,
    created: new Date(options.createdMs).toISOString(),
    keystore: sealKeystore(key, options.payload, randomBytes),
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** Checks the file's text: size, JSON, format, version and the keystore's shape — before any scrypt is spent. */
export function parseBackupFile(text: string): BackupFile {
  if (typeof text !== 'string' || text.length > keystoreFileBytesMax) throw new BackupFormatError(`expected at most ${keystoreFileBytesMax} bytes of JSON`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new BackupFormatError('not JSON: choose the .json file the wallet downloaded');
  }
  const f = json as Partial<BackupFile> | null;
  if (typeof f !== 'object' || f === null || f.format !== backupFormat) throw new BackupFormatError(`expected format "${backupFormat}", not a Weft wallet backup`);
  if (f.version !== backupVersion) throw new BackupFormatError(`version: got ${String(f.version)}, expected ${backupVersion}`);
  if (typeof f.created !== 'string' || Number.isNaN(Date.parse(f.created))) throw new BackupFormatError('created: expected an ISO 8601 time');
  let keystore: KeystoreFile;
  try {
    keystore = parseKeystoreFile(f.keystore);
  } catch (error) {
    throw new BackupFormatError((error as Error).message);
  }
  return { format: backupFormat, version: backupVersion, created: f.created, keystore };
}

/**
 * Opens a parsed backup with its password: the wallet's name and network as exported, its payload, and the
 * keystore key (the caller may keep it to seal the wallet under the same password without a second scrypt).
 */
export function openBackupFile(backup: BackupFile, password: string): { name: string; network: string; payload: WalletPayload; key: KeystoreKey } {
  let opened;
  try {
    opened = openKeystore(backup.keystore, password);
  } catch (error) {
    if (error instanceof WalletPassphraseError) throw error;
    throw new BackupFormatError((error as Error).message);
  }
  return { name: backup.keystore.name, network: backup.keystore.network, payload: parseWalletPayload(opened.payload), key: opened.key };
}
