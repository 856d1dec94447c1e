// The tab's light node against a real regtest node (a generated 2,000-block DAG): fresh profile → sync to the
// node's tip with every header verified in the tab's light-node Worker, mirrored in the page; reload → resume from IndexedDB (a store of the database version
// before the join store, too); a fake bridge's edited header
// and a tampered state proof are refused and shown, never used.
import { expect, test } from '@playwright/test';
import { frontWithBridge, type BridgeFront } from './helpers/bridge-route.ts';
import { startFakeBridge, type FakeBridge } from './helpers/fake-bridge.ts';
import { lightStatus } from './helpers/light-status.ts';
import { nodeRpc } from './helpers/node-rpc.ts';
import { startRegtestNode, type RegtestNode } from './helpers/regtest-node.ts';

const blocks = 2_000;
let node: RegtestNode;
let bridge: FakeBridge;

test.beforeAll(async () => {
  node = await startRegtestNode(blocks);
  // A blue work the header's parents do not give: GHOSTDAG (or, with the changed hash, PoW) must refuse it.
  bridge = await startFakeBridge(300, 120, (h) => ({ ...h, blueWork: h.blueWork + 1n }));
});
test.afterAll(async () => {
  await bridge?.close();
  await node?.stop();
});

const nodeInfo = () => nodeRpc<{ selected_tip: string; block_height: number }>(node.url, 'get_info');

/** The bridge's man in the middle, for the test that places one. */
let front: BridgeFront | undefined;
test.afterEach(async () => {
  await front?.close();
  front = undefined;
});

test('fresh profile syncs to the node’s tip verifying every header, and resumes from IndexedDB after a reload', async ({ page }, testInfo) => {
  await page.goto(`${node.url}/`);
  await expect(page.locator('#light-state')).toHaveText('synced', { timeout: 60_000 });
  const info = await nodeInfo();
  const first = (await lightStatus(page))!;
  expect(first.tipHash).toBe(info.selected_tip);
  expect(first.tipHeight).toBe(info.block_height);
  expect(first.resumed).toBe(0);
  // Every header the tab holds beyond genesis went through its own verification in this session.
  expect(first.verified).toBe(first.headers - 1);
  expect(first.verified).toBeGreaterThanOrEqual(blocks - 1);
  await expect(page.locator('#light-height')).toHaveText(String(info.block_height));
  // The node ran in a Worker (web/light/worker/); the page holds its mirror, which answers as the Worker's chain.
  expect(page.workers().map((w) => new URL(w.url()).pathname)).toContainEqual(expect.stringMatching(/^\/assets\/light-worker-[\w-]+\.js$/));
  const mirror = await page.evaluate(() => {
    const chain = window.weftLight!.node.chain;
    const tip = chain.selectedTip();
    return { tip: tip.id, count: chain.count(), atTipHeight: chain.blockAtHeight(tip.height)?.id, stateRoot: tip.header.stateRoot.length };
  });
  expect(mirror).toEqual({ tip: info.selected_tip.slice(2), count: first.headers, atTipHeight: info.selected_tip.slice(2), stateRoot: 32 });
  await page.screenshot({ path: testInfo.outputPath('light-synced.png'), fullPage: true });

  await page.reload();
  await expect(page.locator('#light-state')).toHaveText('synced', { timeout: 60_000 });
  const again = (await lightStatus(page))!;
  expect(again.resumed).toBe(first.headers - 1);
  expect(again.verified).toBe(0);
  expect(again.tipHash).toBe(info.selected_tip);
  expect(again.storage).toBe('indexeddb'); // the reloaded tab is the store's writer again
  await expect(page.locator('#light-resumed')).toHaveText(String(first.headers - 1));
  await page.screenshot({ path: testInfo.outputPath('light-resumed.png'), fullPage: true });
});

