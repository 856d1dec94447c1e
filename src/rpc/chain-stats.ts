/**
 * Network figures derived from chain data (docs/design.md "State, accounts and energy" and "Mining": never constants): difficulty, an estimated network hash
 * rate (blue work gained over the window's time span, as Kaspa estimates it from its DAA window), the average block
 * interval, the GPU share of that work (from each block's `gpu_mining` flag), the share of transactions that paid
 * their fee with energy, and the distinct miners. Computed over the last statsWindowBlocks selected-chain blocks,
 * once per selected tip; per-block summaries are cached so each new block costs one block read.
 */
import { decodeTransaction } from '../kinds/transaction-codec.ts';
import { kindOf } from '../kinds/registry.ts';
import type { IndexedBlock } from '../chain/block-index.ts';
import type { BlockId } from '../consensus/ghostdag.ts';
import { compactToTarget, workFromTarget } from '../consensus/pow.ts';
import { statsWindowBlocks } from '../limits.ts';
import { toHex } from '../util/bytes.ts';
import type { ChainView } from './ports.ts';
import { blockDifficulty } from './views.ts';

export interface NetworkStats {
  readonly tip: IndexedBlock;
  readonly height: number;
  readonly difficulty: number;
  /** Estimated network hashes per second over the window; 0 with fewer than two blocks. */
  readonly hashesPerSecond: number;
  readonly cpuHashesPerSecond: number;
  readonly gpuHashesPerSecond: number;
  /** GPU-found share of the window's work, 0..1. */
  readonly gpuRatio: number;
  /** Share of the window's transactions whose fee energy paid, 0..1 (0 when there were none). */
  readonly energyRatio: number;
  readonly blockTimeAvgSeconds: number;
  readonly windowBlocks: number;
  readonly windowTransactions: number;
  readonly activeMiners: number;
  /** Distinct senders, recipients and miners in the window of chain blocks. */
  readonly windowAddresses: number;
}

interface BlockSummary {
  readonly work: bigint;
  readonly gpu: boolean;
  readonly miner: string;
  readonly txs: number;
  readonly energyTxs: number;
  readonly addresses: readonly string[];
}

interface StatsTracker {
  current(): NetworkStats;
}

function createStatsTracker(chain: ChainView): StatsTracker {
  const summaries = new Map<BlockId, BlockSummary>();
  let cached: NetworkStats | undefined;

  const summarise = (entry: IndexedBlock): BlockSummary => {
    const hit = summaries.get(entry.id);
    if (hit) return hit;
    const block = chain.getBlock(entry.id);
    const addresses = new Set<string>();
    let energyTxs = 0;
    for (const bytes of block?.transactions ?? []) {
      const tx = decodeTransaction(bytes);
      const kind = kindOf(tx);
      if (kind.spend(tx).useEnergy) energyTxs++;
      for (const party of kind.parties(tx)) addresses.add(toHex(party.address));
    }
    const summary: BlockSummary = {
      work: workFromTarget(compactToTarget(entry.header.bits)),
      gpu: entry.header.gpuMining,
      miner: toHex(entry.header.miner),
      txs: block?.transactions.length ?? 0,
      energyTxs,
      addresses: [...addresses],
    };
    summaries.set(entry.id, summary);
    // Bounded: the window plus slack for reorganisations; Map keeps insertion order, so the oldest go first.
    while (summaries.size > statsWindowBlocks * 2) summaries.delete(summaries.keys().next().value!);
    return summary;
  };

  const compute = (tip: IndexedBlock): NetworkStats => {
    let first = tip;
    let totalWork = 0n;
    let gpuWork = 0n;
    let txs = 0;
    let energyTxs = 0;
    const miners = new Set<string>();
    const addresses = new Set<string>();
    let blocks = 0;
    // Genesis is left out: it mines nothing, and its fixed timestamp may lie months before the first real block.
    for (let walk: IndexedBlock | null = tip; walk && walk.selectedParent !== null && blocks < statsWindowBlocks; walk = walk.selectedParent) {
      first = walk;
      blocks++;
      const s = summarise(walk);
      totalWork += s.work;
      if (s.gpu) gpuWork += s.work;
      txs += s.txs;
      energyTxs += s.energyTxs;
      miners.add(s.miner);
      addresses.add(s.miner);
      for (const a of s.addresses) addresses.add(a);
    }
    const spanMs = tip.header.timestampMs - first.header.timestampMs;
    const workGained = tip.header.blueWork - first.header.blueWork;
    const hashesPerSecond = spanMs > 0 ? Number((workGained * 1000n) / BigInt(spanMs)) : 0;
    const gpuRatio = totalWork > 0n ? Number((gpuWork * 1_000_000n) / totalWork) / 1_000_000 : 0;
    const blocksInSpan = tip.header.daaScore - first.header.daaScore;
    return {
      tip,
      height: tip.height,
      difficulty: blockDifficulty(chain, tip),
      hashesPerSecond,
      gpuHashesPerSecond: hashesPerSecond * gpuRatio,
      cpuHashesPerSecond: hashesPerSecond * (1 - gpuRatio),
      gpuRatio,
      energyRatio: txs > 0 ? energyTxs / txs : 0,
      blockTimeAvgSeconds: blocksInSpan > 0 ? spanMs / 1000 / blocksInSpan : 0,
      windowBlocks: blocks,
      windowTransactions: txs,
      activeMiners: miners.size,
      windowAddresses: addresses.size,
    };
  };

  return {
    current() {
      const tip = chain.selectedTip();
      if (cached === undefined || cached.tip.id !== tip.id) cached = compute(tip);
      return cached;
    },
  };
}

const trackers = new WeakMap<ChainView, StatsTracker>();

/** The shared tracker of a chain (one per chain object, so every transport reads the same cached figures). */
export function networkStats(chain: ChainView): NetworkStats {
  let tracker = trackers.get(chain);
  if (tracker === undefined) {
    tracker = createStatsTracker(chain);
    trackers.set(chain, tracker);
  }
  return tracker.current();
}

const rateUnits = ['H/s', 'kH/s', 'MH/s', 'GH/s', 'TH/s', 'PH/s', 'EH/s'];

/** A human-readable rate with its unit, as the seed's `hash_rate` string: 1234567 → "1.23 MH/s". */
export function formatHashRate(hashesPerSecond: number): string {
  let value = Math.max(0, hashesPerSecond);
  let unit = 0;
  while (value >= 1000 && unit < rateUnits.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${unit === 0 ? Math.round(value) : value.toFixed(2)} ${rateUnits[unit]}`;
}
