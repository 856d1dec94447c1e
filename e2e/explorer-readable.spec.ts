// The explorer as issue 21's "Readable pages" asks, on a phone (390×844) and a desktop (1280×900), against a real
// regtest node with a confirmed and a pending transaction: each page shows its fields (amounts with units, relative
// times with the local date in `title`, hashes linked with copy buttons), axe-core finds no serious or critical
// violation, and a screenshot of each page (wallet included) is saved under test-results/screenshots/.
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { fundedNodeWallet, type NodeWallet } from './helpers/node-transactions.ts';
import { startRegtestNode, type RegtestNode } from './helpers/regtest-node.ts';

let node: RegtestNode;
let wallet: NodeWallet;
let confirmedTx: string;
let pendingTx: string;
let blockHash: string;

test.beforeAll(async () => {
  // Sixteen fresh page loads within a minute or two from one address (each home load reads ~80 blocks) are sixteen
  // visitors here, not one person: the per-address limit (docs/auth.md) would refuse the last ones' proofs, and its
  // own tests are test/integration/auth/auth-rate-limit.test.ts.
  node = await startRegtestNode(2_000, ['--rate-limits=false']);
  wallet = await fundedNodeWallet(node.url, node.apiKey, 6);
  confirmedTx = await wallet.send(wallet.address, 0.0512);
  blockHash = await wallet.mine();
  await wallet.mine();
  pendingTx = await wallet.send(wallet.address, 0.25);
});
test.afterAll(async () => node?.stop());

const viewports = [{ name: 'phone', width: 390, height: 844 }, { name: 'desktop', width: 1280, height: 900 }] as const;
const amount = /^\d{1,3}(,\d{3})*(\.\d+)? WEFT$/;

interface PageCheck {
  readonly name: string;
  readonly path: () => string;
  readonly ready: (page: Page) => Promise<void>;
  /** The wallet page's accessibility is its own spec's (e2e/wallet*.spec.ts); it is only photographed here. */
  readonly axe: boolean;
}

const field = (page: Page, table: string, label: string) => page.locator(`${table} tr`).filter({ has: page.locator('th', { hasText: new RegExp(`^${label}`) }) }).locator('td');

