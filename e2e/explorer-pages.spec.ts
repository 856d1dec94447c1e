// The explorer's navigation as a user meets it (issue 21, "Defects to fix"): a block or transaction opened from the
// lists is shown where the user is looking, the search box works before the app is ready and says when it finds
// nothing, links lead where they say, and addresses are shown as typed. Phone (390×844) and desktop viewports.
import { expect, test, type Page } from '@playwright/test';
import { fundedNodeWallet } from './helpers/node-transactions.ts';
import { mineSiblings } from './helpers/submit-block.ts';
import { startRegtestNode, type RegtestNode } from './helpers/regtest-node.ts';

let node: RegtestNode;
test.beforeAll(async () => {
  node = await startRegtestNode(2_000);
});
test.afterAll(async () => node?.stop());

const viewports = [{ name: 'phone', width: 390, height: 844 }, { name: 'desktop', width: 1280, height: 900 }] as const;

async function openHome(page: Page): Promise<void> {
  await page.goto(`${node.url}/`);
  await expect(page.locator('#blocks tbody tr')).toHaveCount(20, { timeout: 30_000 });
  await expect(page.locator('#blocks')).toHaveAttribute('aria-busy', 'false'); // side blocks read too
}

for (const viewport of viewports) {
  test(`a block clicked in the latest-blocks list is shown in view (${viewport.name})`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await openHome(page);
    // One block's link, named by its href: a block mined meanwhile moves the rows down, not this link away.
    const href = (await page.locator('#blocks tbody tr').nth(10).locator('a').first().getAttribute('href'))!;
    const hash = href.replace('#/block/', '');
    const link = page.locator(`#blocks tbody a[href="${href}"]`);
    await link.scrollIntoViewIfNeeded();
    await link.click();
    await expect(page.locator('#detail-h')).toHaveText(/^Block \d+$/);
    await expect(page.locator('#detail-h')).toBeInViewport();
    await expect(page.locator('#detail-body')).toContainText(hash);
    await page.screenshot({ path: testInfo.outputPath(`explorer-block-${viewport.name}.png`) });
  });
}

