// The explorer against a real regtest node: live blocks over the WebSocket (a block mined from the test appears
// without a reload, the layout of the list does not move), block / transaction / address pages, search by height,
// hash and address, the DAG view and the statistics charts; screenshots on desktop and phone sizes.
import { expect, test } from '@playwright/test';
import { mineOneBlock } from './helpers/submit-block.ts';
import { startRegtestNode, type RegtestNode } from './helpers/regtest-node.ts';

let node: RegtestNode;
test.beforeAll(async () => {
  node = await startRegtestNode(2_000);
});
test.afterAll(async () => node?.stop());

test('live blocks, search, detail pages, DAG and charts', async ({ page }, testInfo) => {
  await page.goto(`${node.url}/`);
  await expect(page.locator('#blocks tbody tr')).toHaveCount(20, { timeout: 30_000 });
  await expect(page.locator('#light-state')).toHaveText('synced', { timeout: 60_000 });
  const listBox = await page.locator('#blocks').boundingBox();
  const miner = (await page.locator('#blocks tbody tr').first().locator('td').nth(3).getAttribute('title'))!;

  const hash = await mineOneBlock(node.url, node.apiKey, miner);
  await expect(page.locator('#blocks tbody tr').first()).toContainText(hash.slice(0, 10), { timeout: 30_000 });
  expect(await page.locator('#blocks').boundingBox()).toEqual(listBox); // no layout jump on a live update
  await expect(page.locator('#light-tip')).toHaveAttribute('title', hash, { timeout: 30_000 }); // the tab verified it too
  await expect(page.locator('#dag circle[data-kind="blue"]').first()).toBeVisible();
  await expect(page.locator('#c-diff polyline')).toHaveCount(1);
  await expect(page.locator('#c-time polyline')).toHaveCount(1);
  await expect(page.locator('#st-hashrate')).toHaveText(/H\/s/);
  await page.screenshot({ path: testInfo.outputPath('explorer-desktop.png'), fullPage: true });

  const search = page.getByRole('textbox', { name: 'Search by height, hash or address' });
  await search.fill('5');
  await search.press('Enter');
  await expect(page.locator('#detail-h')).toHaveText('Block 5');
  await search.fill(hash);
  await search.press('Enter');
  await expect(page.locator('#detail-body')).toContainText('header verified by this tab');
  await page.screenshot({ path: testInfo.outputPath('explorer-block.png'), fullPage: true });
  await search.fill(miner);
  await search.press('Enter');
  await expect(page.locator('#verified-balance')).toHaveText(/^\d/, { timeout: 30_000 });
  await page.screenshot({ path: testInfo.outputPath('explorer-address.png'), fullPage: true });
});

test('phone-sized layout keeps every control reachable', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${node.url}/`);
  await expect(page.locator('#blocks tbody tr')).toHaveCount(20, { timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Search' })).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  await page.screenshot({ path: testInfo.outputPath('explorer-phone.png'), fullPage: true });
  await page.goto(`${node.url}/miner.html`);
  await expect(page.getByRole('button', { name: 'Start mining' })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('miner-phone.png'), fullPage: true });
});
