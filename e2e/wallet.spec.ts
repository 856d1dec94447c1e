// The browser wallet (web/wallet.html) against a real regtest node: create a wallet in a fresh profile, receive
// coins mined to its address, send to another address signed in the tab, see it confirmed and the balances
// verified by state proofs; sign and verify a message. Screenshots are saved as test artifacts.
import { expect, test } from '@playwright/test';
import { forgeAccount, routeLyingNode } from './helpers/forged-proof.ts';
import { startWalletTestNode, type WalletTestNode } from './helpers/wallet-node.ts';
import { createWalletInPage, openView, sendInPage } from './helpers/wallet-page.ts';

let node: WalletTestNode;

test.beforeAll(async () => {
  node = await startWalletTestNode();
});

test.afterAll(async () => {
  await node?.stop();
});

test('create wallet → receive mined coins → send → confirmed → balance verified by proof', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  await page.goto(new URL('wallet.html', node.url).href);
  await expect(page.getByRole('status').first()).toHaveText(/connected to 127\.0\.0\.1:\d+ · regtest/);
  await createWalletInPage(page, { name: 'e2e', password: 'correct horse battery' });

  const rows = page.getByRole('table', { name: 'Addresses and verified balances' }).locator('tbody tr');
  await expect(rows).toHaveCount(1);
  const first = (await rows.nth(0).getAttribute('data-address'))!;
  expect(first).toMatch(/^rweft1/);
  await page.getByRole('button', { name: 'New address' }).click();
  await expect(rows).toHaveCount(2);
  const second = (await rows.nth(1).getAttribute('data-address'))!;

  // Coins mined to the tab's first address by the node (the admin key from api.cookie authorises start_mining).
  await node.rpc('start_mining', { miner_address: first, threads: 1, gpu_mining: false });
  await expect(rows.nth(0).locator('td').nth(2)).toHaveText('verified', { timeout: 60_000 });
  // Checked against a header the tab's own light node verified, not one the node vouches for.
  await expect(rows.nth(0).locator('td').nth(2)).toHaveAttribute('title', /verified header 0x[0-9a-f]{64}/);
  await expect(page.getByLabel('Light node')).toHaveText(/light node: synced, [\d,]+ headers verified/);
  await expect.poll(async () => Number(await rows.nth(0).locator('td').nth(1).textContent()), { timeout: 60_000 }).toBeGreaterThan(0.2);
  await page.screenshot({ path: testInfo.outputPath('wallet-funded.png'), fullPage: true });

  const hash = await sendInPage(page, { from: first, to: second, amount: '0.15' });

  // Confirmed by the node, and shown so in the tab's history; the receiver's balance comes from a verified proof.
  await expect.poll(async () => (await node.rpc<{ status: string }>('get_transaction', { hash })).status, { timeout: 60_000 }).toMatch(/confirmed|final/);
  const historyRow = page.getByRole('table', { name: 'Transaction history' }).locator(`tr[data-hash="${hash}"]`);
  await expect(historyRow.locator('td').nth(3)).toHaveText(/confirmed|final/, { timeout: 60_000 });
  // Its inclusion is proven against a header the tab verified, and the amount re-read from the signed bytes.
  await expect(historyRow.locator('td').nth(4)).toHaveText('verified', { timeout: 30_000 });
  await expect(historyRow.locator('td').nth(4)).toHaveAttribute('title', /in verified block 0x[0-9a-f]{64}/);
  await expect(historyRow.locator('td').nth(2)).toHaveText('0.15');
  await expect(rows.nth(1).locator('td').nth(1)).toHaveText('0.15', { timeout: 30_000 });
  await expect(rows.nth(1).locator('td').nth(2)).toHaveText('verified');
  const proof = await node.rpc<{ account: { balance: number } }>('get_proof', { address: second });
  expect(proof.account.balance).toBe(0.15);
  await node.rpc('stop_mining');
  await page.screenshot({ path: testInfo.outputPath('wallet-sent.png'), fullPage: true });

  // The explorer's transaction page proves the same inclusion with its own light node.
  const explorer = await page.context().newPage();
  await explorer.goto(new URL(`#/tx/${hash}`, node.url).href);
  await expect(explorer.locator('#inclusion')).toContainText(/inclusion proven against verified block \d+/, { timeout: 60_000 });
  await explorer.screenshot({ path: testInfo.outputPath('explorer-transaction.png'), fullPage: true });
  await explorer.close();

  // Sign in the tab, verify in the tab, and the node agrees (verify_message): both forms are in the More view.
  await openView(page, 'More');
  const sign = page.locator('#sign-form');
  await sign.getByLabel('Message').fill('hello weft');
  await sign.getByRole('button', { name: 'Sign message' }).click();
  await expect(sign.getByLabel('Signature', { exact: true })).toHaveText(/^0x/);
  const signature = (await sign.getByLabel('Signature', { exact: true }).textContent())!;
  expect(signature).toMatch(/^0x[0-9a-f]{128}$/);
  const nodeCheck = await node.rpc<{ valid: boolean }>('verify_message', { address: first, message: 'hello weft', signature, signature_type: 'schnorr' });
  expect(nodeCheck.valid).toBe(true);
  const verify = page.locator('#verify-form');
  await verify.getByLabel('Address').fill(first);
  await verify.getByLabel('Message').fill('hello weft');
  await verify.getByLabel('Signature', { exact: true }).fill(signature);
  await verify.getByRole('button', { name: 'Verify message' }).click();
  await expect(page.getByLabel('Verification result')).toHaveText('valid signature');
  await verify.getByLabel('Message').fill('hello weft!');
  await verify.getByRole('button', { name: 'Verify message' }).click();
  await expect(page.getByLabel('Verification result')).toHaveText('invalid signature');
});