test('Enter in the search box before the app is ready searches instead of reloading the page', async ({ page }) => {
  // Hold the node's web-config.json: the page has loaded but the app cannot reach the node yet.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/web-config.json', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`${node.url}/`);
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  const search = page.getByRole('textbox', { name: 'Search by height, hash or address' });
  await search.fill('5');
  await search.press('Enter');
  await expect(page).toHaveURL(/#\/block\/5$/);
  release();
  await expect(page.locator('#detail-h')).toHaveText('Block 5', { timeout: 30_000 });
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
});

test('a search typed before the page’s script ran (the form’s plain GET, ?q=) is routed', async ({ page }) => {
  await page.goto(`${node.url}/?q=7`);
  await expect(page.locator('#detail-h')).toHaveText('Block 7', { timeout: 30_000 });
  await expect(page).toHaveURL(/\/#\/block\/7$/);
});

test('a search that finds nothing says so', async ({ page }) => {
  await openHome(page);
  const search = page.getByRole('textbox', { name: 'Search by height, hash or address' });
  for (const [text, what] of [['hello world', 'block, transaction or address'], [`0x${'ab'.repeat(32)}`, 'block or transaction'], ['99999999', 'block']] as const) {
    await search.fill(text);
    await search.press('Enter');
    await expect(page.locator('#detail-h')).toHaveText('Nothing found');
    await expect(page.locator('#not-found')).toHaveText(`No ${what} matches ${text}.`);
    await expect(page.locator('#detail-h')).toBeInViewport();
  }
});

test('a transaction page’s links lead where they say; an address heading keeps the address’s case', async ({ page }) => {
  const wallet = await fundedNodeWallet(node.url, node.apiKey);
  const tx = await wallet.send(wallet.address, 0.05);
  await wallet.mine();
  await wallet.mine();
  await page.goto(`${node.url}/#/tx/${tx}`);
  await expect(page.locator('#detail-h')).toHaveText('Transaction', { timeout: 30_000 });
  const field = (name: string) => page.locator('#detail-body tr').filter({ has: page.locator('th', { hasText: new RegExp(`^${name}$`) }) }).getByRole('link');
  await expect(field('Hash')).toHaveAttribute('href', `#/tx/${tx}`);
  await field('Block').click();
  await expect(page.locator('#detail-h')).toHaveText(/^Block \d+$/);
  await expect(page.locator(`#detail-body a[href="#/tx/${tx}"]`)).toBeVisible();
  await page.goBack();
  await expect(page.locator('#detail-h')).toHaveText('Transaction');
  await field('Hash').click();
  await expect(page.locator('#detail-h')).toHaveText('Transaction');
  await field('From').click();
  await expect(page.locator('#verified-balance')).toBeVisible({ timeout: 30_000 });
  // innerText is the text as rendered, CSS text-transform included: what a reader sees and copies.
  expect(await page.locator('#detail-h').evaluate((h) => (h as HTMLElement).innerText)).toBe(`Address ${wallet.address}`);
});

test('“Latest transactions” lists older confirmed ones at load, and pending ones live until their block comes', async ({ page }) => {
  const wallet = await fundedNodeWallet(node.url, node.apiKey);
  const older = await wallet.send(wallet.address, 0.02);
  await wallet.mine();
  for (let i = 0; i < 30; i++) await wallet.mine(); // well past the 20 blocks of the latest-blocks list
  await openHome(page);
  const rows = page.locator('#txs tbody tr');
  await expect(rows.filter({ has: page.locator(`a[href="#/tx/${older}"]`) })).toHaveAttribute('data-status', 'confirmed', { timeout: 30_000 });

  const pending = await wallet.send(wallet.address, 0.03);
  const row = rows.filter({ has: page.locator(`a[href="#/tx/${pending}"]`) });
  await expect(row).toHaveAttribute('data-status', 'pending');
  await expect(rows.first()).toHaveAttribute('data-hash', pending);
  await expect(row.locator('td').nth(2)).toHaveText('pending');
  await wallet.mine();
  await expect(row).toHaveAttribute('data-status', 'confirmed');
  await expect(row.locator('td').nth(2)).toHaveText(/^block \d+$/);
  // A transaction opened from the list is shown in view, as a block is.
  await row.getByRole('link').first().click();
  await expect(page.locator('#detail-h')).toHaveText('Transaction');
  await expect(page.locator('#detail-h')).toBeInViewport();
});

test('the DAG view draws the recent window’s DAG: side blocks, merge edges, blue/red and the tip’s merge set', async ({ page }, testInfo) => {
  // A fork (two siblings on the same tips) and the block that merges them, made before the page opens: heights name
  // chain blocks only, so the sibling not selected must be read by hash to be drawn at all.
  const a = await fundedNodeWallet(node.url, node.apiKey, 0);
  const b = await fundedNodeWallet(node.url, node.apiKey, 0);
  const fork = async () => {
    const [left, right] = await mineSiblings(node.url, node.apiKey, [a.address, b.address]);
    return { siblings: [left, right], tip: await a.mine() };
  };
  const drawn = (hashes: readonly string[]) => page.locator('#dag').locator(hashes.map((h) => `a[href="#/block/${h}"] circle`).join(', '));
  const expectMerged = async ({ siblings, tip }: { siblings: string[]; tip: string }) => {
    await expect(page.locator('#light-tip')).toHaveAttribute('title', tip, { timeout: 30_000 });
    await expect(drawn(siblings)).toHaveCount(2);
    // One sibling is the tip's selected parent (chain); the other a side block in the tip's merge set, merged blue.
    const side = drawn(siblings).and(page.locator('circle[data-chain="false"]'));
    await expect(side).toHaveAttribute('data-kind', 'blue');
    await expect(side).toHaveAttribute('data-tip-mergeset', 'true');
    const sideLink = page.locator(siblings.map((h) => `#dag a[href="#/block/${h}"]`).join(', ')).filter({ has: page.locator('circle[data-chain="false"]') });
    await expect(sideLink).toHaveAttribute('aria-label', /side block, merged blue by 0x[0-9a-f]{8}…, in the tip’s merge set/);
    await expect(drawn(siblings).and(page.locator('circle[data-chain="true"]'))).toHaveCount(1);
    await expect(drawn([tip])).toHaveAttribute('data-chain', 'true');
  };
  const before = await fork();
  await openHome(page);
  await expect(page.locator('#light-state')).toHaveText('synced', { timeout: 60_000 });
  await expectMerged(before);
  await expect(page.locator('#dag line[data-edge="merge"]').first()).toBeAttached();
  expect(await page.locator('#dag line[data-edge="selected-parent"]').count()).toBeGreaterThan(10);
  await page.screenshot({ path: testInfo.outputPath('explorer-dag.png') });

  // The same live, over new_blocks.
  await expectMerged(await fork());
  await page.screenshot({ path: testInfo.outputPath('explorer-dag-live-fork.png') });
});

