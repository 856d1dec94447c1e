// Both PoW kernels in Debian's Chromium, from the built page web/kernel-check.html (npm run build → dist/web): the
// AssemblyScript Wasm kernel in a Web Worker and the WGSL kernel on Chromium's WebGPU (SwiftShader when headless,
// --enable-unsafe-webgpu from playwright.config.ts). Oracle: src/consensus/pow.ts (noble BLAKE3) run here in Node.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { expect, test } from '@playwright/test';
import { powHash } from '../src/consensus/pow.ts';
import { bytesToBigIntBE, toHex } from '../src/util/bytes.ts';
import { repoRoot } from '../test/vectors.ts';

const distDir = join(repoRoot, 'dist/web');
const pagePath = '/web/kernel-check.html';
const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css',
};
const u64Max = (1n << 64n) - 1n;

let server: Server;
let base: string;

/** Serves dist/web read-only; nothing outside it. */
function serveDist(): Promise<Server> {
  const s = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    const file = join(distDir, path);
    if (!file.startsWith(distDir) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': contentTypes[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  return new Promise((resolve) => s.listen(0, '127.0.0.1', () => resolve(s)));
}

function randomBytes(n: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(n));
}

function randomNonce(): bigint {
  return new DataView(randomBytes(8).buffer).getBigUint64(0);
}

test.beforeAll(async () => {
  if (!existsSync(join(distDir, pagePath))) {
    // `npm test` builds first; a lone `npx playwright test` builds the page here.
    execFileSync(process.execPath, ['assembly/build.mjs'], { cwd: repoRoot, stdio: 'inherit' });
    execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build'], { cwd: repoRoot, stdio: 'inherit' });
  }
  server = await serveDist();
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

test.afterAll(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()));
});

test('Wasm in a Web Worker and WGSL on WebGPU agree with pow.ts and find a planted target', async ({ page }, testInfo) => {
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(`${base}${pagePath}`);
  await page.evaluate(() => window.weftKernelsReady);
  const variant = await page.evaluate(() => window.weftKernels.wasmVariant());
  expect(variant).toMatch(/^(simd|scalar)$/);
  const adapter = await page.evaluate(() => window.weftKernels.gpuAdapter());
  expect(adapter).toMatch(/\S/);

  // Random (prePow, nonce) pairs plus the nonces where the low word carries or the u64 ends.
  const cases: { prePow: string; nonces: string[] }[] = [];
  for (let i = 0; i < 8; i++) {
    const nonces = [0n, 0xffff_ffffn, 0x1_0000_0000n, u64Max, ...Array.from({ length: 124 }, randomNonce)];
    cases.push({ prePow: toHex(randomBytes(32)), nonces: nonces.map(String) });
  }
  let pairs = 0;
  for (const { prePow, nonces } of cases) {
    const expected = nonces.map((n) => toHex(powHash(Uint8Array.from(Buffer.from(prePow, 'hex')), BigInt(n))));
    const wasm = await page.evaluate(([p, n]) => window.weftKernels.wasmPowHashes(p, n), [prePow, nonces] as const);
    const gpu = await page.evaluate(([p, n]) => window.weftKernels.gpuPowHashes(p, n), [prePow, nonces] as const);
    expect(wasm).toEqual(expected);
    expect(gpu).toEqual(expected);
    pairs += nonces.length;
  }

  // Planted target: the lowest hash of a range is the only one at or under a target equal to it.
  const prePowBytes = randomBytes(32);
  const prePow = toHex(prePowBytes);
  const start = randomNonce() & ~0xffffn;
  const count = 3_000;
  let best = { offset: -1, value: 1n << 256n };
  for (let i = 0; i < count; i++) {
    const value = bytesToBigIntBE(powHash(prePowBytes, (start + BigInt(i)) & u64Max));
    if (value < best.value) best = { offset: i, value };
  }
  const expectedNonce = ((start + BigInt(best.offset)) & u64Max).toString();
  const args = [prePow, best.value.toString(), start.toString(), count] as const;
  const wasmWin = await page.evaluate(([p, t, s, c]) => window.weftKernels.wasmSearch(p, t, s, c), args);
  const gpuWin = await page.evaluate(([p, t, s, c]) => window.weftKernels.gpuSearch(p, t, s, c), args);
  expect(wasmWin).toEqual({ nonce: expectedNonce, hashes: best.offset + 1 });
  expect(gpuWin).toEqual({ nonce: expectedNonce, hashes: best.offset + 1 });
  const below = [prePow, (best.value - 1n).toString(), start.toString(), count] as const;
  expect(await page.evaluate(([p, t, s, c]) => window.weftKernels.wasmSearch(p, t, s, c), below)).toEqual({ nonce: null, hashes: count });
  expect(await page.evaluate(([p, t, s, c]) => window.weftKernels.gpuSearch(p, t, s, c), below)).toEqual({ nonce: null, hashes: count });

  const verdict = `${pairs} random (prePow, nonce) pairs agree with pow.ts on both kernels; planted winner found at nonce ${expectedNonce} (offset ${best.offset}) by both`;
  await page.evaluate((text) => window.weftKernels.show('verdict', text), verdict);
  await expect(page.locator('#verdict')).toHaveText(verdict);
  expect(pageErrors).toEqual([]);
  const shot = testInfo.outputPath('kernel-check.png');
  await page.screenshot({ path: shot, fullPage: true });
  await testInfo.attach('kernel-check', { path: shot, contentType: 'image/png' });
});