test('reload keeps the wallet sealed in IndexedDB: wrong password refused, right one unlocks; phone layout', async ({ browser }, testInfo) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(new URL('wallet.html', node.url).href);
  await createWalletInPage(page, { password: 'another password' });
  await page.screenshot({ path: testInfo.outputPath('wallet-phone.png'), fullPage: true });
  await page.reload();
  await expect(page.getByRole('button', { name: 'Unlock wallet' })).toBeVisible();
  await page.locator('#unlock-password').fill('wrong password');
  await page.getByRole('button', { name: 'Unlock wallet' }).click();
  await expect(page.getByRole('alert')).toContainText(/passphrase|password/i, { timeout: 30_000 });
  await page.locator('#unlock-password').fill('another password');
  await page.getByRole('button', { name: 'Unlock wallet' }).click();
  await expect(page.getByRole('table', { name: 'Addresses and verified balances' }).locator('tbody tr')).toHaveCount(1, { timeout: 30_000 });
  await context.close();
});

test('a lying node’s forged balance proof is refused: shown as failed, never as a balance', async ({ page }, testInfo) => {
  // The liar's proof hashes to the root it claims, and its get_block claims that root too: only the tab's own
  // verified headers can tell. The forged balance is a million coins; it must never reach the page.
  await routeLyingNode(page, (address) => forgeAccount(address, 'rweft', 1_000_000n * 100_000_000n));
  await page.goto(new URL('wallet.html', node.url).href);
  await createWalletInPage(page, { name: 'liar', password: 'correct horse battery' });
  const row = page.getByRole('table', { name: 'Addresses and verified balances' }).locator('tbody tr').first();
  await expect(row.locator('td').nth(2)).toHaveText('failed', { timeout: 60_000 });
  await expect(row.locator('td').nth(2)).toHaveAttribute('title', /root-mismatch/);
  await expect(row.locator('td').nth(1)).toHaveText('—');
  await expect(page.getByText('1000000')).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('wallet-forged-proof.png'), fullPage: true });
});
