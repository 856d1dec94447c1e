// The private account's scan (issue 32, docs/wallet.md "Confidential account") against a real regtest node with a chain
// of ~150 blocks: from the first second the card says how many blocks of how many it has scanned and the time left;
// a restored wallet given a restore height scans from that block instead of from genesis (a bad height is refused
// beside its field); and a payment to the stealth address shows within a few seconds of the blocks that carry it.
import { randomBytes } from 'node:crypto';
import { expect, test, type Browser } from '@playwright/test';
import { generateMnemonic } from '../src/wallet/hd.ts';
import { mineOneBlock } from './helpers/submit-block.ts';
import { startWalletTestNode, type WalletTestNode } from './helpers/wallet-node.ts';
import { collectConsoleErrors } from './helpers/wallet-page.ts';

let node: WalletTestNode;
let funded: string;
/** Blocks mined before the tests: past the scan's 100-read burst, so a scan from genesis takes seconds to watch. */
const chainBlocks = 150;
/** A payment shows within this of the last block that carries it (the scan reads a few blocks, then proves them). */
const paymentShownMs = 8_000;
/** Mines `blocks` blocks to `to`; a call whose kept-alive socket the node closed first (a loaded box) is made once more. */
const mine = async (to: string, blocks = 1) => {
  const once = () => mineOneBlock(node.url.replace(/\/$/, ''), node.apiKey, to);
  for (let i = 0; i < blocks; i++) await once().catch((error: Error) => (/fetch failed/.test(error.message) ? once() : Promise.reject(error)));
};
const tipHeight = async () => (await node.rpc<{ height: number }>('get_height')).height;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  node = await startWalletTestNode();
  funded = (await node.rpc<{ address: string }>('create_address')).address;
  await mine(funded, chainBlocks);
});
test.afterAll(async () => node?.stop());

/** Restores `phrase` on a fresh browser profile, opened on the Confidential view; `restoreHeight` typed as given. */
async function restore(browser: Browser, phrase: string, restoreHeight: string, opens = true) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const errors = collectConsoleErrors(page);
  await page.goto(new URL('wallet.html#confidential', node.url).href);
  await page.getByLabel('My recovery phrase (restore)').check();
  await page.locator('#create-password').fill('restore password');
  await page.getByRole('textbox', { name: /^Recovery phrase/ }).fill(phrase);
  await page.getByLabel(/^Restore height/).fill(restoreHeight);
  await page.getByRole('button', { name: 'Restore wallet' }).click();
  // The first second counts from the wallet opening (sealing the keystore with scrypt takes a while on a loaded box).
  if (opens) await expect(page.locator('#wallet')).toBeVisible({ timeout: 30_000 });
  return { context, page, errors };
}

test('scan progress from the first second, from the restore height, and a payment shown within seconds', async ({ browser }, testInfo) => {
  test.setTimeout(240_000);
  const phrase = generateMnemonic((n) => new Uint8Array(randomBytes(n)));

  // From genesis (no restore height): blocks scanned of the total, and the time left, while it runs.
  const fromGenesis = await restore(browser, phrase, '');
  const scan = fromGenesis.page.locator('#private-scan');
  await expect(scan).toHaveText(/^(scan starting: reading the node's tip…|scanning: [\d,]+ of [\d,]+ blocks \(from block 0 to \d+\), .*)$/, { timeout: 1_000 });
  await expect(scan).toHaveText(/^scanning: [\d,]+ of [\d,]+ blocks \(from block 0 to \d+\), about \d+ (s|min \d+ s) left$/, { timeout: 10_000 });
  await fromGenesis.page.screenshot({ path: testInfo.outputPath('private-scan-progress.png') });
  await expect(scan).toHaveText(/^scanned through block \d+/, { timeout: 60_000 });
  expect(fromGenesis.errors).toEqual([]);
  await fromGenesis.context.close();

  // A restore height that is no height is refused beside its field; a real one is where the scan starts.
  const start = (await tipHeight()) - 5;
  const bad = await restore(browser, phrase, 'yesterday', false);
  await expect(bad.page.locator('#create-restore-height-error')).toHaveText(/^restore height: expected a block height/);
  await bad.context.close();
  const restored = await restore(browser, phrase, String(start));
  const page = restored.page;
  // Within the first second the scan says what it is doing, as from genesis above (on a loaded box that can still be
  // the tip being read); then it names the restore height as where it starts.
  await expect(page.locator('#private-scan')).toHaveText(new RegExp(`^(scan starting: reading the node's tip…|scanning: [\\d,]+ of [\\d,]+ blocks \\(from block ${start} to \\d+\\)|scanned through block \\d+).*`), { timeout: 1_000 });
  await expect(page.locator('#private-scan')).toHaveText(new RegExp(`^(scanning: [\\d,]+ of [\\d,]+ blocks \\(from block ${start} to \\d+\\)|scanned through block \\d+).*`), { timeout: 10_000 });
  await expect(page.locator('#private-scan')).toHaveText(/^scanned through block \d+$/, { timeout: 10_000 });
  expect(await page.evaluate(() => localStorage.getItem('weft-wallet/private-scan-start/default'))).toBe(String(start));
  await expect(page.locator('#private-balance')).toHaveText('0 WEFT (0 spendable now)', { timeout: 10_000 });

  // The node wallet shields 0.05 to it: shown within seconds of the blocks that carry and accept it.
  const stealth = (await page.locator('#private-address').textContent())!;
  await node.rpc('create_confidential_transaction', { inputs: [{ address: funded, amount: 0.051 }], outputs: [{ address: stealth, amount: 0.05 }], fee: 0.001 });
  await mine(funded, 3);
  const minedAt = Date.now();
  await expect(page.locator('#private-balance')).toHaveText('0.05 WEFT (0.05 spendable now)', { timeout: paymentShownMs });
  testInfo.annotations.push({ type: 'payment shown after the last block (ms)', description: String(Date.now() - minedAt) });
  expect(restored.errors).toEqual([]);
  await restored.context.close();
});
