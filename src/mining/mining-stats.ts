/**
 * get_mining_stats from chain data and live counters (docs/design.md "Mining": never constants). Every block the chain holds
 * is folded into one-minute buckets (count, GPU flag, work, difficulty, who mined it); this node's measured hashes
 * go into the same buckets. A period's figures are sums over its buckets, so any period costs at most 43,200 map
 * reads and no chain walk. Blocks never leave the DAG, so a reorganisation of the selected chain changes nothing
 * here. Result shape: docs/mining.md "get_mining_stats".
 */
import type { IndexedBlock } from '../chain/block-index.ts';
import type { Chain } from '../chain/chain.ts';
import { compactToTarget, difficultyFromTarget } from '../consensus/pow.ts';
import { unitsToCoins } from '../crypto/amount.ts';
import { toHex } from '../util/bytes.ts';
import type { MiningPeriod } from './control.ts';
import { hashRateView, type HashRateView } from './hash-rate.ts';
import { blockWork } from './network-hash-rate.ts';
import {
  miningStatsBackfillBlocksMax, miningStatsBackfillSlackMs, miningStatsBucketMs, miningStatsHorizonMs, miningStatsSeriesPointsMax,
} from './mining-limits.ts';

const miningPeriodMs: Readonly<Record<MiningPeriod, number>> = {
  '1h': 3_600_000,
  '24h': 86_400_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
};

interface Bucket {
  blocks: number;
  gpuBlocks: number;
  work: bigint;
  difficultySum: number;
  difficultyMin: number;
  difficultyMax: number;
  firstMs: number;
  lastMs: number;
  /** miner address hex → [blocks, gpu blocks] */
  readonly byMiner: Map<string, [number, number]>;
  localHashes: number;
  localGpuHashes: number;
  rewardUnits: bigint;
  rewardedBlocks: number;
}

/** Where reward figures come from: the ledger's credited amounts, the emission schedule's subsidy, or nowhere. */
type RewardSourceLabel = 'ledger' | 'emission' | 'unavailable';

interface SummaryContext {
  readonly chain: Chain;
  readonly nowMs: number;
  /**
   * The addresses this node mines to, hex of the 33 bytes → bech32m: "found by this node" means a block mined to
   * one of them (chain data, so it survives restarts as long as the address stays the node's).
   */
  readonly ownMiners: ReadonlyMap<string, string>;
  /** When this node began measuring its own hashes (its local rate is averaged from then at the earliest). */
  readonly measuringSinceMs: number;
  readonly rewardSource: RewardSourceLabel;
}

export interface BlockStatsIndex {
  /** Folds one block in (once per block; the caller guarantees it). `nowMs` caps a future timestamp. */
  addBlock(block: IndexedBlock, nowMs: number): void;
  /** Adds measured hashes done by this node's miners up to `nowMs`. */
  addLocalHashes(nowMs: number, hashes: number, gpu: boolean): void;
  /** Credits a reward paid to this node for a block stamped `timestampMs`. */
  addReward(timestampMs: number, units: bigint): void;
  summarize(period: MiningPeriod, context: SummaryContext): Record<string, unknown>;
  /** Blocks folded in so far (tests, logs). */
  blockCount(): number;
}

const bucketOf = (ms: number): number => Math.floor(ms / miningStatsBucketMs);

export function createBlockStatsIndex(options: { readonly maxTarget: bigint }): BlockStatsIndex {
  const { maxTarget } = options;
  const buckets = new Map<number, Bucket>();
  let blockCount = 0;
  let newestBucket = 0;

  const bucketAt = (ms: number): Bucket => {
    const index = bucketOf(ms);
    let bucket = buckets.get(index);
    if (bucket === undefined) {
      bucket = {
        blocks: 0, gpuBlocks: 0, work: 0n, difficultySum: 0, difficultyMin: Infinity, difficultyMax: 0,
        firstMs: Infinity, lastMs: -Infinity, byMiner: new Map(), localHashes: 0, localGpuHashes: 0, rewardUnits: 0n, rewardedBlocks: 0,
      };
      buckets.set(index, bucket);
      if (index > newestBucket) prune(index);
    }
    return bucket;
  };
  const prune = (newest: number): void => {
    newestBucket = newest;
    const oldest = newest - miningStatsHorizonMs / miningStatsBucketMs;
    for (const index of buckets.keys()) if (index < oldest) buckets.delete(index);
  };

  return {
    addBlock(block, nowMs) {
      const h = block.header;
      const atMs = Math.min(h.timestampMs, nowMs);
      if (atMs < nowMs - miningStatsHorizonMs) return;
      const bucket = bucketAt(atMs);
      const difficulty = difficultyFromTarget(compactToTarget(h.bits), maxTarget);
      bucket.blocks++;
      if (h.gpuMining) bucket.gpuBlocks++;
      bucket.work += blockWork(block);
      bucket.difficultySum += difficulty;
      bucket.difficultyMin = Math.min(bucket.difficultyMin, difficulty);
      bucket.difficultyMax = Math.max(bucket.difficultyMax, difficulty);
      bucket.firstMs = Math.min(bucket.firstMs, atMs);
      bucket.lastMs = Math.max(bucket.lastMs, atMs);
      const miner = toHex(h.miner);
      const counts = bucket.byMiner.get(miner) ?? [0, 0];
      counts[0]++;
      if (h.gpuMining) counts[1]++;
      bucket.byMiner.set(miner, counts);
      blockCount++;
    },
    addLocalHashes(nowMs, hashes, gpu) {
      if (hashes <= 0) return;
      const bucket = bucketAt(nowMs);
      bucket.localHashes += hashes;
      if (gpu) bucket.localGpuHashes += hashes;
    },
    addReward(timestampMs, units) {
      const bucket = bucketAt(timestampMs);
      bucket.rewardUnits += units;
      bucket.rewardedBlocks++;
    },
    summarize: (period, context) => summarize(buckets, period, context),
    blockCount: () => blockCount,
  };
}

