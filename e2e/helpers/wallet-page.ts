// Steps of the wallet page (web/wallet.html) that many tests share, done as a user does them: create a wallet,
// send through the review step.
import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** The recovery phrase shown on the phrase step, in order. */
export async function shownPhrase(page: Page): Promise<string[]> {
  const items = page.getByRole('list', { name: /Recovery phrase/ }).getByRole('listitem');
  await expect(items).toHaveCount(24, { timeout: 30_000 });
  const words = await items.allTextContents();
  for (const word of words) expect(word).toMatch(/^[a-z]+$/);
  return words;
}

/** On the word check: types the asked words from `words` (the labels say which: "Word #n"); returns the numbers asked. */
export async function answerPhraseCheck(page: Page, words: readonly string[]): Promise<number[]> {
  const inputs = page.locator('#confirm-words input');
  await expect(inputs).toHaveCount(3);
  const asked: number[] = [];
  for (const input of await inputs.all()) {
    const label = (await input.evaluate((el) => (el as HTMLInputElement).labels?.[0]?.textContent ?? ''));
    const n = Number(/^Word #(\d+)$/.exec(label)![1]);
    asked.push(n);
    await input.fill(words[n - 1]!);
  }
  return asked;
}

/**
 * Creates a wallet on the open wallet page as a user does: the recovery phrase is shown numbered, then three of its
 * words are asked back before the wallet opens. Returns the phrase's words.
 */
export async function createWalletInPage(page: Page, options: { name?: string; password: string }): Promise<string[]> {
  if (options.name !== undefined) await page.getByLabel('Wallet name').fill(options.name);
  await page.locator('#create-password').fill(options.password);
  await page.getByRole('button', { name: 'Create wallet' }).click();
  const words = await shownPhrase(page);
  await page.getByRole('button', { name: 'I wrote it down' }).click();
  await answerPhraseCheck(page, words);
  await page.getByRole('button', { name: 'Confirm and open wallet' }).click();
  // The addresses table is in Activity; a page opened on another view (wallet.html#send) has it hidden.
  await expect(page.locator('#addresses tbody tr').first()).toBeAttached({ timeout: 30_000 });
  return words;
}

/** The names of the keystores this page's origin holds in IndexedDB (what a reload could unlock). */
export function storedWalletNames(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    // Opening a database that does not exist would create it empty, at a version the page then never upgrades.
    if (!(await indexedDB.databases()).some((d) => d.name === 'weft-wallet')) return [];
    return new Promise<string[]>((resolve, reject) => {
        const request = indexedDB.open('weft-wallet');
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const db = request.result;
          if (!db.objectStoreNames.contains('keystores')) return resolve([]);
          const keys = db.transaction('keystores').objectStore('keystores').getAllKeys();
          keys.onsuccess = () => resolve(keys.result.map(String));
          keys.onerror = () => reject(keys.error);
        };
      });
  });
}

/** The unlocked wallet's views (web/wallet/wallet-views.ts), each a tab of the "Wallet views" navigation. */
export type WalletViewName = 'Activity' | 'Send' | 'Receive' | 'Escrow' | 'Confidential' | 'More';

/** Opens one of the unlocked wallet's views as a user does: its tab, which then says it is the current one. */
export async function openView(page: Page, name: WalletViewName): Promise<void> {
  const tab = page.getByRole('navigation', { name: 'Wallet views' }).getByRole('link', { name, exact: true });
  await tab.click();
  await expect(tab).toHaveAttribute('aria-current', 'page');
}

/**
 * Opens Send, fills the form, opens the review, signs and sends, then opens Activity (where the send shows);
 * returns the transaction hash.
 */
export async function sendInPage(page: Page, options: { from?: string; to: string; amount: string }): Promise<string> {
  await openView(page, 'Send');
  const send = page.locator('#send-form');
  if (options.from !== undefined) await send.getByLabel('From').selectOption(options.from);
  await send.getByLabel('To', { exact: true }).fill(options.to);
  await send.getByLabel('Amount (WEFT)').fill(options.amount);
  await send.getByRole('button', { name: 'Review send' }).click();
  // The review, or the error the form showed instead: a failure then says what the page said.
  const review = page.getByRole('heading', { name: 'Review before signing' });
  const refused = send.getByRole('alert');
  await expect(review.or(refused).first()).toBeVisible({ timeout: 30_000 });
  if (await refused.count() > 0) throw new Error(`the send form showed an error instead of the review: ${await refused.allTextContents()}`);
  await page.getByRole('button', { name: 'Sign and send', exact: true }).click();
  await expect(page.locator('#send-result')).toHaveText(/^sent 0x[0-9a-f]{64} \((pending|confirmed|final)\)$/, { timeout: 30_000 });
  const hash = (await page.locator('#send-result').textContent())!.split(' ')[1]!;
  await openView(page, 'Activity');
  return hash;
}

/** The phone and desktop viewports every wallet flow is run on (issue 21). */
export const walletViewports = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
] as const;

/** axe-core's serious and critical violations on the page as it is now, each as "rule: target" so a failure says which. */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.failureSummary ?? v.help}`));
}

/** Collects the page's console errors and uncaught exceptions from now on. */
export function collectConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}
