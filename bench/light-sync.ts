/**
 * Light sync (issue #8): time for a fresh browser tab (Debian's Chromium, headless) to download and verify one day
 * of headers — 86,400 regtest blocks served by a real `weft node` over the p2p bridge (Noise over WebSocket,
 * headers pages, IndexedDB writes) — against the Node.js import rate of the same headers through the same code
 * (src/light/light-chain.ts, Wasm BLAKE3 on both sides), measured in the same run. Target: browser ≥ 0.5 × Node.
 *
 *   npx tsx bench/light-sync.ts [blocks=86400]
 */
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { chainKeys, storedBlockOrder } from '../src/chain/chain-store.ts';
import { decodeHeader, type BlockHeader } from '../src/codec/header.ts';
import { regtestParams } from '../src/consensus/params.ts';
import { openLightChain } from '../src/light/light-chain.ts';
import { createMemoryHeaderStore } from '../src/light/light-store.ts';
import { systemClock } from '../src/util/clock.ts';
import { installWasmBlake3 } from '../server/crypto/wasm-blake3.ts';
import { openLmdbStore } from '../server/storage/lmdb-store.ts';
import { chromiumArgs } from '../playwright.config.ts';
import { startRegtestNode } from '../e2e/helpers/regtest-node.ts';
import { regtestDatadir } from '../test/helpers/regtest-dag.ts';

const total = Number(process.argv[2] ?? 86_400);

/** The node's stored headers in its topological order (genesis left out), as the light chain takes them. */
function storedHeaders(datadir: string): BlockHeader[] {
  const store = openLmdbStore(join(datadir, 'chain'));
  const out: BlockHeader[] = [];
  let first = true;
  for (const { hash } of storedBlockOrder(store)) {
    if (first) { first = false; continue; }
    out.push(decodeHeader(store.get(chainKeys.header(hash))!));
  }
  void store.close();
  return out;
}

async function nodeImport(headers: readonly BlockHeader[]): Promise<{ seconds: number; count: number }> {
  const store = createMemoryHeaderStore();
  const chain = await openLightChain({ params: regtestParams, store, clock: systemClock });
  const began = performance.now();
  let count = 0;
  for (let i = 0; i < headers.length; i += 2_000) {
    count += chain.addHeaders(headers.slice(i, i + 2_000));
    await chain.flush();
  }
  return { seconds: (performance.now() - began) / 1000, count };
}

async function browserSync(url: string): Promise<{ seconds: number; count: number; backend: string }> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs });
  try {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${url}/`);
    await page.waitForFunction(() => window.weftLight?.status().state === 'synced' || window.weftLight?.status().state === 'rejected', null, { timeout: 600_000, polling: 250 });
    const s = (await page.evaluate(() => window.weftLight!.status()))!;
    if (s.state !== 'synced') throw new Error(`the tab did not sync: ${JSON.stringify(s.error)}`);
    return { seconds: s.syncSeconds, count: s.verified, backend: s.hashBackend };
  } finally {
    await browser.close();
  }
}

const datadir = await regtestDatadir(total);
await installWasmBlake3();
const headers = storedHeaders(datadir);
const node = await startRegtestNode(total);
try {
  const browser = await browserSync(node.url);
  const local = await nodeImport(headers);
  const browserRate = browser.count / browser.seconds;
  const nodeRate = local.count / local.seconds;
  console.log(`headers: ${headers.length} (regtest, ${total} generated blocks)`);
  console.log(`browser tab (Chromium, ${browser.backend}, over the p2p bridge + IndexedDB): ${browser.count} verified in ${browser.seconds.toFixed(2)} s = ${Math.round(browserRate)} headers/s`);
  console.log(`Node.js import (same light-chain code, memory store):            ${local.count} verified in ${local.seconds.toFixed(2)} s = ${Math.round(nodeRate)} headers/s`);
  console.log(`ratio browser/node: ${(browserRate / nodeRate).toFixed(2)} (target ≥ 0.50, i.e. within 2×)`);
} finally {
  await node.stop();
}
