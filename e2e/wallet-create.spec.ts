// Opening a wallet on the wallet page (issue 21, modelled on MetaMask/Rabby), against a real regtest node, on a phone
// and on a desktop: a new wallet's recovery phrase is shown numbered and three of its words are asked back before
// anything is saved; the form and the phrase say where the keys live; a restore names the wrong word or the bad
// checksum; an encrypted backup file is downloaded and imported into a fresh browser profile, where a wrong password
// imports nothing. axe-core finds no serious or critical violation in each state; no console error.
import { readFileSync } from 'node:fs';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { startWalletTestNode, type WalletTestNode } from './helpers/wallet-node.ts';
import { answerPhraseCheck, collectConsoleErrors, openView, seriousA11yViolations, shownPhrase, storedWalletNames, walletViewports } from './helpers/wallet-page.ts';

let node: WalletTestNode;
test.beforeAll(async () => {
  node = await startWalletTestNode();
});
test.afterAll(async () => node?.stop());

/** A fresh browser profile (its own IndexedDB) on the wallet page, with its console errors collected. */
async function freshWalletPage(browser: Browser, viewport: { width: number; height: number }): Promise<{ page: Page; errors: string[]; close(): Promise<void> }> {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  const page = await context.newPage();
  const errors = collectConsoleErrors(page);
  await page.goto(new URL('wallet.html', node.url).href);
  await expect(page.getByRole('button', { name: 'Create wallet' })).toBeVisible({ timeout: 30_000 });
  return { page, errors, close: () => context.close() };
}

const addressesOf = (page: Page) => page.getByRole('table', { name: 'Addresses and verified balances' }).locator('tbody tr');

