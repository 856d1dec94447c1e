// Sending from the wallet page (issue 21, modelled on MetaMask/Rabby), against a real regtest node, on a phone and
// on a desktop: the amount and the recipient are checked as typed (bad checksum, insufficient funds) with the
// message beside the field, Max fills balance − fee, and a review step shows to, amount, fee, total and the balance
// before and after before anything is signed. The sent transaction shows pending, then confirmed with its inclusion
// proven against the tab's own headers. axe-core finds no serious or critical violation in the funded and review
// states, and the page logs no console error.
import { expect, test } from '@playwright/test';
import { formatUnits } from '../src/crypto/amount.ts';
import { parseCoinText } from '../web/wallet/send-check.ts';
import { startWalletTestNode, type WalletTestNode } from './helpers/wallet-node.ts';
import { collectConsoleErrors, createWalletInPage, openView, seriousA11yViolations, walletViewports } from './helpers/wallet-page.ts';

let node: WalletTestNode;
test.beforeAll(async () => {
  node = await startWalletTestNode();
});
test.afterAll(async () => node?.stop());

for (const viewport of walletViewports) {
  test(`send on a ${viewport.name}: checked as typed, Max, review, then pending → confirmed and proven`, async ({ browser }, testInfo) => {
    test.setTimeout(240_000);
    const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
    const page = await context.newPage();
    const consoleErrors = collectConsoleErrors(page);
    await page.goto(new URL('wallet.html', node.url).href);
    await createWalletInPage(page, { name: `send-${viewport.name}`, password: 'send password' });
    const rows = page.getByRole('table', { name: 'Addresses and verified balances' }).locator('tbody tr');
    const first = (await rows.nth(0).getAttribute('data-address'))!;
    await page.getByRole('button', { name: 'New address' }).click();
    await expect(rows).toHaveCount(2);
    const second = (await rows.nth(1).getAttribute('data-address'))!;

    await node.rpc('start_mining', { miner_address: first, threads: 1, gpu_mining: false });
    await expect.poll(async () => Number(await rows.nth(0).locator('td').nth(1).textContent()), { timeout: 90_000 }).toBeGreaterThan(0.2);
    await node.rpc('stop_mining');
    // The balance the form knows is the verified one; wait until it no longer moves (a block may have been in flight).
    const available = page.locator('#send-available');
    let last = '';
    await expect.poll(async () => {
      const now = (await available.textContent()) ?? '';
      const settled = now === last && /verified/.test(now);
      last = now;
      return settled;
    }, { timeout: 30_000, intervals: [2_000] }).toBe(true);
    await openView(page, 'Send');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath(`wallet-funded-${viewport.name}.png`), fullPage: true });

    const form = page.locator('#send-form');
    const to = form.getByLabel('To', { exact: true });
    const amount = form.getByLabel('Amount (WEFT)');
    // A one-character typo breaks the bech32m checksum: said beside the field as it is typed, no click needed.
    const typo = `${second.slice(0, 20)}${second[20] === 'q' ? 'p' : 'q'}${second.slice(21)}`;
    await to.fill(typo);
    await expect(page.locator('#send-to-error')).toHaveText(/to: not a rweft address \(address: bech32m checksum/);
    await expect(to).toHaveAttribute('aria-invalid', 'true');
    await expect(to).toHaveAccessibleDescription(/bech32m checksum/);
    await to.fill(second);
    await expect(page.locator('#send-to-error')).toHaveCount(0);
    await expect(to).not.toHaveAttribute('aria-invalid', 'true');

    const balanceText = /Available: ([\d.]+) WEFT \(verified\)/.exec((await available.textContent())!)![1]!;
    const balance = parseCoinText(balanceText, 'balance', true);
    await amount.fill(formatUnits(balance));
    await expect(page.locator('#send-amount-error')).toHaveText(/insufficient verified balance — [\d.]+ available, amount \+ fee is [\d.]+/);
    await expect(page.locator('#send-amount-error')).toBeInViewport();
    await amount.fill('1.2.3');
    await expect(page.locator('#send-amount-error')).toHaveText('amount: expected an amount in WEFT, e.g. 1.5');
    await page.getByRole('button', { name: /Send the maximum/ }).click();
    await expect(amount).toHaveValue(formatUnits(balance - parseCoinText('0.01', 'fee')));
    await expect(page.locator('#send-amount-error')).toHaveCount(0);

    // The review shows exactly what will be signed; Back keeps what was typed.
    await amount.fill('0.125');
    await form.getByRole('button', { name: 'Review send' }).click();
    const review = page.getByRole('region', { name: 'Review before signing' });
    await expect(review).toBeVisible({ timeout: 30_000 });
    await expect(review.getByRole('heading', { name: 'Review before signing' })).toBeFocused();
    await expect(form).toBeHidden();
    await expect(page.locator('#review-from')).toHaveText(first);
    await expect(page.locator('#review-to')).toHaveText(second);
    await expect(page.locator('#review-amount')).toHaveText('0.125 WEFT');
    await expect(page.locator('#review-fee')).toHaveText('0.01 WEFT');
    await expect(page.locator('#review-total')).toHaveText('0.135 WEFT');
    // The balance is proven again for the review (a block may have paid the miner since the form last read it).
    const reviewed = parseCoinText(/^([\d.]+) WEFT$/.exec((await page.locator('#review-balance').textContent())!)![1]!, 'balance');
    expect(reviewed).toBeGreaterThanOrEqual(balance);
    await expect(page.locator('#review-balance')).toHaveAttribute('title', /verified by a state proof against block 0x[0-9a-f]{64}/);
    await expect(page.locator('#review-remaining')).toHaveText(`${formatUnits(reviewed - parseCoinText('0.135', 'total'))} WEFT`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath(`wallet-review-${viewport.name}.png`), fullPage: true });
    await review.getByRole('button', { name: 'Back' }).click();
    await expect(form).toBeVisible();
    await expect(amount).toHaveValue('0.125');
    await expect(to).toHaveValue(second);
    // Nothing was signed or sent by looking at the review.
    await expect(page.locator('#history tbody tr')).toHaveCount(0);

    await form.getByRole('button', { name: 'Review send' }).click();
    await review.getByRole('button', { name: 'Sign and send' }).click();
    await expect(page.locator('#send-result')).toHaveText(/^sent 0x[0-9a-f]{64} \(pending\)$/, { timeout: 30_000 });
    const hash = (await page.locator('#send-result').textContent())!.split(' ')[1]!;
    await openView(page, 'Activity');
    const row = page.getByRole('table', { name: 'Transaction history' }).locator(`tr[data-hash="${hash}"]`);
    await expect(row.locator('td').nth(3)).toHaveText('pending');
    await expect(row.locator('td').nth(4)).toHaveText('—');

    // A block carries it: confirmed, and its inclusion proven against a header the tab verified itself.
    await node.rpc('start_mining', { miner_address: first, threads: 1, gpu_mining: false });
    await expect(row.locator('td').nth(3)).toHaveText(/confirmed|final/, { timeout: 60_000 });
    await expect(row.locator('td').nth(4)).toHaveText('verified', { timeout: 30_000 });
    await expect(row.locator('td').nth(4)).toHaveAttribute('title', /in verified block 0x[0-9a-f]{64}/);
    await node.rpc('stop_mining');
    await expect(rows.nth(1).locator('td').nth(1)).toHaveText('0.125', { timeout: 30_000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
}
