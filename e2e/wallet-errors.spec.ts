// Wallet errors on a phone (390×844) appear next to the field or action that failed, in view — they used to go to
// one box at the foot of the page, screens below the form (issue 21). The field is marked invalid and described by
// the message; a later success clears it.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { startWalletTestNode, type WalletTestNode } from './helpers/wallet-node.ts';
import { createWalletInPage, openView } from './helpers/wallet-page.ts';

let node: WalletTestNode;
test.beforeAll(async () => {
  node = await startWalletTestNode();
});
test.afterAll(async () => node?.stop());

/** The error shown for `field`: right under it, in view, and named as its description. */
async function expectErrorBeside(page: Page, field: Locator, text: RegExp): Promise<void> {
  const error = page.getByRole('alert').filter({ hasText: text });
  await expect(error).toBeVisible({ timeout: 30_000 });
  await expect(error).toBeInViewport();
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveAccessibleDescription(text);
  const f = (await field.boundingBox())!;
  const e = (await error.boundingBox())!;
  expect(e.y).toBeGreaterThanOrEqual(f.y + f.height - 1);
  expect(e.y - (f.y + f.height)).toBeLessThan(48);
}

test('send and unlock errors are shown beside their field on a phone', async ({ browser }, testInfo) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(new URL('wallet.html', node.url).href);
  await createWalletInPage(page, { password: 'phone password' });
  const own = (await page.getByRole('table', { name: 'Addresses and verified balances' }).locator('tbody tr').first().getAttribute('data-address'))!;

  await openView(page, 'Send');
  const send = page.locator('#send-form');
  const to = send.getByLabel('To', { exact: true });
  const amount = send.getByLabel('Amount (WEFT)');
  await to.fill('rweft1notanaddress');
  await amount.fill('1');
  await send.getByRole('button', { name: 'Review send' }).click();
  await expectErrorBeside(page, to, /bech32m checksum/);
  await page.screenshot({ path: testInfo.outputPath('wallet-error-phone.png') });

  await to.fill(own);
  await amount.fill('lots');
  await send.getByRole('button', { name: 'Review send' }).click();
  await expectErrorBeside(page, amount, /amount: expected an amount in WEFT/);
  await expect(to).not.toHaveAttribute('aria-invalid', 'true');

  await amount.fill('5');
  await send.getByRole('button', { name: 'Review send' }).click();
  await expectErrorBeside(page, amount, /insufficient verified balance/);

  await page.reload();
  await page.locator('#unlock-password').fill('wrong password');
  await page.getByRole('button', { name: 'Unlock wallet' }).click();
  await expectErrorBeside(page, page.locator('#unlock-password'), /wrong passphrase/);
  await context.close();
});
