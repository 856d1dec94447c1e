/**
 * Splits the node's cache budget (`--cache-mb`, src/limits.ts) between the chain's per-block caches, in entries. The
 * bytes per entry are estimates of the decoded objects on V8 (measured with process.memoryUsage() over 100,000 cached
 * regtest entries; see docs/storage.md "Caches"), so the budget bounds memory to within the estimate's error.
 */
import { cacheMbDefault } from '../limits.ts';

/** Estimated heap bytes per cached entry, and each cache's share of the budget. */
const cacheShapes = {
  ids: { bytes: 200, share: 0.1 },
  ghostdag: { bytes: 500, share: 0.25 },
  reachability: { bytes: 400, share: 0.25 },
  blocks: { bytes: 1_500, share: 0.35 },
  chain: { bytes: 200, share: 0.05 },
} as const;

export interface CacheEntries {
  readonly ids: number;
  readonly ghostdag: number;
  readonly reachability: number;
  readonly blocks: number;
  readonly chain: number;
}

export function consensusCacheEntries(cacheMb: number = cacheMbDefault): CacheEntries {
  const bytes = cacheMb * 2 ** 20;
  const entries = (shape: { bytes: number; share: number }) => Math.max(64, Math.floor((bytes * shape.share) / shape.bytes));
  return {
    ids: entries(cacheShapes.ids),
    ghostdag: entries(cacheShapes.ghostdag),
    reachability: entries(cacheShapes.reachability),
    blocks: entries(cacheShapes.blocks),
    chain: entries(cacheShapes.chain),
  };
}
