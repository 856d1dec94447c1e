// Steps of the wallet page (web/wallet.html) that many tests share, done as a user does them: create a wallet,
// send through the review step.
import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** Creates a wallet on the open wallet page and goes through the recovery-phrase step; returns the phrase's words. */
export async function createWalletInPage(page: Page, options: { name?: string; password: string }): Promise<string[]> {
  if (options.name !== undefined) await page.getByLabel('Wallet name').fill(options.name);
  await page.locator('#create-password').fill(options.password);
  await page.getByRole('button', { name: 'Create wallet' }).click();
  await expect(page.locator('#backup-words')).toHaveText(/^(\w+ ){23}\w+$/, { timeout: 30_000 });
  const words = (await page.locator('#backup-words').textContent())!.split(' ');
  await page.getByRole('button', { name: 'I wrote it down' }).click();
  return words;
}

/** Fills the send form, opens the review, and signs and sends; returns the transaction hash. */
export async function sendInPage(page: Page, options: { from?: string; to: string; amount: string }): Promise<string> {
  const send = page.locator('#send-form');
  if (options.from !== undefined) await send.getByLabel('From').selectOption(options.from);
  await send.getByLabel('To', { exact: true }).fill(options.to);
  await send.getByLabel('Amount (coins)').fill(options.amount);
  await send.getByRole('button', { name: 'Review send' }).click();
  await expect(page.getByRole('heading', { name: 'Review before signing' })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Sign and send' }).click();
  await expect(page.locator('#send-result')).toHaveText(/^sent 0x[0-9a-f]{64} \((pending|confirmed|final)\)$/, { timeout: 30_000 });
  return (await page.locator('#send-result').textContent())!.split(' ')[1]!;
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