for (const viewport of walletViewports) {
  test(`create on a ${viewport.name}: phrase numbered, three words asked back, then back up, restore and import`, async ({ browser }, testInfo) => {
    test.setTimeout(180_000);
    const size = { width: viewport.width, height: viewport.height };
    const first = await freshWalletPage(browser, size);
    const page = first.page;

    // Empty: where the keys will live is said before anything is created.
    await expect(page.locator('#keys-note')).toContainText(/this browser.*IndexedDB/s);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath(`wallet-empty-${viewport.name}.png`), fullPage: true });

    await page.getByLabel('Wallet name').fill('not a name!');
    await page.locator('#create-password').fill('short');
    await page.getByRole('button', { name: 'Create wallet' }).click();
    await expect(page.locator('#create-name-error')).toHaveText(/wallet_name: expected 1–64 letters, digits, _ or -/);
    await page.getByLabel('Wallet name').fill('main');
    await page.getByRole('button', { name: 'Create wallet' }).click();
    await expect(page.locator('#create-password-error')).toHaveText('password: at least 8 characters');
    await page.locator('#create-password').fill('create password');
    await page.getByRole('button', { name: 'Create wallet' }).click();

    // The phrase, numbered; nothing is stored yet.
    const words = await shownPhrase(page);
    await expect(page.getByRole('heading', { name: 'Write down your recovery phrase' })).toBeFocused();
    await expect(page.locator('#phrase-step')).toContainText(/IndexedDB/);
    expect(await page.locator('#backup-words li').evaluateAll((items) => items.map((li) => getComputedStyle(li).display))).toEqual(new Array(24).fill('list-item'));
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath(`wallet-phrase-${viewport.name}.png`), fullPage: true });
    expect(await storedWalletNames(page)).toEqual([]);

    // Three words asked back at random positions; a wrong one is said beside it and the wallet is still not saved.
    await page.getByRole('button', { name: 'I wrote it down' }).click();
    await expect(page.getByRole('heading', { name: 'Confirm your recovery phrase' })).toBeFocused();
    const asked = await answerPhraseCheck(page, words);
    expect(new Set(asked).size).toBe(3);
    const wrongAt = asked[1]!;
    const wrongWord = words[wrongAt - 1] === 'zoo' ? 'abandon' : 'zoo';
    await page.getByLabel(`Word #${wrongAt}`, { exact: true }).fill(wrongWord);
    await page.getByRole('button', { name: 'Confirm and open wallet' }).click();
    await expect(page.locator(`#confirm-word-${wrongAt}-error`)).toHaveText(`word #${wrongAt} does not match your recovery phrase`);
    await expect(page.getByLabel(`Word #${wrongAt}`, { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel(`Word #${wrongAt}`, { exact: true })).toBeFocused();
    expect(await storedWalletNames(page)).toEqual([]);
    await expect(page.locator('#wallet')).toBeHidden();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath(`wallet-confirm-${viewport.name}.png`), fullPage: true });
    await page.getByLabel(`Word #${wrongAt}`, { exact: true }).fill(` ${words[wrongAt - 1]!.toUpperCase()} `);
    await page.getByRole('button', { name: 'Confirm and open wallet' }).click();
    await expect(addressesOf(page)).toHaveCount(1, { timeout: 30_000 });
    expect(await storedWalletNames(page)).toEqual(['main']);
    // The phrase is gone from the page once confirmed.
    await expect(page.locator('#backup-words li')).toHaveCount(0);
    await page.getByRole('button', { name: 'New address' }).click();
    await expect(addressesOf(page)).toHaveCount(2);
    const addresses = await addressesOf(page).evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset['address']));

    // Encrypted backup (the More view): the two passwords must agree; the file is versioned JSON with nothing readable in it.
    await openView(page, 'More');
    await page.getByLabel('Backup password (at least 8 characters)').fill('backup password');
    await page.getByLabel('Repeat the backup password').fill('backup passwort');
    await page.getByRole('button', { name: 'Download encrypted backup' }).click();
    await expect(page.locator('#export-repeat-error')).toHaveText('the two passwords differ');
    await page.getByLabel('Repeat the backup password').fill('backup password');
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download encrypted backup' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^weft-wallet-main-regtest-\d{4}-\d\d-\d\d\.json$/);
    const backupPath = testInfo.outputPath(download.suggestedFilename());
    await download.saveAs(backupPath);
    const backupText = readFileSync(backupPath, 'utf8');
    expect(JSON.parse(backupText)).toMatchObject({ format: 'weft-wallet-backup', version: 1, keystore: { format: 'weft-keystore', name: 'main', network: 'regtest' } });
    // No phrase word is a value of the file and no three of them stand in a row anywhere; a word alone may sit in the
    // format's own names ("network" is a key, "wallet" part of "weft-wallet-backup", and both are BIP39 words).
    const stringValues = (v: unknown): string[] => (typeof v === 'string' ? [v] : v && typeof v === 'object' ? Object.values(v).flatMap(stringValues) : []);
    const values = stringValues(JSON.parse(backupText));
    for (const word of new Set(words)) expect(values).not.toContain(word);
    for (let i = 0; i + 3 <= words.length; i++) expect(backupText).not.toContain(words.slice(i, i + 3).join(' '));
    expect(backupText).not.toContain(addresses[0]!);
    await expect(page.locator('#export-result')).toContainText('Saved weft-wallet-main-regtest');
    expect(first.errors).toEqual([]);
    await first.close();

    // Restore in a fresh profile: a wrong word is named (with the word it likely meant), a bad checksum is said.
    const second = await freshWalletPage(browser, size);
    const restore = second.page;
    await restore.getByLabel('My recovery phrase (restore)').check();
    await expect(restore.getByRole('button', { name: 'Restore wallet' })).toBeVisible();
    await restore.locator('#create-password').fill('restore password');
    const phrase = restore.getByRole('textbox', { name: /^Recovery phrase/ });
    const misspelt = [...words];
    misspelt[2] = `${misspelt[2]!.slice(0, 4)}q`;
    await phrase.fill(misspelt.join(' '));
    await restore.getByRole('button', { name: 'Restore wallet' }).click();
    await expect(restore.locator('#create-mnemonic-error')).toHaveText(`recovery phrase: word 3 "${misspelt[2]}" is not in the BIP39 English word list (did you mean "${words[2]}"?)`);
    await expect(phrase).toHaveAttribute('aria-invalid', 'true');
    const swapped = [...words];
    const other = swapped.findIndex((w) => w !== swapped[0]);
    [swapped[0], swapped[other]] = [swapped[other]!, swapped[0]!];
    await phrase.fill(swapped.join(' '));
    await restore.getByRole('button', { name: 'Restore wallet' }).click();
    await expect(restore.locator('#create-mnemonic-error')).toHaveText(/checksum does not match — a word is wrong or out of order/);
    expect(await storedWalletNames(restore)).toEqual([]);
    await phrase.fill(words.join('  ').toUpperCase());
    await restore.getByRole('button', { name: 'Restore wallet' }).click();
    await expect(addressesOf(restore)).toHaveCount(1, { timeout: 30_000 });
    await expect(addressesOf(restore).first()).toHaveAttribute('data-address', addresses[0]!);
    expect(second.errors).toEqual([]);
    await second.close();

    // Import the backup file in a fresh profile: a wrong password imports nothing; the right one restores both addresses.
    const third = await freshWalletPage(browser, size);
    const imp = third.page;
    await imp.getByLabel('An encrypted backup file').check();
    await imp.getByLabel('Backup file', { exact: true }).setInputFiles(backupPath);
    await expect(imp.getByLabel('Wallet name')).toHaveValue('main');
    await imp.locator('#create-password').fill('wrong password');
    await imp.getByRole('button', { name: 'Import backup' }).click();
    await expect(imp.locator('#create-password-error')).toHaveText('wrong password for this backup file (or the file was altered): nothing was imported', { timeout: 30_000 });
    await expect(imp.locator('#create-password')).toHaveAccessibleDescription(/wrong password for this backup file/);
    expect(await storedWalletNames(imp)).toEqual([]);
    await imp.locator('#create-password').fill('backup password');
    await imp.getByRole('button', { name: 'Import backup' }).click();
    await expect(addressesOf(imp)).toHaveCount(2, { timeout: 30_000 });
    expect(await addressesOf(imp).evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset['address']))).toEqual(addresses);
    expect(await storedWalletNames(imp)).toEqual(['main']);
    // The imported wallet unlocks with the backup's password after a reload.
    await imp.reload();
    await imp.locator('#unlock-password').fill('backup password');
    await imp.getByRole('button', { name: 'Unlock wallet' }).click();
    await expect(addressesOf(imp)).toHaveCount(2, { timeout: 30_000 });
    expect(await imp.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    expect(third.errors).toEqual([]);
    await third.close();
  });
}
