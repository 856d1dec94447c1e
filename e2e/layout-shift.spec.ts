// Pages do not move under the reader as their data arrives (issue 32), on a phone: the block page's cumulative layout
// shift was 0.93 — the detail section opened above the overview once the node and the light node answered, pushing
// the panels down — and the wallet's header grew a row as its status lines lengthened, moving the forms down. Layout
// shifts are read as the browser reports them (the Layout Instability API, what Lighthouse sums as CLS), from the
// first paint until the page has loaded, verified and settled.
import { expect, test, type Page } from '@playwright/test';
import { startRegtestNode, type RegtestNode } from './helpers/regtest-node.ts';

let node: RegtestNode;
test.beforeAll(async () => {
  node = await startRegtestNode(2_000);
});
test.afterAll(async () => node?.stop());

// Lighthouse's phone (a Moto G Power) is 412 px wide; e2e's other phone checks use 390.
test.use({ viewport: { width: 412, height: 823 } });

/** Records every layout shift not caused by input, from before the page's first script runs. */
async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shifts: { value: number; sources: string[] }[] = [];
    (window as unknown as { layoutShifts: typeof shifts }).layoutShifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean; sources?: { node?: Node | null }[] }[]) {
        if (entry.hadRecentInput) continue;
        shifts.push({ value: entry.value, sources: (entry.sources ?? []).map((s) => (s.node instanceof Element ? `${s.node.tagName.toLowerCase()}#${s.node.id}.${s.node.className}` : String(s.node?.nodeName))) });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

const layoutShifts = (page: Page) => page.evaluate(() => (window as unknown as { layoutShifts: { value: number; sources: string[] }[] }).layoutShifts);

test('a block page opened by its URL does not shift as the node and the light node answer', async ({ page }) => {
  await recordLayoutShifts(page);
  await page.goto(`${node.url}/#/block/1000`);
  await expect(page.locator('#detail-h')).toHaveText('Block 1000', { timeout: 30_000 });
  await expect(page.locator('#verified-line')).toHaveText('header verified by this tab', { timeout: 60_000 });
  await expect(page.locator('#dag-place')).toBeVisible();
  // The overview behind it keeps loading (lists, DAG, charts): give it time to land.
  await expect(page.locator('#blocks tbody tr')).toHaveCount(20, { timeout: 30_000 });
  await page.waitForTimeout(1_000);
  const shifts = await layoutShifts(page);
  const total = shifts.reduce((sum, s) => sum + s.value, 0);
  expect(total, JSON.stringify(shifts)).toBeLessThan(0.01);
});

test('the home page does not shift as its lists, figures and charts fill', async ({ page }) => {
  await recordLayoutShifts(page);
  await page.goto(`${node.url}/`);
  await expect(page.locator('#blocks tbody tr')).toHaveCount(20, { timeout: 30_000 });
  await expect(page.locator('#light-state')).toHaveText('synced', { timeout: 60_000 });
  await page.waitForTimeout(1_000);
  const shifts = await layoutShifts(page);
  expect(shifts.reduce((sum, s) => sum + s.value, 0), JSON.stringify(shifts)).toBeLessThan(0.01);
});

test('the wallet page does not shift as the node and the light node answer', async ({ page }) => {
  await recordLayoutShifts(page);
  await page.goto(`${node.url}/wallet.html`);
  await expect(page.getByRole('button', { name: 'Create wallet' })).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('#light-status')).toHaveText(/^light node: synced/, { timeout: 60_000 });
  await page.waitForTimeout(1_000);
  const shifts = await layoutShifts(page);
  expect(shifts.reduce((sum, s) => sum + s.value, 0), JSON.stringify(shifts)).toBeLessThan(0.01);
});
