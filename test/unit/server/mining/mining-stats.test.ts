// Mining figures and plumbing without worker threads: labelled hash rates (measured meter, network estimate from
// chain work), the statistics' buckets, template refresh on notifyTemplateInputsChanged and on DAG changes, and
// mining_reward events through a reward reader — all over a real in-memory regtest chain and the JS reference backend.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { openChain, type Chain } from '../../../../src/chain/chain.ts';
import { compactToTarget, workFromTarget } from '../../../../src/consensus/pow.ts';
import { regtestParams } from '../../../../src/consensus/params.ts';
import { encodeAddress } from '../../../../src/crypto/address.ts';
import type { MiningEvent } from '../../../../src/mining/control.ts';
import { createHashRateMeter, formatHashRate } from '../../../../src/mining/hash-rate.ts';
import { estimateNetworkHashRate } from '../../../../src/mining/network-hash-rate.ts';
import { createMiner } from '../../../../src/mining/miner.ts';
import { createBlockStatsIndex } from '../../../../src/mining/mining-stats.ts';
import { miningStatsHorizonMs } from '../../../../src/mining/mining-limits.ts';
import { createReferencePowBackend } from '../../../../src/mining/reference-backend.ts';
import { buildBlockTemplate } from '../../../../src/mining/template.ts';
import { createMemoryStore } from '../../../../src/storage/memory-store.ts';
import { systemClock } from '../../../../src/util/clock.ts';
import { createLogger } from '../../../../server/logger.ts';
import { createMiningControl } from '../../../../server/mining/mining-control.ts';
import { makeBlock, testMiner } from '../../../helpers/chain-fixtures.ts';

let chain: Chain;
const datadir = mkdtempSync(join(tmpdir(), 'weft-mining-stats-'));

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

beforeEach(async () => {
  chain = await openChain({ params: regtestParams, store: createMemoryStore(), clock: systemClock });
});

afterAll(() => rmSync(datadir, { recursive: true, force: true }));

describe('hash-rate figures', () => {
  it('formats a rate with its unit', () => {
    expect(formatHashRate(0)).toBe('0 H/s');
    expect(formatHashRate(999)).toBe('999 H/s');
    expect(formatHashRate(12_345_678)).toBe('12.35 MH/s');
    expect(formatHashRate(3.2e12)).toBe('3.20 TH/s');
  });

  it('measures a trailing-window mean from cumulative counters', () => {
    const meter = createHashRateMeter(10_000);
    expect(meter.rate()).toEqual({ hashesPerSecond: 0, source: 'measured' });
    for (let s = 0; s <= 30; s++) meter.observe(s * 1000, s < 20 ? s * 1_000 : 19_000 + (s - 19) * 5_000);
    // The last 10 s ran at 5,000 H/s; the first 20 s at 1,000 H/s no longer count.
    expect(meter.rate()).toEqual({ hashesPerSecond: 5_000, source: 'measured' });
    expect(meter.totalHashes()).toBe(19_000 + 11 * 5_000);
  });

  it('estimates the network rate from the work and time span of the selected chain', async () => {
    const t0 = Date.now() - 60_000;
    for (let i = 0; i < 8; i++) await chain.addBlock(makeBlock(chain, { timestampMs: t0 + i * 1_000 }));
    const estimate = estimateNetworkHashRate(chain, 5);
    const tip = chain.selectedTip();
    let work = 0n;
    for (let h = tip.height - 4; h <= tip.height; h++) work += workFromTarget(compactToTarget(chain.blockAtHeight(h)!.header.bits));
    expect(estimate).toEqual({ hashesPerSecond: Number((work * 1000n) / 5_000n), source: 'estimated', windowMs: 5_000 });
  });
});

describe('statistics buckets', () => {
  it('counts blocks per period by their timestamps, splits GPU/CPU and this node\'s, and drops what ages out', async () => {
    const now = Date.now();
    const index = createBlockStatsIndex({ maxTarget: regtestParams.maxTarget });
    const stamps = [now - 2 * 3_600_000, now - 30 * 60_000, now - 5 * 60_000, now - 1_000];
    for (const ts of stamps) {
      const block = makeBlock(chain, { timestampMs: ts, mutate: (h) => ({ ...h, gpuMining: ts > now - 10 * 60_000 }) });
      await chain.addBlock(block);
    }
    for (let b = chain.selectedTip(); b.selectedParent !== null; b = b.selectedParent) index.addBlock(b, now);
    index.addBlock({ ...chain.selectedTip(), header: { ...chain.selectedTip().header, timestampMs: now - miningStatsHorizonMs - 1 } }, now);
    const own = new Map([[Buffer.from(testMiner).toString('hex'), encodeAddress('rweft', testMiner)]]);
    const context = { chain, nowMs: now, ownMiners: own, measuringSinceMs: now - 3_600_000, rewardSource: 'unavailable' as const };
    const hour = index.summarize('1h', context);
    expect(hour.blocks).toEqual({ total: 3, gpu: 2, cpu: 1 });
    expect(hour.blocks_found).toEqual({ total: 3, gpu: 2, cpu: 1 });
    expect(hour.gpu_mining_ratio).toBeCloseTo(2 / 3);
    expect(hour.average_block_time_seconds).toBeCloseTo((30 * 60_000 - 1_000) / 1000 / 2, 0);
    const day = index.summarize('24h', { ...context, ownMiners: new Map() });
    expect(day.blocks).toEqual({ total: 4, gpu: 2, cpu: 2 });
    expect(day.blocks_found).toEqual({ total: 0, gpu: 0, cpu: 0 });
    expect(day.active_miners).toBe(1);
    expect(index.blockCount()).toBe(4); // the one stamped past the 30-day horizon was not kept
    const series = day.hash_rate_series as { blocks: number }[];
    expect(series).toHaveLength(60);
    expect(series.at(-1)!.blocks).toBe(2); // the last 24 minutes: the two newest
    expect(series.reduce((n, p) => n + p.blocks, 0)).toBe(4);
  });
});

