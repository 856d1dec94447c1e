// Mining in the tab against a real regtest node, as any visitor (no API key: the work endpoints are public): Wasm
// in Web Workers until a block is found, submitted and confirmed by the node, then seen in the explorer; WebGPU when
// Chromium offers an adapter (SwiftShader), else the page must say so instead of mining.
import { expect, test, type Page } from '@playwright/test';
import { startRegtestNode, type RegtestNode } from './helpers/regtest-node.ts';

let node: RegtestNode;
let minerAddress: string;

test.beforeAll(async () => {
  node = await startRegtestNode(2_000);
  const latest = (await (await fetch(`${node.url}/api/v1/blocks/latest?include_transactions=false`)).json()) as { miner: string };
  minerAddress = latest.miner;
});
test.afterAll(async () => node?.stop());

async function startMining(page: Page, backend: 'wasm' | 'webgpu' | 'auto', threads = 2): Promise<void> {
  await page.goto(`${node.url}/miner.html`);
  await page.getByLabel('Reward address').fill(minerAddress);
  await page.getByLabel('Backend').selectOption(backend);
  await page.getByLabel('Wasm threads').fill(String(threads));
  await page.getByRole('button', { name: 'Start mining' }).click();
}

async function confirmedByNode(hash: string): Promise<{ hash: string; gpu_mining: boolean }> {
  const r = await fetch(`${node.url}/api/v1/blocks/${hash}`);
  expect(r.status).toBe(200);
  return (await r.json()) as { hash: string; gpu_mining: boolean };
}

test('Wasm workers mine a block that the node accepts and the explorer shows', async ({ page }, testInfo) => {
  await startMining(page, 'wasm');
  await expect(page.locator('#m-backend')).toHaveText(/wasm × 2 workers/);
  await expect(page.locator('#found tbody tr').first().locator('td').nth(2)).toHaveText('accepted', { timeout: 60_000 });
  await expect(page.locator('#m-difficulty')).toHaveText(/^\d+$/);
  await expect(page.locator('#m-rate')).toHaveText(/H\/s/);
  const hash = (await page.locator('#found tbody tr').first().locator('a').textContent())!;
  const block = await confirmedByNode(hash);
  expect(block.gpu_mining).toBe(false);
  await page.getByRole('button', { name: 'Stop' }).click();
  await page.screenshot({ path: testInfo.outputPath('miner-wasm.png'), fullPage: true });

  await page.goto(`${node.url}/#/block/${hash}`);
  await expect(page.locator('#detail-h')).toHaveText(/^Block \d+/, { timeout: 30_000 });
  await expect(page.locator('#detail-body')).toContainText(hash);
  await page.screenshot({ path: testInfo.outputPath('explorer-mined-block.png'), fullPage: true });
});

test('WebGPU mines when Chromium offers an adapter, and says why not otherwise', async ({ page }, testInfo) => {
  await page.goto(`${node.url}/miner.html`);
  const adapter = await page.evaluate(async () => ('gpu' in navigator ? (await navigator.gpu.requestAdapter()) !== null : false));
  await startMining(page, 'webgpu');
  if (adapter) {
    // SwiftShader compiles the WGSL kernel first: seconds on a loaded 2-core box.
    await expect(page.locator('#m-backend')).toHaveText(/^webgpu/, { timeout: 30_000 });
    await expect(page.locator('#found tbody tr').first().locator('td').nth(2)).toHaveText('accepted', { timeout: 90_000 });
    const hash = (await page.locator('#found tbody tr').first().locator('a').textContent())!;
    expect((await confirmedByNode(hash)).gpu_mining).toBe(true);
  } else {
    await expect(page.locator('#miner-error')).toContainText('Cannot start webgpu');
    await expect(page.locator('#m-state')).toHaveText('stopped');
  }
  testInfo.annotations.push({ type: 'webgpu', description: adapter ? 'adapter offered: mined on WebGPU' : 'no adapter: refusal shown' });
  await page.screenshot({ path: testInfo.outputPath('miner-webgpu.png'), fullPage: true });
});

test('auto picks Wasm over a software WebGPU adapter and says why; the choice is shown for every backend', async ({ page }) => {
  // What this Chromium offers (none, or SwiftShader: headless Chromium has no hardware GPU here).
  await page.goto(`${node.url}/miner.html`);
  const offered = await page.evaluate(async () => {
    const adapter = 'gpu' in navigator ? await navigator.gpu.requestAdapter() : null;
    return adapter && { ...JSON.parse(JSON.stringify({ vendor: adapter.info.vendor, architecture: adapter.info.architecture, description: adapter.info.description })), fallback: adapter.info.isFallbackAdapter ?? false };
  });
  test.info().annotations.push({ type: 'webgpu adapter', description: JSON.stringify(offered) });
  await startMining(page, 'auto');
  await expect(page.locator('#m-backend')).toHaveText(/^wasm × 2 workers$/);
  await expect(page.locator('#m-backend-why')).toHaveText(offered ? /^auto: Wasm, because the WebGPU adapter .* (fallback|software)/ : /^auto: Wasm, because WebGPU offers no adapter here|^auto: Wasm, because this browser has no WebGPU/);
  await page.getByRole('button', { name: 'Stop' }).click();

  // A software adapter as SwiftShader reports it, with a real device behind it where this browser has one: auto
  // must decide by the adapter's info, not by whether a device opens.
  await page.addInitScript(() => {
    const real = 'gpu' in navigator ? navigator.gpu : undefined;
    const info = { vendor: 'google', architecture: 'swiftshader', device: '', description: 'SwiftShader Device (Subzero)', isFallbackAdapter: true };
    const fake = {
      requestAdapter: async () => {
        const adapter = await real?.requestAdapter();
        return { info, features: new Set(), limits: adapter?.limits ?? {}, requestDevice: async (d?: GPUDeviceDescriptor) => adapter!.requestDevice(d) };
      },
      getPreferredCanvasFormat: () => 'bgra8unorm',
    };
    Object.defineProperty(Navigator.prototype, 'gpu', { get: () => fake, configurable: true });
  });
  await startMining(page, 'auto');
  await expect(page.locator('#m-backend')).toHaveText(/^wasm/);
  await expect(page.locator('#m-backend-why')).toHaveText('auto: Wasm, because the WebGPU adapter (google swiftshader SwiftShader Device (Subzero)) is a fallback (software) adapter');
  await page.getByRole('button', { name: 'Stop' }).click();

  await startMining(page, 'wasm');
  await expect(page.locator('#m-backend-why')).toHaveText('Wasm, as chosen');
});
