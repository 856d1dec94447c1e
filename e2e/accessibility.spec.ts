// Every page of the web app on a phone and on a desktop: each control a user can reach has an accessible name
// (label, aria-label, aria-labelledby, its text, or title — never a placeholder alone), and nothing is wider than
// the screen. Checked on the real pages served by a real node, so a control added without a name fails here.
import { expect, test, type Page } from '@playwright/test';
import { startWalletTestNode, type WalletTestNode } from './helpers/wallet-node.ts';
import { createWalletInPage } from './helpers/wallet-page.ts';

let node: WalletTestNode;

test.beforeAll(async () => {
  node = await startWalletTestNode();
});
test.afterAll(async () => {
  await node?.stop();
});

const pages = ['/', '/miner.html', '/wallet.html', '/widget.html'] as const;
const viewports = [{ name: 'phone', width: 390, height: 844 }, { name: 'desktop', width: 1280, height: 900 }] as const;

/** Visible controls without an accessible name, described so a failure says which. */
function unnamedControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const textOf = (ids: string): string => ids.split(/\s+/).map((id) => document.getElementById(id)?.textContent ?? '').join(' ').trim();
    const nameOf = (el: HTMLElement): string => {
      const aria = el.getAttribute('aria-label')?.trim();
      if (aria) return aria;
      const by = el.getAttribute('aria-labelledby');
      if (by && textOf(by)) return textOf(by);
      const labels = (el as HTMLInputElement).labels;
      if (labels && labels.length > 0 && [...labels].some((l) => l.textContent?.trim())) return 'label';
      if (el.tagName === 'BUTTON' || el.getAttribute('role') === 'button' || el.tagName === 'A' || el.tagName === 'SUMMARY') {
        if (el.textContent?.trim()) return el.textContent.trim();
      }
      return el.getAttribute('title')?.trim() ?? '';
    };
    const controls = document.querySelectorAll<HTMLElement>('button, input:not([type=hidden]), select, textarea, a[href], summary, [role=button]');
    return [...controls]
      .filter((el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden')
      .filter((el) => nameOf(el) === '')
      .map((el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.getAttribute('class') ? `.${el.getAttribute('class')!.trim().replace(/\s+/g, '.')}` : ''}`);
  });
}

for (const viewport of viewports) {
  for (const path of pages) {
    test(`${path} on a ${viewport.name}: every visible control is named, nothing overflows`, async ({ page }) => {
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await page.goto(new URL(path, node.url).href);
      await page.waitForLoadState('networkidle').catch(() => undefined);
      // Let the page's first connection and render settle (forms unhide once the node answers).
      await expect.poll(() => page.evaluate(() => document.querySelectorAll('button:not([hidden])').length), { timeout: 30_000 }).toBeGreaterThan(0);
      expect(await unnamedControls(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    });
  }
}

test('the unlocked wallet on a phone: every visible control is named, nothing overflows', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(new URL('/wallet.html#send', node.url).href);
  await createWalletInPage(page, { password: 'accessible password' });
  await expect(page.getByRole('button', { name: 'Review send' })).toBeVisible();
  expect(await unnamedControls(page)).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
