/**
 * The virtual selected chain by height (`C` rows, chain-store.ts), read through a bounded cache. A move's changes are
 * staged — never evicted — until the caller has handed the move's rows to the store (`flushed`), so a reorganisation
 * longer than the cache still reads its own writes.
 */
import type { BlockId } from '../consensus/ghostdag.ts';
import type { KvOp, KvStore } from '../storage/kv.ts';
import { createReadCache, type ReadCacheStats } from '../storage/read-cache.ts';
import { toHex } from '../util/bytes.ts';
import type { IndexedBlock } from './block-index.ts';
import { chainIndexDel, chainIndexPut, chainKeys, storedChainAt } from './chain-store.ts';

interface ChainMove {
  readonly ops: KvOp[];
  /** Blocks that left the chain, highest first. */
  readonly removed: IndexedBlock[];
  /** Blocks that joined it, ascending (the new tip last). */
  readonly added: IndexedBlock[];
}

export interface SelectedChainIndex {
  at(height: number): BlockId | undefined;
  /** Blocks on the chain (the selected tip's height + 1); 0 before genesis. */
  length(): number;
  moveTo(tip: IndexedBlock): ChainMove;
  /** The moves so far are in the store view now: reads may go there. */
  flushed(): void;
  stats(): ReadCacheStats;
}

export function createSelectedChainIndex(store: KvStore, lookup: (id: BlockId) => IndexedBlock | undefined, length: number, capacity: number): SelectedChainIndex {
  const cache = createReadCache<number, BlockId>('selected-chain', capacity);
  const staged = new Map<number, BlockId | null>();
  let chainLength = length;

  const at = (height: number): BlockId | undefined => {
    const pending = staged.get(height);
    if (pending !== undefined) return pending ?? undefined;
    let id = cache.get(height);
    if (id !== undefined) return id;
    const hash = storedChainAt(store, height);
    if (hash === undefined) return undefined;
    id = toHex(hash);
    cache.set(height, id);
    return id;
  };

  return {
    at,
    length: () => chainLength,
    moveTo(tip) {
      const ops: KvOp[] = [];
      const removed: IndexedBlock[] = [];
      const added: IndexedBlock[] = [];
      const oldLength = chainLength;
      for (let h = oldLength - 1; h > tip.height; h--) {
        removed.push(lookup(at(h)!)!);
        ops.push(chainIndexDel(h));
        staged.set(h, null);
      }
      for (let walk: IndexedBlock | null = tip; walk && (walk.height >= oldLength || at(walk.height) !== walk.id); walk = walk.selectedParent) {
        const old = walk.height < oldLength ? at(walk.height) : undefined;
        if (old !== undefined) removed.push(lookup(old)!);
        staged.set(walk.height, walk.id);
        added.push(walk);
        ops.push(chainIndexPut(walk.height, walk.hash));
      }
      ops.push({ type: 'put', key: chainKeys.selectedTip, value: tip.hash });
      chainLength = tip.height + 1;
      removed.sort((a, b) => b.height - a.height);
      added.reverse();
      return { ops, removed, added };
    },
    flushed() {
      for (const [height, id] of staged) {
        if (id === null) cache.delete(height);
        else cache.set(height, id);
      }
      staged.clear();
    },
    stats: () => cache.stats(),
  };
}
