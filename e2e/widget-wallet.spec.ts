// Which wallet the widget opens (issue 32, docs/widget.md "Your wallet"), against a real regtest node: the wallet
// the visitor already made on the node's wallet page, where the browser lets the widget see it (same site); in a
// frame on another site, where the browser keeps the frame's storage apart, a plain sentence saying why it cannot;
// and its forms fit the embed demo's frame (no horizontal scroll) on a phone and on a desktop.
import { expect, test, type Frame } from '@playwright/test';
import { startEmbedShop, widgetFrame, type EmbedShop } from './helpers/embed-shop.ts';
import { startWalletTestNode, type WalletTestNode } from './helpers/wallet-node.ts';
import { collectConsoleErrors, createWalletInPage, walletViewports } from './helpers/wallet-page.ts';

let node: WalletTestNode;
let shop: EmbedShop;
test.beforeAll(async () => {
  node = await startWalletTestNode();
  shop = await startEmbedShop();
});
test.afterAll(async () => {
  shop?.close();
  await node?.stop();
});

/** How far the frame's page is wider than the frame (0: no horizontal scroll). */
const overflowX = (frame: Frame) => frame.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test('the widget opens the wallet made on the wallet page: listed by name, unlocked with its password', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = collectConsoleErrors(page);
  await page.goto(new URL('wallet.html', node.url).href);
  await createWalletInPage(page, { name: 'mine', password: 'my wallet password' });
  const address = (await page.locator('#addresses tbody tr').first().getAttribute('data-address'))!;

  await page.goto(new URL('widget.html', node.url).href);
  const unlock = page.locator('#w-unlock');
  await expect(unlock).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('#w-create')).toBeHidden();
  await expect(unlock.getByLabel('Wallet')).toHaveValue('mine');
  await unlock.getByLabel('Password').fill('my wallet password');
  await unlock.getByRole('button', { name: 'Unlock wallet' }).click();
  await expect(page.getByLabel('Address')).toHaveText(address, { timeout: 30_000 });
  expect(errors).toEqual([]);
});

for (const viewport of walletViewports) {
  test(`embedded on another site (${viewport.name}): says why the wallet page's wallet cannot be used, and fits its frame`, async ({ browser }, testInfo) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
    const page = await context.newPage();
    const errors = collectConsoleErrors(page);
    // A wallet on the node's own wallet page first: the frame on the shop's site still cannot see it.
    await page.goto(new URL('wallet.html', node.url).href);
    await createWalletInPage(page, { name: 'first-party', password: 'first party password' });
    await page.goto(shop.demoUrl(new URL(node.url).origin));
    const widget = await widgetFrame(page);
    await expect(widget.getByRole('button', { name: 'Create wallet' })).toBeVisible({ timeout: 30_000 });
    await expect(widget.locator('#w-apart')).toHaveText(/^No wallet of this browser shows here: this wallet is embedded in http:\/\/localhost:\d+, another site, .*wallet\.html/);
    expect(await overflowX(widget)).toBe(0);

    await widget.getByLabel('New wallet password').fill('embedded password');
    await widget.getByRole('button', { name: 'Create wallet' }).click();
    await expect(widget.getByLabel('Address')).toHaveText(/^rweft1/, { timeout: 30_000 });
    const own = (await widget.getByLabel('Address').textContent())!;
    expect(await overflowX(widget)).toBe(0);
    // A payment request's card, the widest thing it shows, fits too.
    await page.getByLabel('Pay to').fill(own);
    await page.getByRole('button', { name: 'Request payment' }).click();
    await expect(widget.getByRole('heading', { name: 'Payment request' })).toBeVisible({ timeout: 30_000 });
    expect(await overflowX(widget)).toBe(0);
    await page.locator('weft-wallet').screenshot({ path: testInfo.outputPath(`widget-frame-${viewport.name}.png`) });
    expect(errors).toEqual([]);
    await context.close();
  });
}
