/**
 * Opening a wallet in this browser, the way MetaMask and Rabby do it: a new wallet shows its 24-word recovery
 * phrase numbered, then asks three of its words back (at random positions) and only then seals and saves it —
 * until the words match, nothing is stored and the wallet cannot be used. Restoring checks the typed phrase word by
 * word (recovery-phrase.ts); importing opens an encrypted backup file (wallet-backup.ts). Where the keys live (this
 * browser's IndexedDB, encrypted with the password) is said on the form and on the phrase.
 */
import { generateMnemonic } from '../../src/wallet/hd.ts';
import { newWalletPayload, type WalletNetwork } from '../../src/wallet/wallet.ts';
import type { WalletDb } from './wallet-db.ts';
import { browserRandomBytes, checkNewWallet, saveNewBrowserWallet, type UnlockedWallet } from './wallet-keys.ts';
import { backupFileName, importBackupFile } from './wallet-backup.ts';
import { checkRecoveryPhrase, pickChallengePositions, wrongChallengeAnswers } from './recovery-phrase.ts';
import { clearErrors, runForm, setFieldError } from './form-errors.ts';
import { byId } from '../lib/dom.ts';
import { parseRestoreHeight, setScanStart } from './private-start.ts';


type CreateMode = 'new' | 'restore' | 'import';
const modeTexts: Record<CreateMode, { submit: string; password: string }> = {
  new: { submit: 'Create wallet', password: 'Password (at least 8 characters)' },
  restore: { submit: 'Restore wallet', password: 'Password (at least 8 characters)' },
  import: { submit: 'Import backup', password: "The backup file's password (the wallet will unlock with it)" },
};
const createFields = { name: 'create-name', password: 'create-password', mnemonic: 'create-mnemonic', file: 'create-file', 'restore-height': 'create-restore-height' };

/** Shows one of the setup steps (the setup forms, the phrase, the word check) and moves focus to its heading. */
function showStep(step: 'setup' | 'phrase-step' | 'confirm-step'): void {
  for (const id of ['setup', 'phrase-step', 'confirm-step']) byId(id).hidden = id !== step;
  if (step !== 'setup') byId(step === 'phrase-step' ? 'phrase-title' : 'confirm-title').focus();
}

export function wireCreateForm(db: WalletDb, network: WalletNetwork, open: (unlocked: UnlockedWallet) => void): void {
  const form = byId<HTMLFormElement>('create-form');
  const submit = byId<HTMLButtonElement>('create-submit');
  const mode = (): CreateMode => (form.querySelector<HTMLInputElement>('input[name="create-mode"]:checked')?.value ?? 'new') as CreateMode;
  const fields = () => ({ name: byId<HTMLInputElement>('create-name').value.trim(), network, password: byId<HTMLInputElement>('create-password').value });

  form.addEventListener('change', (event) => {
    if ((event.target as HTMLInputElement).name !== 'create-mode') return;
    const m = mode();
    clearErrors(form);
    byId('create-mnemonic-label').hidden = m !== 'restore';
    byId('create-restore-height-label').hidden = m !== 'restore';
    byId('create-file-label').hidden = m !== 'import';
    byId('create-password-text').textContent = modeTexts[m].password;
    submit.textContent = modeTexts[m].submit;
  });
  byId<HTMLInputElement>('create-file').addEventListener('change', async () => {
    const name = await backupFileName(byId<HTMLInputElement>('create-file').files?.[0]);
    if (name !== undefined) byId<HTMLInputElement>('create-name').value = name;
  });

  form.onsubmit = (event) => {
    event.preventDefault();
    void runForm(form, submit, async () => {
      const options = fields();
      if (mode() === 'import') return open(await importBackupFile(db, { ...options, file: byId<HTMLInputElement>('create-file').files?.[0] }));
      if (mode() === 'restore') {
        const phrase = checkRecoveryPhrase(byId<HTMLTextAreaElement>('create-mnemonic').value);
        const restoreHeight = parseRestoreHeight(byId<HTMLInputElement>('create-restore-height').value);
        await checkNewWallet(db, options);
        setScanStart(options.name, restoreHeight);
        byId<HTMLTextAreaElement>('create-mnemonic').value = '';
        return open(await saveNewBrowserWallet(db, { ...options, payload: newWalletPayload(browserRandomBytes, phrase) }));
      }
      await checkNewWallet(db, options);
      startPhraseSteps(db, options, generateMnemonic(browserRandomBytes), open);
    }, createFields);
  };
}

/** The new phrase, numbered, then three of its words asked back; saved and opened once they match. */
function startPhraseSteps(db: WalletDb, options: { name: string; network: WalletNetwork; password: string }, mnemonic: string, open: (unlocked: UnlockedWallet) => void): void {
  const words = mnemonic.split(' ');
  let positions: number[] = [];
  const forget = () => {
    byId('backup-words').replaceChildren();
    byId('confirm-words').replaceChildren();
  };
  byId('backup-words').replaceChildren(...words.map((word) => Object.assign(document.createElement('li'), { textContent: word })));
  showStep('phrase-step');

  byId('phrase-cancel').onclick = () => {
    forget();
    showStep('setup');
  };
  byId('backup-done').onclick = () => {
    positions = pickChallengePositions(words.length, browserRandomBytes);
    byId('confirm-words').replaceChildren(
      ...positions.map((position) => {
        const label = document.createElement('label');
        const input = Object.assign(document.createElement('input'), { id: `confirm-word-${position + 1}`, autocomplete: 'off', spellcheck: false });
        input.setAttribute('autocapitalize', 'off');
        label.append(`Word #${position + 1}`, input);
        return label;
      }),
    );
    showStep('confirm-step');
  };
  byId('confirm-back').onclick = () => showStep('phrase-step');
  const confirmForm = byId<HTMLFormElement>('confirm-form');
  confirmForm.onsubmit = (event) => {
    event.preventDefault();
    const inputs = positions.map((p) => byId<HTMLInputElement>(`confirm-word-${p + 1}`));
    const wrong = new Set(wrongChallengeAnswers(words, positions, inputs.map((i) => i.value)));
    positions.forEach((p, i) => setFieldError(inputs[i]!, wrong.has(p) ? `word #${p + 1} does not match your recovery phrase` : undefined));
    if (wrong.size > 0) return void inputs[positions.findIndex((p) => wrong.has(p))]!.focus();
    void runForm(confirmForm, byId<HTMLButtonElement>('confirm-submit'), async () => {
      const unlocked = await saveNewBrowserWallet(db, { ...options, payload: newWalletPayload(browserRandomBytes, mnemonic) });
      // Its private scan starts near today's tip: the first scan stores where (private-start.ts).
      setScanStart(options.name, undefined);
      forget();
      byId('confirm-step').hidden = true;
      open({ ...unlocked, fresh: true });
    });
  };
}