describe('the hash-rate series', () => {
  it("rates its newest, still-filling point by the time it covers, so it agrees with the full points before it", async () => {
    // One block a second for 90 s; "now" is 10.5 s into a minute, so the newest point holds about 10 s of blocks.
    const now = Math.floor((Date.now() - 120_000) / 60_000) * 60_000 + 10_500;
    const index = createBlockStatsIndex({ maxTarget: regtestParams.maxTarget });
    for (let k = 89; k >= 0; k--) await chain.addBlock(makeBlock(chain, { timestampMs: now - k * 1_000 }));
    for (let b = chain.selectedTip(); b.selectedParent !== null; b = b.selectedParent) index.addBlock(b, now);
    const context = { chain, nowMs: now, ownMiners: new Map<string, string>(), measuringSinceMs: now - 3_600_000, rewardSource: 'unavailable' as const };
    const series = index.summarize('1h', context).hash_rate_series as { blocks: number; network_hashes_per_second: number }[];
    const full = series.at(-2)!;
    const newest = series.at(-1)!;
    expect(full.blocks).toBe(60);
    expect(newest.blocks).toBe(11);
    const perSecond = full.network_hashes_per_second;
    // 11 blocks in 10.5 s against 60 in 60 s: within a block's worth, never a sixth of it.
    expect(newest.network_hashes_per_second / perSecond).toBeGreaterThan(0.9);
    expect(newest.network_hashes_per_second / perSecond).toBeLessThan(1.15);
  });
});

describe('template refresh', () => {
  it('drops the current template when the template inputs change and when the DAG tips move', async () => {
    let built = 0;
    const miner = createMiner({
      chain, backend: createReferencePowBackend(), clock: systemClock, miner: testMiner, submit: async () => undefined,
      randomNonce: () => 0n, templateRefreshMs: 600_000, batchMs: 5, mempoolRefreshMs: 400,
      // A target no hash meets, so only a refresh ends a template.
      // The miner's own build time (request.nowMs): a clock read in here lags it by however long the call took to come.
      buildTemplate: (request) => { built++; builtAt.push(request.nowMs); return { ...buildBlockTemplate(chain, request), target: 0n }; },
    });
    const builtAt: number[] = [];
    miner.start();
    try {
      await until(() => built === 1 && miner.stats().hashes > 0, 5_000, 'the first template');
      miner.invalidate();
      // A mempool change alone rebuilds once the template is mempoolRefreshMs old, not at the next batch (5 ms).
      await until(() => built === 2, 5_000, 'a rebuild after invalidate()');
      expect(builtAt[1]! - builtAt[0]!).toBeGreaterThanOrEqual(400);
      await chain.addBlock(makeBlock(chain, { timestampMs: Date.now() }));
      await until(() => built === 3, 5_000, 'a rebuild after the tips moved');
      expect(miner.stats()).toMatchObject({ templatesBuilt: 3, templatesDropped: 2, templateBuiltAtMs: expect.any(Number) });
    } finally {
      await miner.stop();
    }
    expect(miner.stats().templateBuiltAtMs).toBeNull();
  });
});

describe('mining_reward events', () => {
  it('come from the reward reader once it knows the reward, and add up in the statistics', async () => {
    const address = encodeAddress('rweft', testMiner);
    // Like the ledger: a block's reward is known once a later chain block exists (its merger pays it).
    const paid = (height: number): bigint => BigInt(height) * 1_000_000n;
    const control = createMiningControl({
      chain, config: { params: regtestParams, datadir, minerAddress: address }, logger: createLogger('silent'),
      openCpuBackend: async () => createReferencePowBackend(),
      rewards: { source: 'ledger', rewardOf: (block) => (chain.selectedTip().height > block.height ? paid(block.height) : undefined) },
    });
    const events: MiningEvent[] = [];
    control.onEvent((e) => events.push(e));
    await control.start({ threads: 1, gpuMining: false, gpuDevices: [] });
    await until(() => events.filter((e) => e.type === 'mining_reward').length >= 3, 20_000, 'three rewards');
    await control.close();
    const rewards = events.filter((e): e is Extract<MiningEvent, { type: 'mining_reward' }> => e.type === 'mining_reward');
    for (const r of rewards) {
      const block = chain.get(r.block_hash.slice(2))!;
      expect(r.reward_amount).toBe(Number(paid(block.height)) / 1e8);
      expect(r.miner).toBe(address);
      const foundAt = events.findIndex((e) => e.type === 'block_found' && e.block_hash === r.block_hash);
      expect(foundAt).toBeGreaterThanOrEqual(0);
      expect(foundAt).toBeLessThan(events.indexOf(r));
    }
    const stats = control.stats('1h');
    const total = rewards.reduce((sum, r) => sum + r.reward_amount, 0);
    expect(stats.rewards).toEqual({ total: expect.closeTo(total, 8), blocks: rewards.length, source: 'ledger' });
  });
});