const pages: readonly PageCheck[] = [
  {
    name: 'home', axe: true, path: () => '/',
    ready: async (p) => {
      await expect(p.locator('#blocks tbody tr')).toHaveCount(20, { timeout: 30_000 });
      await expect(p.locator('#blocks')).toHaveAttribute('aria-busy', 'false');
      await expect(p.locator('#st-daa')).toHaveText(/^\d{1,3}(,\d{3})*$/);
      await expect(p.locator('#st-supply')).toHaveText(amount, { timeout: 30_000 });
      await expect(p.locator('#st-mempool')).toHaveText(/^\d+ txs$/);
      await expect(p.locator('#st-bps')).toHaveText(/^\d+(\.\d+)?(e-\d+)?$/);
      await expect(p.locator('#blocks tbody tr').first().locator('time')).toHaveAttribute('title', /\d/);
      // Caption and axis tell the same latest value the chart is drawn from.
      await expect(p.locator('#c-diff-v')).toHaveText(/^latest \d/);
      await expect(p.locator('#c-diff')).toHaveAttribute('aria-label', /latest \d/);
      await expect(p.locator('#c-diff text')).toHaveCount(4);
      await expect(p.locator('#txs tbody tr').first().locator('td').nth(1)).toHaveText(amount, { timeout: 30_000 });
    },
  },
  {
    name: 'block', axe: true, path: () => `/#/block/${blockHash}`,
    ready: async (p) => {
      await expect(p.locator('#detail-h')).toHaveText(/^Block \d+$/, { timeout: 30_000 });
      await expect(field(p, '#block-fields', 'Reward')).toContainText(/\d WEFT \(subsidy/);
      await expect(field(p, '#block-fields', 'Fee total')).toContainText('WEFT');
      await expect(field(p, '#block-fields', 'Blue score')).toHaveText(/^\d{1,3}(,\d{3})*$/);
      await expect(field(p, '#block-fields', 'DAA score')).toHaveText(/^\d{1,3}(,\d{3})*$/);
      await expect(field(p, '#block-fields', 'Time').locator('time')).toHaveAttribute('title', /\d/);
      await expect(field(p, '#block-fields', 'Hash').getByRole('button', { name: /^Copy block hash/ })).toBeVisible();
      await expect(field(p, '#block-fields', 'Parents').getByRole('link').first()).toHaveAttribute('href', /^#\/block\/0x[0-9a-f]{64}$/);
      await expect(field(p, '#dag-place', 'Merge set, blue')).toBeVisible({ timeout: 30_000 });
      await expect(field(p, '#dag-place', 'Children')).toContainText(/0x|none/);
      await expect(p.locator(`#detail-body a[href="#/tx/${confirmedTx}"]`)).toBeVisible();
    },
  },
  {
    name: 'tx', axe: true, path: () => `/#/tx/${confirmedTx}`,
    ready: async (p) => {
      await expect(p.locator('#inclusion')).toBeVisible({ timeout: 30_000 });
      await expect(field(p, '#tx-fields', 'Amount')).toHaveText('0.0512 WEFT');
      await expect(field(p, '#tx-fields', 'Fee')).toContainText('WEFT');
      await expect(field(p, '#tx-fields', 'Kind')).toHaveText('transfer');
      await expect(field(p, '#tx-fields', 'From').getByRole('link')).toHaveAttribute('href', `#/address/${wallet.address}`);
      await expect(field(p, '#tx-fields', 'Block').getByRole('link')).toHaveAttribute('href', `#/block/${blockHash}`);
      await expect(field(p, '#tx-fields', 'Status')).toHaveText(/^(confirmed|final), [\d,]+ confirmations$/);
    },
  },
  {
    name: 'address', axe: true, path: () => `/#/address/${wallet.address}`,
    ready: async (p) => {
      await expect(p.locator('#verified-balance')).toHaveText(amount, { timeout: 30_000 });
      await expect(p.getByRole('img', { name: `QR code of address ${wallet.address}` })).toBeVisible();
      await expect(field(p, '#account-fields', 'Nonce')).toHaveText(/^\d+$/);
      await expect(p.locator('#history tbody tr').first()).toHaveAttribute('data-hash', pendingTx);
      await expect(p.locator('#history-range')).toHaveText(/^1–\d+ of \d+$/);
    },
  },
  {
    name: 'mempool', axe: true, path: () => '/#/mempool',
    ready: async (p) => {
      await expect(p.locator('#detail-h')).toHaveText('Mempool', { timeout: 30_000 });
      await expect(p.locator(`#mempool tr[data-hash="${pendingTx}"]`)).toBeVisible();
      await expect(p.locator(`#mempool tr[data-hash="${pendingTx}"]`)).toContainText(/\d units\/B/);
      await expect(p.getByRole('link', { name: 'Mempool' })).toHaveAttribute('aria-current', 'page');
    },
  },
  {
    name: 'supply', axe: true, path: () => '/#/supply',
    ready: async (p) => {
      await expect(p.locator('#detail-h')).toHaveText('Supply', { timeout: 30_000 });
      await expect(p.locator('#supply-emitted')).toHaveText(amount);
      await expect(p.locator('#supply-burnt')).toHaveText('0 WEFT');
      await expect(p.locator('#supply-circulating')).toHaveText(await p.locator('#supply-emitted').innerText());
    },
  },
  { name: 'miner', axe: true, path: () => '/miner.html', ready: (p) => expect(p.getByRole('button', { name: 'Start mining' })).toBeVisible() },
  { name: 'wallet', axe: false, path: () => '/wallet.html', ready: (p) => expect(p.getByRole('button', { name: 'Create wallet' })).toBeVisible({ timeout: 30_000 }) },
];

for (const viewport of viewports) {
  for (const check of pages) {
    test(`${check.name} on a ${viewport.name}: readable fields${check.axe ? ', no serious axe violation' : ''}, screenshot`, async ({ page }) => {
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await page.goto(`${node.url}${check.path()}`);
      await check.ready(page);
      if (check.axe) {
        const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
        const serious = results.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
        expect(serious).toEqual([]);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await page.screenshot({ path: `test-results/screenshots/${check.name}-${viewport.name}.png`, fullPage: true });
    });
  }
}

test('the home page’s mempool figure follows a new pending transaction live', async ({ page }) => {
  await page.goto(`${node.url}/`);
  await expect(page.locator('#st-mempool')).toHaveText(/^\d+ txs$/, { timeout: 30_000 });
  const before = Number((await page.locator('#st-mempool').innerText()).split(' ')[0]);
  await wallet.send(wallet.address, 0.001);
  await expect(page.locator('#st-mempool')).toHaveText(`${before + 1} txs`, { timeout: 15_000 });
});

test('a copy button copies the full hash', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto(`${node.url}/#/tx/${confirmedTx}`);
  await field(page, '#tx-fields', 'Hash').getByRole('button', { name: /^Copy transaction hash/ }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(confirmedTx);
});

test('address history pages through older transactions', async ({ page }) => {
  for (let i = 0; i < 21; i++) await wallet.send(wallet.address, 0.001);
  await wallet.mine();
  await page.goto(`${node.url}/#/address/${wallet.address}`);
  await expect(page.locator('#history tbody tr')).toHaveCount(20, { timeout: 30_000 });
  const firstPage = await page.locator('#history tbody tr').first().getAttribute('data-hash');
  await page.getByRole('button', { name: 'Older' }).click();
  await expect(page.locator('#history-range')).toHaveText(/^21–\d+ of \d+$/);
  expect(await page.locator('#history tbody tr').first().getAttribute('data-hash')).not.toBe(firstPage);
  await page.getByRole('button', { name: 'Newer' }).click();
  await expect(page.locator('#history-range')).toHaveText(/^1–20 of \d+$/);
  // The wallet mines to itself: its block rewards are listed beside its transactions (issue 32).
  await expect(page.locator('#rewards tbody tr').first()).toContainText('WEFT');
  await expect(page.locator('#rewards-total')).toHaveText(/^\d+ block rewards; the newest \d+:$/);
});
