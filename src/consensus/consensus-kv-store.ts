/**
 * The full node's ConsensusStore: GHOSTDAG records, reachability nodes and the interned block numbers are rows of the
 * chain's KvStore (consensus-rows.ts), read through bounded caches (rusty-kaspa's reader-over-database shape). Writes
 * are staged in memory — never evicted — until `drainWrites` hands them to the block's atomic batch; the caller's
 * store view must show a written batch to reads before it is durable (src/chain/pending-store.ts).
 *
 * Opening reads three rows (block count, selected tip, reindex root): nothing is replayed.
 */
import { assert } from '../errors.ts';
import type { KvOp, KvStore } from '../storage/kv.ts';
import { createReadCache, type ReadCache } from '../storage/read-cache.ts';
import { fromHex, toHex } from '../util/bytes.ts';
import {
  consensusKeys,
  decodeGhostdagRecord,
  decodeReachabilityNode,
  encodeGhostdagRecord,
  encodeReachabilityNode,
  readU64be,
  u64be,
} from './consensus-rows.ts';
import type { ConsensusStore, GhostdagRecord, ReachabilityNode } from './consensus-store.ts';
import type { BlockId } from './ghostdag.ts';
import { UnknownBlockError } from './ghostdag-errors.ts';

/** Entries per cache (consensusCacheEntries in src/limits.ts sizes them from the node's cache budget). */
export interface ConsensusCacheSizes {
  readonly ids: number;
  readonly ghostdag: number;
  readonly reachability: number;
}

const blockIdPattern = /^[0-9a-f]{64}$/;

export function openKvConsensusStore(kv: KvStore, sizes: ConsensusCacheSizes): ConsensusStore {
  const readMeta = (key: Uint8Array, absent: number): number => {
    const bytes = kv.get(key);
    return bytes === undefined ? absent : readU64be(bytes);
  };
  let count = readMeta(consensusKeys.blockCount, 0);
  let tip = readMeta(consensusKeys.tip, 0) - 1;
  let reindexRoot = readMeta(consensusKeys.reindexRoot, 0) - 1;
  const ids: ReadCache<number, BlockId> = createReadCache('block-ids', sizes.ids);
  const numbers: ReadCache<BlockId, number> = createReadCache('block-numbers', sizes.ids);
  const records: ReadCache<number, GhostdagRecord> = createReadCache('ghostdag', sizes.ghostdag);
  const nodes: ReadCache<number, ReachabilityNode> = createReadCache('reachability', sizes.reachability);
  // Staged until drained into the block's batch.
  const ops: KvOp[] = [];
  const dirtyNodes = new Map<number, ReachabilityNode>();
  const stagedIds = new Map<number, BlockId>();
  const stagedNumbers = new Map<BlockId, number>();
  const stagedRecords = new Map<number, GhostdagRecord>();
  let metaDirty = false;

  const store: ConsensusStore = {
    size: () => count,
    idOf(block) {
      let id = stagedIds.get(block) ?? ids.get(block);
      if (id !== undefined) return id;
      const hash = block < count ? kv.get(consensusKeys.order(block)) : undefined;
      if (hash === undefined) throw new UnknownBlockError(String(block), 'block number');
      id = toHex(hash);
      ids.set(block, id);
      return id;
    },
    numberOf(id) {
      const cached = stagedNumbers.get(id) ?? numbers.get(id);
      if (cached !== undefined) return cached;
      if (!blockIdPattern.test(id)) return undefined;
      const bytes = kv.get(consensusKeys.number(fromHex(id)));
      if (bytes === undefined) return undefined;
      const block = readU64be(bytes);
      // A row beyond the count belongs to a store written before these tables (replayed at open): not stored yet.
      if (block >= count) return undefined;
      numbers.set(id, block);
      return block;
    },
    push(id, record) {
      const block = count++;
      const hash = fromHex(id);
      stagedIds.set(block, id);
      stagedNumbers.set(id, block);
      stagedRecords.set(block, record);
      ops.push(
        { type: 'put', key: consensusKeys.order(block), value: hash },
        { type: 'put', key: consensusKeys.number(hash), value: u64be(block) },
        { type: 'put', key: consensusKeys.ghostdag(block), value: encodeGhostdagRecord(record) },
      );
      metaDirty = true;
      return block;
    },
    ghostdag(block) {
      let record = stagedRecords.get(block) ?? records.get(block);
      if (record !== undefined) return record;
      const bytes = kv.get(consensusKeys.ghostdag(block));
      assert(bytes !== undefined, `block ${block} has no GHOSTDAG row`);
      record = decodeGhostdagRecord(bytes);
      records.set(block, record);
      return record;
    },
    node(block) {
      const dirty = dirtyNodes.get(block);
      if (dirty !== undefined) return dirty;
      let node = nodes.get(block);
      if (node !== undefined) return node;
      const bytes = kv.get(consensusKeys.node(block));
      assert(bytes !== undefined, `block ${block} has no reachability row`);
      node = decodeReachabilityNode(bytes);
      nodes.set(block, node);
      return node;
    },
    touchNode(block, node) {
      dirtyNodes.set(block, node);
    },
    get tip() {
      return tip;
    },
    set tip(block: number) {
      tip = block;
      metaDirty = true;
    },
    get reindexRoot() {
      return reindexRoot;
    },
    set reindexRoot(block: number) {
      reindexRoot = block;
      metaDirty = true;
    },
    drainWrites() {
      const out = ops.splice(0);
      for (const [block, node] of dirtyNodes) {
        out.push({ type: 'put', key: consensusKeys.node(block), value: encodeReachabilityNode(node) });
        nodes.set(block, node);
      }
      dirtyNodes.clear();
      for (const [block, id] of stagedIds) ids.set(block, id);
      for (const [id, block] of stagedNumbers) numbers.set(id, block);
      for (const [block, record] of stagedRecords) records.set(block, record);
      stagedIds.clear();
      stagedNumbers.clear();
      stagedRecords.clear();
      if (metaDirty) {
        out.push(
          { type: 'put', key: consensusKeys.blockCount, value: u64be(count) },
          { type: 'put', key: consensusKeys.tip, value: u64be(tip + 1) },
          { type: 'put', key: consensusKeys.reindexRoot, value: u64be(reindexRoot + 1) },
        );
        metaDirty = false;
      }
      return out;
    },
    forget(block, id) {
      numbers.delete(id);
      records.delete(block);
      nodes.delete(block);
    },
    cacheStats: () => [ids.stats(), numbers.stats(), records.stats(), nodes.stats()],
  };
  return store;
}
