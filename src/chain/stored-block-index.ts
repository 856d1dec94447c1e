/**
 * The full node's block index: an IndexedBlock for any stored block, built on demand from its rows — the header row,
 * the GHOSTDAG engine's selected parent and tree height, the skip row — and kept in a bounded cache. Entries refer
 * to their selected parent and skip ancestor by id, never by object: a cached block must not pin its whole chain in
 * memory. See block-index.ts for the skip pointers.
 */
import { decodeHeader, type BlockHeader } from '../codec/header.ts';
import type { BlockId, GhostdagEngine } from '../consensus/ghostdag.ts';
import { assert } from '../errors.ts';
import type { KvOp, KvStore } from '../storage/kv.ts';
import { createReadCache, type ReadCacheStats } from '../storage/read-cache.ts';
import { fromHex, toHex } from '../util/bytes.ts';
import { skipPointer, type IndexedBlock } from './block-index.ts';
import { chainKeys } from './chain-store.ts';

export interface StoredBlockIndex {
  get(id: BlockId): IndexedBlock | undefined;
  /** The entry of a block the engine just added, and its rows for the block's batch. */
  add(id: BlockId, hash: Uint8Array, header: BlockHeader): { entry: IndexedBlock; ops: KvOp[] };
  /** Drops a block whose rows the pruner deleted (get then answers undefined). */
  forget(id: BlockId): void;
  cacheStats(): ReadCacheStats;
}

export function createStoredBlockIndex(store: KvStore, engine: GhostdagEngine, numberOf: (id: BlockId) => number, capacity: number): StoredBlockIndex {
  const cache = createReadCache<BlockId, IndexedBlock>('block-index', capacity);

  const lookup = (id: BlockId): IndexedBlock | undefined => {
    const cached = cache.get(id);
    if (cached !== undefined) return cached;
    if (!engine.has(id)) return undefined;
    const hash = fromHex(id);
    const headerBytes = store.get(chainKeys.header(hash));
    assert(headerBytes !== undefined, `stored block ${id} has no header row`);
    const skipBytes = store.get(chainKeys.skip(hash));
    const entry = storedBlock(id, hash, decodeHeader(headerBytes), engine.get(id)!.selectedParent, skipBytes ? toHex(skipBytes) : null, engine.height(id), numberOf(id));
    cache.set(id, entry);
    return entry;
  };

  const storedBlock = (id: BlockId, hash: Uint8Array, header: BlockHeader, spId: BlockId | null, skipId: BlockId | null, height: number, seq: number): IndexedBlock => ({
    id,
    hash,
    header,
    height,
    seq,
    get selectedParent() {
      return spId === null ? null : lookup(spId)!;
    },
    get skip() {
      return skipId === null ? null : lookup(skipId)!;
    },
  });

  return {
    get: lookup,
    add(id, hash, header) {
      const spId = engine.get(id)!.selectedParent;
      const sp = spId === null ? null : lookup(spId)!;
      // A trusted block whose selected parent is below a joined chain's trusted set has its height from the engine.
      const height = sp ? sp.height + 1 : engine.height(id);
      const skip = skipPointer(sp, height);
      const entry = storedBlock(id, hash, header, spId, skip?.id ?? null, height, numberOf(id));
      cache.set(id, entry);
      return { entry, ops: skip ? [{ type: 'put', key: chainKeys.skip(hash), value: skip.hash }] : [] };
    },
    forget: (id) => cache.delete(id),
    cacheStats: () => cache.stats(),
  };
}