interface Totals {
  blocks: number;
  gpuBlocks: number;
  found: number;
  foundGpu: number;
  work: bigint;
  difficultySum: number;
  difficultyMin: number;
  difficultyMax: number;
  firstMs: number;
  lastMs: number;
  localHashes: number;
  localGpuHashes: number;
  rewardUnits: bigint;
  rewardedBlocks: number;
  miners: Set<string>;
}

function emptyTotals(): Totals {
  return {
    blocks: 0, gpuBlocks: 0, found: 0, foundGpu: 0, work: 0n, difficultySum: 0, difficultyMin: Infinity, difficultyMax: 0,
    firstMs: Infinity, lastMs: -Infinity, localHashes: 0, localGpuHashes: 0, rewardUnits: 0n, rewardedBlocks: 0, miners: new Set(),
  };
}

function addBucket(t: Totals, b: Bucket, ownMiners: ReadonlyMap<string, string>): void {
  t.blocks += b.blocks;
  t.gpuBlocks += b.gpuBlocks;
  t.work += b.work;
  t.difficultySum += b.difficultySum;
  t.difficultyMin = Math.min(t.difficultyMin, b.difficultyMin);
  t.difficultyMax = Math.max(t.difficultyMax, b.difficultyMax);
  t.firstMs = Math.min(t.firstMs, b.firstMs);
  t.lastMs = Math.max(t.lastMs, b.lastMs);
  t.localHashes += b.localHashes;
  t.localGpuHashes += b.localGpuHashes;
  t.rewardUnits += b.rewardUnits;
  t.rewardedBlocks += b.rewardedBlocks;
  for (const [miner, [blocks, gpu]] of b.byMiner) {
    t.miners.add(miner);
    if (ownMiners.has(miner)) {
      t.found += blocks;
      t.foundGpu += gpu;
    }
  }
}

/** Network rate estimated from the work of the blocks in a span and the time they cover. */
function networkRate(t: Totals, spanMs: number): number {
  if (t.blocks === 0 || spanMs <= 0) return 0;
  return Number((t.work * 1000n) / BigInt(Math.max(1, Math.round(spanMs))));
}