test('a store written before the join store existed (IndexedDB version 2) resumes after the upgrade', async ({ browser }) => {
  const synced = await browser.newContext();
  const first = await synced.newPage();
  await first.goto(`${node.url}/`);
  await expect(first.locator('#light-state')).toHaveText('synced', { timeout: 60_000 });
  const stored = (await lightStatus(first))!;
  const batches = await first.evaluate(
    () =>
      new Promise<{ firstSeq: number; packed: number[] }[]>((resolve, reject) => {
        const open = indexedDB.open('weft-light-regtest');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction('batches').objectStore('batches').getAll();
          all.onsuccess = () => resolve((all.result as { firstSeq: number; packed: Uint8Array }[]).map((r) => ({ firstSeq: r.firstSeq, packed: [...r.packed] })));
          all.onerror = () => reject(all.error);
        };
      }),
  );
  await synced.close();

  // Another profile gets the same headers as version 2 wrote them: store `batches` alone, no `join`.
  const old = await browser.newContext();
  const page = await old.newPage();
  await page.goto(`${node.url}/api/v1/stats`);
  await page.evaluate(
    (rows) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('weft-light-regtest', 2);
        open.onupgradeneeded = () => open.result.createObjectStore('batches', { keyPath: 'firstSeq' });
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('batches', 'readwrite');
          for (const r of rows) tx.objectStore('batches').put({ firstSeq: r.firstSeq, packed: Uint8Array.from(r.packed) });
          tx.oncomplete = () => (open.result.close(), resolve());
          tx.onerror = () => reject(tx.error);
        };
      }),
    batches,
  );
  await page.goto(`${node.url}/`);
  await expect(page.locator('#light-state')).toHaveText('synced', { timeout: 60_000 });
  const resumed = (await lightStatus(page))!;
  expect(resumed.resumed).toBe(stored.headers - 1);
  expect(resumed.joinedAt).toBeNull();
  expect(resumed.tipHash).toBe(stored.tipHash);
  await old.close();
});

test('a second tab resumes from the first tab’s store without writing to it; it writes once the first is gone', async ({ browser }) => {
  const context = await browser.newContext();
  const writer = await context.newPage();
  await writer.goto(`${node.url}/`);
  await expect(writer.locator('#light-state')).toHaveText('synced', { timeout: 60_000 });
  const stored = (await lightStatus(writer))!;
  expect(stored.storage).toBe('indexeddb');

  const reader = await context.newPage();
  await reader.goto(`${node.url}/`);
  await expect(reader.locator('#light-state')).toHaveText('synced', { timeout: 60_000 });
  const second = (await lightStatus(reader))!;
  expect(second.storage).toBe('indexeddb-reader');
  expect(second.resumed).toBe(stored.headers - 1);
  expect(second.tipHash).toBe(stored.tipHash);

  await writer.close();
  await reader.reload();
  await expect(reader.locator('#light-state')).toHaveText('synced', { timeout: 60_000 });
  const promoted = (await lightStatus(reader))!;
  expect(promoted.storage).toBe('indexeddb');
  expect(promoted.resumed).toBe(stored.headers - 1);
  await context.close();
});

test('a header edited by a fake bridge is refused and shown', async ({ page }, testInfo) => {
  front = await frontWithBridge(node, bridge.url);
  await page.goto(`${front.url}/`);
  await expect(page.locator('#light-state')).toHaveText('rejected', { timeout: 60_000 });
  await expect(page.locator('#light-error')).toContainText(/refused/);
  const status = (await lightStatus(page))!;
  expect(status.error?.reason).toBe('header-invalid');
  expect(status.headers).toBe(121); // genesis + the 120 honest headers before the edited one
  await expect(page.getByRole('button', { name: 'Retry sync' })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('light-rejected-header.png'), fullPage: true });
});

test('a balance is shown only from a proof that checks out; a tampered proof is shown as an error', async ({ page }, testInfo) => {
  const latest = await (await fetch(`${node.url}/api/v1/blocks/latest?include_transactions=false`)).json() as { miner: string };
  await page.goto(`${node.url}/`);
  await expect(page.locator('#light-state')).toHaveText('synced', { timeout: 60_000 });
  await page.goto(`${node.url}/#/address/${latest.miner}`);
  await expect(page.locator('#detail-body')).toContainText(/checked against verified block|Proof rejected/, { timeout: 30_000 });
  await expect(page.locator('#verified-balance')).toHaveText(/^\d/);
  await page.screenshot({ path: testInfo.outputPath('address-verified.png'), fullPage: true });

  // Now let a man in the middle edit every get_proof answer's leaf value on its way to the tab.
  await page.routeWebSocket(/:\d+\/$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => server.send(m));
    server.onMessage((m) => {
      const text = typeof m === 'string' ? m : m.toString();
      const reply = JSON.parse(text) as { result?: { proof?: { value?: string } } };
      if (reply.result?.proof?.value) {
        const v = reply.result.proof.value;
        reply.result.proof.value = `${v.slice(0, -2)}${v.endsWith('00') ? '01' : '00'}`;
        return ws.send(JSON.stringify(reply));
      }
      ws.send(text);
    });
  });
  await page.goto(`${node.url}/?r=1#/address/${latest.miner}`);
  await expect(page.locator('#proof-error')).toContainText('Proof rejected', { timeout: 60_000 });
  await expect(page.locator('#verified-balance')).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('address-proof-rejected.png'), fullPage: true });
});
