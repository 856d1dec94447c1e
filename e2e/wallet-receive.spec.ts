// Receiving on the wallet page (issue 21), against a real regtest node, on a phone and on a desktop: the address
// with a copy button and a QR code that encodes it (an SVG with an accessible name); a payment from the node's own
// wallet shows in History as pending, then confirmed with its inclusion proven against the tab's own headers, each
// change announced in a live region. axe-core finds no serious or critical violation; no console error.
import { expect, test } from '@playwright/test';
import { addressQrSvgPath } from '../web/lib/address-qr.ts';
import { startWalletTestNode, type WalletTestNode } from './helpers/wallet-node.ts';
import { collectConsoleErrors, createWalletInPage, openView, seriousA11yViolations, walletViewports } from './helpers/wallet-page.ts';

let node: WalletTestNode;
let payer: string;
test.beforeAll(async () => {
  node = await startWalletTestNode();
  payer = (await node.rpc<{ address: string }>('create_address')).address;
});

/** The node's own wallet pays the tab (0.025 + 0.005 coins and fees per test): blocks are mined to it until it can. */
async function fundPayer(): Promise<void> {
  await node.rpc('start_mining', { miner_address: payer, threads: 1, gpu_mining: false });
  await expect.poll(async () => (await node.rpc<{ account: { balance: number } }>('get_proof', { address: payer })).account.balance, { timeout: 90_000 }).toBeGreaterThan(0.07);
  await node.rpc('stop_mining');
}
test.afterAll(async () => node?.stop());

for (const viewport of walletViewports) {
  test(`receive on a ${viewport.name}: address, copy, QR; an incoming payment goes pending → confirmed and proven`, async ({ browser }, testInfo) => {
    test.setTimeout(240_000);
    await fundPayer();
    const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(node.url).origin });
    const page = await context.newPage();
    const consoleErrors = collectConsoleErrors(page);
    await page.goto(new URL('wallet.html', node.url).href);
    await createWalletInPage(page, { name: `receive-${viewport.name}`, password: 'receive password' });
    const rows = page.getByRole('table', { name: 'Addresses and verified balances' }).locator('tbody tr');
    const first = (await rows.nth(0).getAttribute('data-address'))!;

    await openView(page, 'Receive');
    const card = page.locator('#receive-card');
    await expect(card.locator('#receive-text')).toHaveText(first);
    const qr = card.getByRole('img', { name: `QR code of the address ${first}` });
    await expect(qr).toBeVisible();
    // The code drawn is the one of this address (its modules, square for square).
    expect(await qr.locator('path').getAttribute('d')).toBe(addressQrSvgPath(first).path);
    const box = (await qr.boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(150);
    expect(Math.abs(box.width - box.height)).toBeLessThan(1);
    await card.getByRole('button', { name: 'Copy address' }).click();
    await expect(card.getByRole('status')).toHaveText('Address copied.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first);

    // A second address (made in Activity, beside the balances): chosen in the card, its own QR code.
    await openView(page, 'Activity');
    await page.getByRole('button', { name: 'New address' }).click();
    await expect(rows).toHaveCount(2);
    const second = (await rows.nth(1).getAttribute('data-address'))!;
    await openView(page, 'Receive');
    await card.getByLabel('Address to receive on').selectOption(second);
    await expect(card.getByRole('img', { name: `QR code of the address ${second}` })).toBeVisible();
    expect(await card.locator('#receive-qr path').getAttribute('d')).toBe(addressQrSvgPath(second).path);
    await card.getByLabel('Address to receive on').selectOption(first);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath(`wallet-receive-${viewport.name}.png`), fullPage: true });

    // The node pays the tab's first address; no block yet: pending in Activity, nothing to prove.
    await openView(page, 'Activity');
    const { hash } = await node.rpc<{ hash: string }>('send_transaction', { from: payer, to: first, amount: 0.025 });
    const row = page.getByRole('table', { name: 'Transaction history' }).locator(`tr[data-hash="${hash}"]`);
    await expect(row.locator('td').nth(3)).toHaveText('pending', { timeout: 30_000 });
    await expect(row.locator('td').nth(1)).toHaveText('incoming');
    await expect(row.locator('td').nth(4)).toHaveText('—');
    await expect(row.getByRole('link', { name: `transaction ${hash}` })).toHaveAttribute('href', `./#/tx/${hash}`);
    await expect(page.locator('#history-live')).toHaveText(`incoming transaction ${hash.slice(0, 10)}…${hash.slice(-6)} pending`);

    // A block carries it: confirmed, then proven against a header the tab verified; the amount read from its bytes.
    await node.rpc('start_mining', { miner_address: payer, threads: 1, gpu_mining: false });
    await expect(row.locator('td').nth(3)).toHaveText(/confirmed|final/, { timeout: 60_000 });
    await expect(row.locator('td').nth(4)).toHaveText('verified', { timeout: 30_000 });
    await node.rpc('stop_mining');
    await expect(row.locator('td').nth(4)).toHaveAttribute('title', /in verified block 0x[0-9a-f]{64}/);
    await expect(row.locator('td').nth(2)).toHaveText('0.025');
    await expect(page.locator('#history-live')).toContainText(/transaction 0x[0-9a-f]{8}…[0-9a-f]{6} (confirmed|final|inclusion proven)/);
    await expect(rows.nth(0).locator('td').nth(1)).toHaveText('0.025', { timeout: 30_000 });
    // The address created in this session is watched too: a payment to it shows up.
    const toSecond = await node.rpc<{ hash: string }>('send_transaction', { from: payer, to: second, amount: 0.005 });
    await expect(page.getByRole('table', { name: 'Transaction history' }).locator(`tr[data-hash="${toSecond.hash}"] td`).nth(3)).toHaveText('pending', { timeout: 30_000 });
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    await page.screenshot({ path: testInfo.outputPath(`wallet-received-${viewport.name}.png`), fullPage: true });
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
}