function summarize(buckets: Map<number, Bucket>, period: MiningPeriod, ctx: SummaryContext): Record<string, unknown> {
  const periodMs = miningPeriodMs[period];
  const periodBuckets = periodMs / miningStatsBucketMs;
  const toBucket = bucketOf(ctx.nowMs);
  const fromBucket = toBucket - periodBuckets + 1;
  const perPoint = periodBuckets / miningStatsSeriesPointsMax;
  const pointMs = perPoint * miningStatsBucketMs;
  const total = emptyTotals();
  const series: Record<string, unknown>[] = [];
  for (let p = 0; p < miningStatsSeriesPointsMax; p++) {
    const point = emptyTotals();
    for (let i = fromBucket + p * perPoint; i < fromBucket + (p + 1) * perPoint; i++) {
      const bucket = buckets.get(i);
      if (bucket === undefined) continue;
      addBucket(point, bucket, ctx.ownMiners);
      addBucket(total, bucket, ctx.ownMiners);
    }
    // A point's rates divide by the time it covers so far: the newest point is still filling, and dividing its few
    // seconds of work by a whole point made the chart's latest value a fraction of the tile beside it (issue 32).
    const startMs = (fromBucket + p * perPoint) * miningStatsBucketMs;
    const coveredMs = Math.max(1, Math.min(pointMs, ctx.nowMs - startMs));
    const measuredPointMs = Math.max(1, Math.min(pointMs, ctx.nowMs - Math.max(startMs, ctx.measuringSinceMs)));
    series.push({
      timestamp: Math.floor(startMs / 1000),
      blocks: point.blocks,
      gpu_blocks: point.gpuBlocks,
      found: point.found,
      network_hashes_per_second: networkRate(point, coveredMs),
      local_hashes_per_second: Math.round((point.localHashes * 1000) / measuredPointMs),
    });
  }
  const fromMs = fromBucket * miningStatsBucketMs;
  const measuredMs = Math.max(1, ctx.nowMs - Math.max(fromMs, ctx.measuringSinceMs));
  const spanMs = total.blocks >= 2 ? total.lastMs - total.firstMs : 0;
  const tipBits = ctx.chain.childRules(ctx.chain.selectedTip()).bits;
  const local = (hashes: number): HashRateView => hashRateView({ hashesPerSecond: (hashes * 1000) / measuredMs, source: 'measured' }, measuredMs);
  return {
    period,
    from: Math.floor(fromMs / 1000),
    to: Math.floor(ctx.nowMs / 1000),
    blocks: { total: total.blocks, gpu: total.gpuBlocks, cpu: total.blocks - total.gpuBlocks },
    blocks_found: { total: total.found, gpu: total.foundGpu, cpu: total.found - total.foundGpu },
    gpu_mining_ratio: total.blocks === 0 ? 0 : total.gpuBlocks / total.blocks,
    active_miners: total.miners.size,
    average_block_time_seconds: total.blocks >= 2 ? spanMs / 1000 / (total.blocks - 1) : null,
    difficulty: {
      current: difficultyFromTarget(compactToTarget(tipBits), ctx.chain.params.maxTarget),
      average: total.blocks === 0 ? null : Math.round(total.difficultySum / total.blocks),
      min: total.blocks === 0 ? null : total.difficultyMin,
      max: total.blocks === 0 ? null : total.difficultyMax,
    },
    network_hash_rate: hashRateView({ hashesPerSecond: networkRate(total, spanMs), source: 'estimated' }, spanMs),
    local_hash_rate: local(total.localHashes),
    hash_rate_split: { gpu: local(total.localGpuHashes), cpu: local(total.localHashes - total.localGpuHashes) },
    rewards: {
      total: ctx.rewardSource === 'unavailable' ? null : unitsToCoins(total.rewardUnits),
      blocks: total.rewardedBlocks,
      source: ctx.rewardSource,
    },
    miner_addresses: [...ctx.ownMiners.values()],
    hash_rate_series: series,
  };
}

/**
 * Folds in the blocks a node already holds when its statistics start: the selected chain from the tip down to the
 * horizon (less a slack, since a merged block may be stamped a little before its merger), each chain block with
 * the rest of its mergeset, then the blocks only the virtual would merge. Every block is in exactly one chain
 * block's mergeset, so no visited set is needed. Returns the blocks read.
 */
export function backfillBlockStats(chain: Chain, index: BlockStatsIndex, nowMs: number): number {
  const stopBeforeMs = nowMs - miningStatsHorizonMs - miningStatsBackfillSlackMs;
  let read = 0;
  const fold = (id: string): void => {
    const block = chain.get(id);
    if (block === undefined || read >= miningStatsBackfillBlocksMax) return;
    index.addBlock(block, nowMs);
    read++;
  };
  const foldMergeset = (blues: readonly string[], reds: readonly string[]): void => {
    for (const id of blues.slice(1)) fold(id); // blues[0] is the selected parent: a chain block, folded in its turn
    for (const id of reds) fold(id);
  };
  const tip = chain.selectedTip();
  for (let walk: IndexedBlock | null = tip; walk !== null && read < miningStatsBackfillBlocksMax; walk = walk.selectedParent) {
    if (walk.header.timestampMs < stopBeforeMs || walk.selectedParent === null) break; // genesis is not mined
    fold(walk.id);
    const data = chain.ghostdag(walk.id);
    foldMergeset(data.mergesetBlues, data.mergesetReds);
  }
  const others = chain.tips().filter((t) => t.id !== tip.id);
  if (others.length > 0) {
    try {
      const virtual = chain.engine.computeBlock(chain.engine.virtualParents(chain.tips().map((t) => t.id), chain.params.maxParents), 1n);
      foldMergeset(virtual.mergesetBlues, virtual.mergesetReds);
    } catch {
      for (const t of others) fold(t.id); // a mergeset past its limit: the tips at least
    }
  }
  return read;
}
