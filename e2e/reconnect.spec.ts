// A page opened while its node is down (issue 21): it retries with back-off, says so in its connection line, and
// recovers by itself when the node answers again — first the node's web-config.json, then its WebSocket, which is
// refused several times in a row (the waiters of the first connection used to be left on a socket that never
// opened, so the page stayed empty for good).
import { expect, test } from '@playwright/test';
import { startRegtestNode, type RegtestNode } from './helpers/regtest-node.ts';

let node: RegtestNode;
test.beforeAll(async () => {
  node = await startRegtestNode(2_000);
});
test.afterAll(async () => node?.stop());

test('the explorer opened while the node is down reconnects with back-off and shows its state', async ({ page }, testInfo) => {
  let phase: 'down' | 'socket-refused' | 'up' = 'down';
  let refusedSockets = 0;
  await page.route('**/web-config.json', (route) => (phase === 'down' ? route.abort('connectionrefused') : route.continue()));
  await page.routeWebSocket(new RegExp(`:${node.wsPort}/$`), (ws) => {
    if (phase === 'up') return void ws.connectToServer();
    refusedSockets++;
    void ws.close({ code: 1006 });
  });
  await page.goto(`${node.url}/`);
  await expect(page.getByRole('status').filter({ hasText: /^node:/ })).toHaveText(/^node: unreachable, retrying in \d+ s$/);
  await page.screenshot({ path: testInfo.outputPath('explorer-node-down.png') });

  phase = 'socket-refused';
  await expect.poll(() => refusedSockets, { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
  await expect(page.locator('#connection')).toHaveText(/^node: (unreachable, reconnecting|connecting…)$/);
  await expect(page.locator('#blocks tbody tr')).toHaveCount(0);

  phase = 'up';
  await expect(page.locator('#connection')).toHaveText('node: connected', { timeout: 30_000 });
  await expect(page.locator('#blocks tbody tr')).toHaveCount(20, { timeout: 30_000 });
  await expect(page.locator('#light-state')).toHaveText('synced', { timeout: 60_000 });
});
