// The explorer's navigation as a user meets it (issue 21, "Defects to fix"): a block or transaction opened from the
// lists is shown where the user is looking, the search box works before the app is ready and says when it finds
// nothing, links lead where they say, and addresses are shown as typed. Phone (390×844) and desktop viewports.
import { expect, test, type Page } from '@playwright/test';
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
}

for (const viewport of viewports) {
  test(`a block clicked in the latest-blocks list is shown in view (${viewport.name})`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await openHome(page);
    const link = page.locator('#blocks tbody tr').nth(10).locator('a').first();
    await link.scrollIntoViewIfNeeded();
    const hash = (await link.getAttribute('href'))!.replace('#/block/', '');
    await link.click();
    await expect(page.locator('#detail-h')).toHaveText(/^Block \d+$/);
    await expect(page.locator('#detail-h')).toBeInViewport();
    await expect(page.locator('#detail-body')).toContainText(hash);
    await page.screenshot({ path: testInfo.outputPath(`explorer-block-${viewport.name}.png`) });
  });
}
