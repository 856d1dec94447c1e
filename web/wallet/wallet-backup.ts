/**
 * Encrypted backup files on the wallet page (format: src/wallet/backup.ts, docs/widget.md "Backup file"):
 * "Download encrypted backup" seals the unlocked wallet's whole payload under a backup password the user types
 * twice and saves it as a .json download; importing reads such a file with its password into a new wallet of this
 * browser. A wrong password, an altered file or a file of another network is said beside the field concerned and
 * imports nothing.
 */
import { createBackupFile, openBackupFile, parseBackupFile } from '../../src/wallet/backup.ts';
import { WalletPassphraseError } from '../../src/wallet/errors.ts';
import { keystoreFileBytesMax } from '../../src/wallet/wallet-limits.ts';
import type { WalletNetwork } from '../../src/wallet/wallet.ts';
import type { WalletDb } from './wallet-db.ts';
import { browserRandomBytes, saveNewBrowserWallet, walletPasswordCharsMin, type UnlockedWallet } from './wallet-keys.ts';
import { FieldError, runForm } from './form-errors.ts';
import { byId } from '../lib/dom.ts';


/** The file's text, refused before reading when it is larger than any backup can be. */
async function readBackupText(file: File | undefined): Promise<string> {
  if (file === undefined) throw new FieldError('file', 'backup file: choose the .json file the wallet downloaded');
  if (file.size > keystoreFileBytesMax) throw new FieldError('file', `backup file: ${file.size} bytes, a backup is at most ${keystoreFileBytesMax}`);
  return file.text();
}

/** The wallet name stored in a chosen backup file, to prefill the name field; undefined if it is not one. */
export async function backupFileName(file: File | undefined): Promise<string | undefined> {
  try {
    return parseBackupFile(await readBackupText(file)).keystore.name;
  } catch {
    return undefined;
  }
}

/**
 * Imports the backup `file` opened with `password` as the wallet `name` (sealed with the same password). Errors
 * name their field: `file` (not a backup, another network), `password` (wrong, or the file altered), `name`.
 */
export async function importBackupFile(
  db: WalletDb,
  options: { file: File | undefined; password: string; name: string; network: WalletNetwork },
): Promise<UnlockedWallet> {
  let backup;
  try {
    backup = parseBackupFile(await readBackupText(options.file));
  } catch (error) {
    throw error instanceof FieldError ? error : new FieldError('file', (error as Error).message);
  }
  if (backup.keystore.network !== options.network.name) {
    throw new FieldError('file', `backup file: a ${backup.keystore.network} wallet, this node runs ${options.network.name}`);
  }
  let opened;
  try {
    opened = openBackupFile(backup, options.password);
  } catch (error) {
    if (error instanceof WalletPassphraseError) throw new FieldError('password', 'wrong password for this backup file (or the file was altered): nothing was imported', 'unauthorized');
    throw new FieldError('file', (error as Error).message);
  }
  return saveNewBrowserWallet(db, { name: options.name, network: options.network, password: options.password, payload: opened.payload, key: opened.key });
}

/** Wires the "Back up" card of the unlocked wallet. */
export function wireBackupCard(unlocked: UnlockedWallet): void {
  const form = byId<HTMLFormElement>('export-form');
  form.onsubmit = (event) => {
    event.preventDefault();
    void runForm(form, byId<HTMLButtonElement>('export-submit'), async () => {
      const password = byId<HTMLInputElement>('export-password').value;
      if (password.length < walletPasswordCharsMin) throw new FieldError('password', `backup password: at least ${walletPasswordCharsMin} characters`);
      if (byId<HTMLInputElement>('export-repeat').value !== password) throw new FieldError('repeat', 'the two passwords differ');
      const { wallet } = unlocked;
      // scrypt takes a moment: let the disabled button paint first.
      await new Promise((resolve) => setTimeout(resolve, 0));
      const text = createBackupFile({ name: wallet.name, network: wallet.network.name, password, payload: wallet.payload(), createdMs: Date.now() }, browserRandomBytes);
      const fileName = `weft-wallet-${wallet.name}-${wallet.network.name}-${new Date().toISOString().slice(0, 10)}.json`;
      const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
      const link = Object.assign(document.createElement('a'), { href: url, download: fileName });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      form.reset();
      byId('export-result').textContent = `Saved ${fileName}. It opens only with this password: keep both, apart.`;
    }, { password: 'export-password', repeat: 'export-repeat' });
  };
}
