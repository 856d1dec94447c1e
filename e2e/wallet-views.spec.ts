// The wallet as views (issue 32, "Pages people would rather use"), against a real regtest node: a balance headline in
// WEFT; Activity, Send, Receive, Escrow, Private and More as tabs (hash routes), each a short page on a phone — the
// one long page was 3,300 px on a desktop and 5,200 px on a phone; no "coins" anywhere; a link back to the
// explorer and the explorer's own colours; "available" drops the moment a send is admitted, and the send goes
// pending → confirmed in Activity as blocks carry it.
import { expect, test, type Page } from '@playwright/test';
import { formatUnits } from '../src/crypto/amount.ts';
import { parseCoinText } from '../web/wallet/send-check.ts';
import { mineOneBlock } from './helpers/submit-block.ts';
import { startWalletTestNode, type WalletTestNode } from './helpers/wallet-node.ts';
import { collectConsoleErrors, createWalletInPage, openView, sendInPage, type WalletViewName } from './helpers/wallet-page.ts';

let node: WalletTestNode;
let miner: string;
test.beforeAll(async () => {
  node = await startWalletTestNode();
  miner = (await node.rpc<{ address: string }>('create_address')).address;
});
test.afterAll(async () => node?.stop());

const views: readonly WalletViewName[] = ['Activity', 'Send', 'Receive', 'Escrow', 'Confidential', 'More'];
/** Each view on a 390×844 phone stays under this (the single page it replaces was 5,200 px there). */
const phoneViewHeightMaxPx = 2_200;
const mine = async (to: string, blocks = 1) => {
  for (let i = 0; i < blocks; i++) await mineOneBlock(node.url.replace(/\/$/, ''), node.apiKey, to);
};
const weft = (text: string) => parseCoinText(text, 'amount', true);

/** The headline's "Available: X WEFT …" as units, once the headline has a proven figure. */
async function availableUnits(page: Page): Promise<bigint> {
  await expect(page.locator('#balance-available')).toHaveText(/^Available: [\d.]+ WEFT/, { timeout: 30_000 });
  return weft(/^Available: ([\d.]+) WEFT/.exec((await page.locator('#balance-available').textContent())!)![1]!);
}

test('on a phone: one short view at a time, the balance in WEFT, a link to the explorer, the explorer’s theme', async ({ browser }, testInfo) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const consoleErrors = collectConsoleErrors(page);
  await page.goto(new URL('wallet.html', node.url).href);
  await createWalletInPage(page, { name: 'phone', password: 'views password' });
  await expect(page.locator('#balance-headline')).toHaveText(/^0 WEFT$/, { timeout: 30_000 });
  await expect(page.locator('#balance-available')).toHaveText('Available: 0 WEFT');

  const heights: Record<string, number> = {};
  for (const view of views) {
    await openView(page, view);
    await expect(page).toHaveURL(new RegExp(`#${view.toLowerCase()}$`));
    heights[view] = await page.evaluate(() => document.documentElement.scrollHeight);
    const text = await page.locator('body').innerText();
    expect(text, `${view} view`).not.toMatch(/\bcoins?\b/i);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${view} view`).toBeLessThanOrEqual(390);
    await page.screenshot({ path: testInfo.outputPath(`wallet-view-${view.toLowerCase()}-phone.png`), fullPage: true });
  }
  testInfo.annotations.push({ type: 'phone view heights (px)', description: JSON.stringify(heights) });
  for (const view of views) expect(heights[view], `${view} view height`).toBeLessThan(phoneViewHeightMaxPx);
  // The amount fields say their unit.
  await openView(page, 'Send');
  await expect(page.locator('#send-form').getByLabel('Amount (WEFT)')).toBeVisible();
  await expect(page.locator('#send-form').getByLabel('Fee (WEFT)')).toBeVisible();

  // Back goes to the previous view; a hash opens a view directly.
  await page.goBack();
  await expect(page.locator('#view-more')).toBeVisible();
  await page.goto('about:blank');
  await page.goto(new URL('wallet.html#receive', node.url).href);
  await page.locator('#unlock-password').fill('views password');
  await page.getByRole('button', { name: 'Unlock wallet' }).click();
  await expect(page.locator('#receive-card')).toBeVisible({ timeout: 30_000 });

  // The way back to the explorer, and the explorer's palette (web/app.css), not a second one.
  const explorerLink = page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Explorer' });
  await expect(explorerLink).toHaveAttribute('href', './index.html');
  const walletColours = await page.evaluate(() => ({
    page: getComputedStyle(document.body).backgroundColor,
    card: getComputedStyle(document.querySelector('#receive-card')!).backgroundColor,
    header: getComputedStyle(document.querySelector('header')!).backgroundColor,
  }));
  await explorerLink.click();
  await expect(page).toHaveURL(/index\.html$/);
  const explorerColours = await page.evaluate(() => ({
    page: getComputedStyle(document.body).backgroundColor,
    card: getComputedStyle(document.querySelector('section.panel')!).backgroundColor,
    header: getComputedStyle(document.querySelector('header')!).backgroundColor,
  }));
  expect(walletColours).toEqual(explorerColours);
  expect(consoleErrors).toEqual([]);
  await context.close();
});

test('a send: "available" drops at once, then the send goes pending → confirmed in Activity', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const consoleErrors = collectConsoleErrors(page);
  await page.goto(new URL('wallet.html', node.url).href);
  await createWalletInPage(page, { name: 'pending', password: 'pending password' });
  const own = (await page.getByRole('table', { name: 'Addresses and verified balances' }).locator('tbody tr').first().getAttribute('data-address'))!;
  await mine(own, 3);
  await mine(miner, 2);
  const proven = weft((await node.rpc<{ account: { balance: number } }>('get_proof', { address: own })).account.balance.toFixed(8));
  expect(proven).toBeGreaterThan(weft('0.2'));
  await expect(page.locator('#balance-headline')).toHaveText(`${formatUnits(proven)} WEFT`, { timeout: 30_000 });
  expect(await availableUnits(page)).toBe(proven);

  // No block is mined while the send waits: the proven balance cannot have moved, yet "available" has.
  const hash = await sendInPage(page, { to: miner, amount: '0.1' });
  const spent = weft('0.11');
  await expect(page.locator('#balance-available')).toHaveText(`Available: ${formatUnits(proven - spent)} WEFT (0.11 WEFT leaving in pending sends)`);
  await expect(page.locator('#balance-headline')).toHaveText(`${formatUnits(proven)} WEFT`);
  await openView(page, 'Send');
  await expect(page.locator('#send-available')).toHaveText(`Available: ${formatUnits(proven - spent)} WEFT (verified)`);
  await openView(page, 'Activity');
  const row = page.getByRole('table', { name: 'Transaction history' }).locator(`tr[data-hash="${hash}"]`);
  await expect(row.locator('td').nth(3)).toHaveText('pending');
  await page.screenshot({ path: testInfo.outputPath('wallet-activity-pending.png'), fullPage: true });

  // Blocks carry and accept it: confirmed in Activity, and the proven balance now holds what "available" showed.
  await mine(miner, 2);
  await expect(row.locator('td').nth(3)).toHaveText(/confirmed|final/, { timeout: 30_000 });
  await expect(page.locator('#balance-headline')).toHaveText(`${formatUnits(proven - spent)} WEFT`, { timeout: 30_000 });
  await expect(page.locator('#balance-available')).toHaveText(`Available: ${formatUnits(proven - spent)} WEFT`);
  await page.screenshot({ path: testInfo.outputPath('wallet-activity-confirmed.png'), fullPage: true });
  expect(consoleErrors).toEqual([]);
});
