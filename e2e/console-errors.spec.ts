// No page of the web app logs an error to the console or throws (issue 21, "Done when"): the explorer's home, block,
// transaction, address, mempool and supply pages, the miner, the wallet and the widget, against a real regtest node with a confirmed
// transaction. An invalid `pattern` attribute, for one, is only ever reported there.
import { expect, test, type Page } from '@playwright/test';
import { fundedNodeWallet } from './helpers/node-transactions.ts';
import { startRegtestNode, type RegtestNode } from './helpers/regtest-node.ts';

let node: RegtestNode;
let txHash: string;
let address: string;
test.beforeAll(async () => {
  node = await startRegtestNode(2_000);
  const wallet = await fundedNodeWallet(node.url, node.apiKey);
  address = wallet.address;
  txHash = await wallet.send(wallet.address, 0.05);
  await wallet.mine();
  await wallet.mine();
});
test.afterAll(async () => node?.stop());

function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  return errors;
}

const pages: readonly { path: string; ready: (page: Page) => Promise<void> }[] = [
  { path: '/', ready: (p) => expect(p.locator('#blocks tbody tr')).toHaveCount(20, { timeout: 30_000 }) },
  { path: '/#/block/5', ready: (p) => expect(p.locator('#detail-h')).toHaveText('Block 5', { timeout: 30_000 }) },
  { path: '/#/tx/TX', ready: (p) => expect(p.locator('#inclusion')).toBeVisible({ timeout: 30_000 }) },
  { path: '/#/address/ADDRESS', ready: (p) => expect(p.locator('#verified-balance')).toBeVisible({ timeout: 30_000 }) },
  { path: '/#/mempool', ready: (p) => expect(p.locator('#mempool-count')).toBeVisible({ timeout: 30_000 }) },
  { path: '/#/supply', ready: (p) => expect(p.locator('#supply-emitted')).toHaveText(/WEFT$/, { timeout: 30_000 }) },
  { path: '/miner.html', ready: (p) => expect(p.getByRole('button', { name: 'Start mining' })).toBeVisible() },
  {
    path: '/wallet.html',
    ready: async (p) => {
      await expect(p.getByRole('button', { name: 'Create wallet' })).toBeVisible({ timeout: 30_000 });
      // Typing runs the field's constraint validation, which is where a bad `pattern` is compiled and reported.
      await p.getByLabel('Wallet name').fill('my-wallet_2');
      expect(await p.getByLabel('Wallet name').evaluate((e) => (e as HTMLInputElement).validity.valid)).toBe(true);
      await p.getByLabel('Wallet name').fill('not a name!');
      expect(await p.getByLabel('Wallet name').evaluate((e) => (e as HTMLInputElement).validity.patternMismatch)).toBe(true);
    },
  },
  { path: '/widget.html', ready: (p) => expect(p.getByRole('button', { name: 'Create wallet' })).toBeVisible({ timeout: 30_000 }) },
];

for (const { path, ready } of pages) {
  test(`${path.replace('TX', '<tx>').replace('ADDRESS', '<address>')} logs no console error`, async ({ page }) => {
    const errors = collectErrors(page);
    await page.goto(`${node.url}${path.replace('TX', txHash).replace('ADDRESS', address)}`);
    await ready(page);
    await page.waitForLoadState('networkidle').catch(() => undefined);
    expect(errors).toEqual([]);
  });
}
