// The tab joins by proof (docs/web.md "Joining by proof"): a real pruned regtest node with version 2 headers on a
// generated chain many pruning windows long. A fresh tab verifies the node's pruning-point proof, takes the trusted
// data, verifies every header above the point and shows the node's tip — holding a few windows of headers, not the
// chain; a balance proof checks out against those headers; a reload resumes from IndexedDB. A man in the middle on
// the p2p bridge that edits the proof gets it refused, and the page says why.
import { expect, test } from '@playwright/test';
import { frontWithBridge, type BridgeFront } from './helpers/bridge-route.ts';
import { lightStatus } from './helpers/light-status.ts';
import { nodeRpc } from './helpers/node-rpc.ts';
import { startProofTamperBridge, type ProofTamperBridge } from './helpers/proof-tamper-bridge.ts';
import { startRegtestNode, type RegtestNode } from './helpers/regtest-node.ts';

const blocks = 1_500;
// A pruning window (pruning depth + finality depth) of 90 blue score: the chain is about fifteen windows long.
const depths = { headerVersion: 2, finalityDepth: 30, mergeDepth: 15, pruningDepth: 60 } as const;
const flags = ['--regtest-header-version=2', '--regtest-finality-depth=30', '--regtest-merge-depth=15', '--regtest-pruning-depth=60'];
let node: RegtestNode;
let bridge: ProofTamperBridge;

test.beforeAll(async () => {
  node = await startRegtestNode(blocks, flags, depths);
  bridge = await startProofTamperBridge(`ws://127.0.0.1:${node.wsPort}/p2p`, 'regtest');
});
test.afterAll(async () => {
  await bridge?.close();
  await node?.stop();
});

async function nodeView(): Promise<{ tip: string; height: number; pruningPoint: string }> {
  const info = await nodeRpc<{ selected_tip: string; block_height: number }>(node.url, 'get_info');
  const health = (await (await fetch(`${node.url}/health`)).json()) as { pruning: { pruning_point: string } };
  return { tip: info.selected_tip, height: info.block_height, pruningPoint: health.pruning.pruning_point };
}

/** The bridge's man in the middle, for the test that places one. */
let front: BridgeFront | undefined;
test.afterEach(async () => {
  await front?.close();
  front = undefined;
});

test('a fresh tab on a chain fifteen pruning windows long joins by proof, shows the verified tip, proves a balance, and resumes', async ({ page }, testInfo) => {
  await page.goto(`${node.url}/`);
  await expect(page.locator('#light-state')).toHaveText('synced', { timeout: 60_000 });
  const view = await nodeView();
  const joined = (await lightStatus(page))!;
  expect(joined.joinedAt).toBe(view.pruningPoint);
  expect(joined.tipHash).toBe(view.tip);
  expect(joined.tipHeight).toBe(view.height);
  expect(joined.resumed).toBe(0);
  // The proof's headers, the trusted blocks and what lies above the point: a bounded set, not the chain.
  expect(joined.headers).toBeLessThan(blocks / 2);
  expect(joined.verified).toBeGreaterThan(0);
  await expect(page.locator('#light-height')).toHaveText(String(view.height));
  await expect(page.locator('#light-from')).toContainText(view.pruningPoint.slice(0, 10));
  await expect(page.locator('#light-from')).toHaveAttribute('title', `the pruning point ${view.pruningPoint}, proven by its proof`);
  await expect(page.locator('#light-error')).toBeHidden();
  await page.screenshot({ path: testInfo.outputPath('light-joined.png'), fullPage: true });

  // A balance proof checks out against a header the joined tab verified.
  const latest = (await (await fetch(`${node.url}/api/v1/blocks/latest?include_transactions=false`)).json()) as { miner: string };
  await page.goto(`${node.url}/#/address/${latest.miner}`);
  await expect(page.locator('#detail-body')).toContainText('checked against verified block', { timeout: 30_000 });
  await expect(page.locator('#verified-balance')).toHaveText(/^\d/);

  await page.goto(`${node.url}/`);
  await expect(page.locator('#light-state')).toHaveText('synced', { timeout: 60_000 });
  const again = (await lightStatus(page))!;
  // The join (proof headers and trusted blocks) reads back as one record; the headers above it replay one by one.
  expect(again.resumed).toBe(joined.verified);
  expect(again.verified).toBe(0);
  expect(again.headers).toBe(joined.headers);
  expect(again.joinedAt).toBe(view.pruningPoint);
  expect(again.tipHash).toBe(view.tip);
  await expect(page.locator('#light-resumed')).toHaveText(String(joined.verified));
});

test('a pruning-point proof edited by a man in the middle on the bridge is refused and shown', async ({ page }, testInfo) => {
  front = await frontWithBridge(node, bridge.url);
  await page.goto(`${front.url}/`);
  await expect(page.locator('#light-state')).toHaveText('rejected', { timeout: 60_000 });
  expect(bridge.tampered()).toBeGreaterThan(0);
  const status = (await lightStatus(page))!;
  expect(status.error?.reason).toBe('proof-invalid');
  expect(status.joinedAt).toBeNull();
  await expect(page.locator('#light-from')).toHaveText('genesis');
  await expect(page.locator('#light-error')).toContainText('Rejected');
  await expect(page.locator('#light-error')).toContainText('proof rule');
  await expect(page.getByRole('button', { name: 'Retry sync' })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('light-proof-refused.png'), fullPage: true });
});
