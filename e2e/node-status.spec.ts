// The page a person sees at http://localhost:8080/ when they run `npm start`: a real mining devnet node started
// for the test, its status page showing a height that grows.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startNodeProcess, type NodeProcess } from '../test/helpers/node-process.ts';

let node: NodeProcess;
let url: string;
let datadir: string;

test.beforeAll(async () => {
  datadir = mkdtempSync(join(tmpdir(), 'weft-e2e-'));
  node = startNodeProcess(['--network', 'devnet', '--mine', '--threads', '1', '--datadir', datadir, '--rpc-port', '0', '--ws-port', '0', '--p2p-port', '0']);
  const listening = await node.waitFor((l) => l.msg === 'http listening');
  url = listening.url as string;
});

test.afterAll(async () => {
  node.child.kill('SIGTERM');
  await node.exited;
  rmSync(datadir, { recursive: true, force: true });
});

test('status page shows the node mining: the height grows', async ({ page }, testInfo) => {
  // '/' is the web app once built (server/http/web-app.ts); the status page stays at /status.
  await page.goto(`${url}status`);
  await expect(page.getByRole('heading', { name: 'Weft node' })).toBeVisible();
  const height = page.locator('dt:text-is("height") + dd');
  await expect(height).toHaveText(/^\d+$/);
  const first = Number(await height.textContent());
  await expect.poll(async () => Number(await height.textContent()), { timeout: 60_000 }).toBeGreaterThan(first);
  await page.screenshot({ path: testInfo.outputPath('status-page.png'), fullPage: true });
});

test('the status page reads as a page: sections and words, no JSON; a JSON client still gets JSON (issue 32)', async ({ page, request }) => {
  await page.goto(`${url}status`);
  await expect(page.locator('#summary')).toHaveText(/^(Synced|Syncing) devnet node at height [\d,]+, \d+ peers$/);
  await expect(page.getByRole('heading', { name: 'mining' })).toBeVisible();
  await expect(page.locator('dt:text-is("uptime") + dd')).toHaveText(/^\d+ (s|min)/);
  await expect(page.locator('dt:text-is("running") + dd').first()).toHaveText(/^(yes|no)$/);
  for (const value of await page.locator('dd').allTextContents()) expect(value).not.toMatch(/^[{[]/);
  const json = await request.get(`${url}status`, { headers: { accept: 'application/json' } });
  expect(((await json.json()) as { height: number }).height).toBeGreaterThanOrEqual(0);
});
