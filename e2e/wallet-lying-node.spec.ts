// Issue 34: what the wallet shows as verified, it has proven — against a man in the middle on the page's RPC
// WebSocket (e2e/helpers/lying-rpc.ts) that invents events, calls transactions final and replays old proofs.
import { expect, test, type Page } from '@playwright/test';
import { coinsToUnits } from '../src/crypto/amount.ts';
import { blake3 } from '../src/crypto/blake3.ts';
import { toHash0x } from '../src/util/bytes.ts';
import { transfer, wallet } from '../test/helpers/ledger-fixtures.ts';
import { routeLyingRpc } from './helpers/lying-rpc.ts';
import { mineBlockCarrying, mineOneBlock } from './helpers/submit-block.ts';
import { startWalletTestNode, type WalletTestNode } from './helpers/wallet-node.ts';
import { createWalletInPage } from './helpers/wallet-page.ts';

let node: WalletTestNode;
test.beforeAll(async () => {
  node = await startWalletTestNode();
});
test.afterAll(async () => node?.stop());

const addressRows = (page: Page) => page.getByRole('table', { name: 'Addresses and verified balances' }).locator('tbody tr');

test('a man in the middle’s fake incoming 50,000 payment — a stranger’s refused transfer — is never shown as a verified payment', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const liar = await routeLyingRpc(page);
  await page.goto(new URL('wallet.html', node.url).href);
  await createWalletInPage(page, { name: 'victim', password: 'victim password' });
  const victim = (await addressRows(page).first().getAttribute('data-address'))!;
  await expect.poll(() => liar.subscribed(victim), { timeout: 30_000 }).toBe(true);

  // alice → bob, 50,000 coins alice does not have: carried by a real block, refused by the block that merges it.
  const refused = transfer(wallet(31), wallet(32).address, coinsToUnits(50_000), 0n);
  const hash = toHash0x(blake3(refused));
  const { address: miner } = await node.rpc<{ address: string }>('create_address', {});
  await mineBlockCarrying(node.url, node.apiKey, miner, [refused]);
  await mineOneBlock(node.url, node.apiKey, miner);
  expect((await node.rpc<{ status: string }>('get_transaction', { hash })).status).toBe('dropped');

  // The liar tells the victim it is an incoming, final 50,000 payment, and answers get_transaction so.
  liar.claimFinal(hash);
  liar.injectAddressEvent(victim, { hash, type: 'incoming', amount: 50_000, status: 'final' });
  const row = page.getByRole('table', { name: 'Transaction history' }).locator(`tr[data-hash="${hash}"]`);
  const seen = new Set<string>();
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; ) {
    seen.add((await row.count()) === 0 ? 'no row' : `${await row.locator('td').nth(3).textContent()} / ${await row.locator('td').nth(4).textContent()}`);
    await page.waitForTimeout(250);
  }
  // Its inclusion is real, but its bytes do not name the victim: never a verified row, and gone once proven.
  expect([...seen].filter((s) => /verified|confirmed|final/.test(s))).toEqual([]);
  await expect(row).toHaveCount(0);
  await expect(addressRows(page).first().locator('td').nth(1)).toHaveText('0');
  await page.screenshot({ path: testInfo.outputPath('wallet-fake-payment.png'), fullPage: true });
});

test('a replayed old balance is refused as stale, never shown as current', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const liar = await routeLyingRpc(page);
  await page.goto(new URL('wallet.html', node.url).href);
  await createWalletInPage(page, { name: 'replayed', password: 'replayed password' });
  const own = addressRows(page).first();
  const address = (await own.getAttribute('data-address'))!;
  for (let i = 0; i < 3; i++) await mineOneBlock(node.url, node.apiKey, address);
  await expect(own.locator('td').nth(1)).not.toHaveText(/^(0|…|—)$/, { timeout: 60_000 });
  await expect(own.locator('td').nth(2)).toHaveText('verified');
  await expect(page.locator('#balances-age')).toHaveText(/^Balances verified at block \d+, \d+ s ago$/);
  const old = (await own.locator('td').nth(1).textContent())!;

  // From now on the liar answers every get_proof of the address with the one it gave last: true once, now old.
  expect(liar.replayProof(address)).toBe(true);
  for (let i = 0; i < 14; i++) await mineOneBlock(node.url, node.apiKey, address);
  await expect(own.locator('td').nth(2)).toHaveText('failed', { timeout: 60_000 });
  await expect(own.locator('td').nth(2)).toHaveAttribute('title', /^proof-stale: .*blocks below this tab's tip .*old state, not current/);
  await expect(own.locator('td').nth(1)).toHaveText('—');
  await expect(page.locator('#balances-age')).toHaveText('Balances: no current proof');
  expect(old).not.toBe('—');
  await page.screenshot({ path: testInfo.outputPath('wallet-replayed-balance.png'), fullPage: true });
});
