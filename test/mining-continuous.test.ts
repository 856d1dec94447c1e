// Continuous mining on the Wasm worker pool (issue 29, "mining that cannot starve"): the threads hash the latest
// template pushed to them, whatever the main thread does. A 2 s busy loop on the main thread stands in for a node
// busy with blocks and RPC; the pool's shared hash counter shows the threads kept hashing through it, and the
// winner they found meanwhile reaches the miner's submit as soon as the main thread is free again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openChain } from '../src/chain/chain.ts';
import { hashMeetsTarget, powHash, prePowHash } from '../src/consensus/pow.ts';
import { regtestParams } from '../src/consensus/params.ts';
import type { Block } from '../src/codec/block.ts';
import type { PowFound } from '../src/mining/job.ts';
import { createMiner } from '../src/mining/miner.ts';
import { buildBlockTemplate } from '../src/mining/template.ts';
import { createMemoryStore } from '../src/storage/memory-store.ts';
import { systemClock } from '../src/util/clock.ts';
import { createWasmPowPool, type WasmPowPool } from '../server/mining/wasm-pool.ts';
import { testMiner } from './helpers/chain-fixtures.ts';

const targetMax = (1n << 256n) - 1n;
const busyMs = 2_000;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function busyLoop(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) { /* the main thread does nothing else */ }
}

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

/** Hashes a second while the main thread sleeps: the yardstick for the busy period (the box is shared). */
async function measureRate(pool: WasmPowPool): Promise<number> {
  const before = pool.hashesDone();
  const began = Date.now();
  await sleep(400);
  return ((pool.hashesDone() - before) * 1000) / (Date.now() - began);
}

describe('continuous mining on the Wasm pool', () => {
  let pool: WasmPowPool;
  beforeAll(async () => {
    pool = await createWasmPowPool({ threads: 1 });
  });
  afterAll(async () => {
    await pool.close();
  });

  it('keeps hashing through a 2 s busy main thread, and a pause stops it', async () => {
    const pow = pool.continuous!;
    pow.setJob({ prePowHash: new Uint8Array(32).fill(7), target: 0n, nonceStart: 0n });
    await until(() => pool.hashesDone() > 0, 5_000, 'the first hashes');
    const rate = await measureRate(pool);
    const before = pool.hashesDone();
    busyLoop(busyMs);
    const during = pool.hashesDone() - before;
    // A batch-driven pool hashes one ~100 ms batch and then waits for the main thread: ≤ 5% of the period.
    expect(during).toBeGreaterThan(0.3 * rate * (busyMs / 1000));
    await expect(pool.search({ prePowHash: new Uint8Array(32), target: targetMax, nonceStart: 0n, nonceCount: 1 })).rejects.toThrow(/continuous/);
    pow.pause();
    await sleep(50);
    const paused = pool.hashesDone();
    await sleep(200);
    expect(pool.hashesDone()).toBe(paused);
    expect((await pool.search({ prePowHash: new Uint8Array(32), target: targetMax, nonceStart: 5n, nonceCount: 10 })).nonce).toBe(5n);
  });

  it('switches to a new job at once and reports winners with the job they belong to', async () => {
    const pow = pool.continuous!;
    const found: PowFound[] = [];
    const off = pow.onFound((f) => found.push(f));
    const hard = pow.setJob({ prePowHash: new Uint8Array(32).fill(1), target: 0n, nonceStart: 0n });
    const prePow = new Uint8Array(32).fill(2);
    const easy = pow.setJob({ prePowHash: prePow, target: targetMax / 1_000n, nonceStart: 1n << 40n });
    await until(() => found.length >= 3, 5_000, 'three winners');
    pow.pause();
    off();
    expect(found.every((f) => f.jobId === easy && f.jobId !== hard)).toBe(true);
    for (const f of found) expect(hashMeetsTarget(powHash(prePow, f.nonce), targetMax / 1_000n)).toBe(true);
  });

  it('lets the miner submit a block its threads found while the main thread was busy, right after', async () => {
    const chain = await openChain({ params: regtestParams, store: createMemoryStore(), clock: systemClock });
    const rate = await (async () => {
      pool.continuous!.setJob({ prePowHash: new Uint8Array(32).fill(9), target: 0n, nonceStart: 0n });
      try {
        return await measureRate(pool);
      } finally {
        pool.continuous!.pause();
      }
    })();
    // About one winner per quarter second of hashing: the 2 s busy period all but surely holds one (1 − e^-8).
    const target = targetMax / BigInt(Math.max(1, Math.round(rate / 4)));
    let armed = false;
    const submitted: { block: Block; atMs: number }[] = [];
    const miner = createMiner({
      chain, backend: pool, clock: systemClock, miner: testMiner, randomNonce: () => 0n, templateRefreshMs: 600_000,
      // Until the busy loop starts, no hash wins; from then on the quarter-second target applies.
      buildTemplate: (request) => ({ ...buildBlockTemplate(chain, request), target: armed ? target : 0n }),
      submit: async (block) => { submitted.push({ block, atMs: Date.now() }); },
    });
    miner.start();
    try {
      await until(() => miner.stats().templatesBuilt === 1, 5_000, 'the first template');
      armed = true;
      miner.invalidate();
      await until(() => miner.stats().templatesBuilt === 2, 5_000, 'the armed template');
      const hashesBefore = pool.hashesDone();
      busyLoop(busyMs);
      const busyEnd = Date.now();
      expect(pool.hashesDone() - hashesBefore).toBeGreaterThan(0.3 * rate * (busyMs / 1000));
      await until(() => submitted.length > 0, 2_000, 'the winner found during the busy loop');
      expect(submitted[0]!.atMs - busyEnd).toBeLessThan(500);
      const { header } = submitted[0]!.block;
      expect(hashMeetsTarget(powHash(prePowHash(header), header.nonce), target)).toBe(true);
    } finally {
      await miner.stop();
    }
    expect(miner.stats().blocksFound).toBeGreaterThanOrEqual(1);
    expect(miner.stats().hashes).toBeGreaterThan(0);
  });
});
