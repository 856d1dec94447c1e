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

/** The store's state: the kv it reads, its counters, the read caches and what is staged for the next batch. */
interface KvConsensusState {
  readonly kv: KvStore;
  count: number;
  tip: number;
  reindexRoot: number;
  readonly ids: ReadCache<number, BlockId>;
  readonly numbers: ReadCache<BlockId, number>;
  readonly records: ReadCache<number, GhostdagRecord>;
  readonly nodes: ReadCache<number, ReachabilityNode>;
  // Staged until drained into the block's batch.
  readonly ops: KvOp[];
  readonly dirtyNodes: Map<number, ReachabilityNode>;
  readonly stagedIds: Map<number, BlockId>;
  readonly stagedNumbers: Map<BlockId, number>;
  readonly stagedRecords: Map<number, GhostdagRecord>;
  metaDirty: boolean;
}

function openState(kv: KvStore, sizes: ConsensusCacheSizes): KvConsensusState {
  const readMeta = (key: Uint8Array, absent: number): number => {
    const bytes = kv.get(key);
    return bytes === undefined ? absent : readU64be(bytes);
  };
  return {
    kv,
    count: readMeta(consensusKeys.blockCount, 0),
    tip: readMeta(consensusKeys.tip, 0) - 1,
    reindexRoot: readMeta(consensusKeys.reindexRoot, 0) - 1,
    ids: createReadCache('block-ids', sizes.ids),
    numbers: createReadCache('block-numbers', sizes.ids),
    records: createReadCache('ghostdag', sizes.ghostdag),
    nodes: createReadCache('reachability', sizes.reachability),
    ops: [],
    dirtyNodes: new Map(),
    stagedIds: new Map(),
    stagedNumbers: new Map(),
    stagedRecords: new Map(),
    metaDirty: false,
  };
}

function idOf(st: KvConsensusState, block: number): BlockId {
  let id = st.stagedIds.get(block) ?? st.ids.get(block);
  if (id !== undefined) return id;
  const hash = block < st.count ? st.kv.get(consensusKeys.order(block)) : undefined;
  if (hash === undefined) throw new UnknownBlockError(String(block), 'block number');
  id = toHex(hash);
  st.ids.set(block, id);
  return id;
}

function numberOf(st: KvConsensusState, id: BlockId): number | undefined {
  const cached = st.stagedNumbers.get(id) ?? st.numbers.get(id);
  if (cached !== undefined) return cached;
  if (!blockIdPattern.test(id)) return undefined;
  const bytes = st.kv.get(consensusKeys.number(fromHex(id)));
  if (bytes === undefined) return undefined;
  const block = readU64be(bytes);
  // A row beyond the count belongs to a store written before these tables (replayed at open): not stored yet.
  if (block >= st.count) return undefined;
  st.numbers.set(id, block);
  return block;
}

function pushBlock(st: KvConsensusState, id: BlockId, record: GhostdagRecord): number {
  const block = st.count++;
  const hash = fromHex(id);
  st.stagedIds.set(block, id);
  st.stagedNumbers.set(id, block);
  st.stagedRecords.set(block, record);
  st.ops.push(
    { type: 'put', key: consensusKeys.order(block), value: hash },
    { type: 'put', key: consensusKeys.number(hash), value: u64be(block) },
    { type: 'put', key: consensusKeys.ghostdag(block), value: encodeGhostdagRecord(record) },
  );
  st.metaDirty = true;
  return block;
}

function ghostdagOf(st: KvConsensusState, block: number): GhostdagRecord {
  let record = st.stagedRecords.get(block) ?? st.records.get(block);
  if (record !== undefined) return record;
  const bytes = st.kv.get(consensusKeys.ghostdag(block));
  assert(bytes !== undefined, `block ${block} has no GHOSTDAG row`);
  record = decodeGhostdagRecord(bytes);
  st.records.set(block, record);
  return record;
}

function nodeOf(st: KvConsensusState, block: number): ReachabilityNode {
  const dirty = st.dirtyNodes.get(block);
  if (dirty !== undefined) return dirty;
  let node = st.nodes.get(block);
  if (node !== undefined) return node;
  const bytes = st.kv.get(consensusKeys.node(block));
  assert(bytes !== undefined, `block ${block} has no reachability row`);
  node = decodeReachabilityNode(bytes);
  st.nodes.set(block, node);
  return node;
}

/** The staged rows for the block's batch; what was staged moves into the read caches. */
function drainWrites(st: KvConsensusState): KvOp[] {
  const out = st.ops.splice(0);
  for (const [block, node] of st.dirtyNodes) {
    out.push({ type: 'put', key: consensusKeys.node(block), value: encodeReachabilityNode(node) });
    st.nodes.set(block, node);
  }
  st.dirtyNodes.clear();
  for (const [block, id] of st.stagedIds) st.ids.set(block, id);
  for (const [id, block] of st.stagedNumbers) st.numbers.set(id, block);
  for (const [block, record] of st.stagedRecords) st.records.set(block, record);
  st.stagedIds.clear();
  st.stagedNumbers.clear();
  st.stagedRecords.clear();
  if (st.metaDirty) {
    out.push(
      { type: 'put', key: consensusKeys.blockCount, value: u64be(st.count) },
      { type: 'put', key: consensusKeys.tip, value: u64be(st.tip + 1) },
      { type: 'put', key: consensusKeys.reindexRoot, value: u64be(st.reindexRoot + 1) },
    );
    st.metaDirty = false;
  }
  return out;
}

export function openKvConsensusStore(kv: KvStore, sizes: ConsensusCacheSizes): ConsensusStore {
  const st = openState(kv, sizes);
  return {
    size: () => st.count,
    idOf: (block) => idOf(st, block),
    numberOf: (id) => numberOf(st, id),
    push: (id, record) => pushBlock(st, id, record),
    ghostdag: (block) => ghostdagOf(st, block),
    node: (block) => nodeOf(st, block),
    touchNode(block, node) {
      st.dirtyNodes.set(block, node);
    },
    get tip() {
      return st.tip;
    },
    set tip(block: number) {
      st.tip = block;
      st.metaDirty = true;
    },
    get reindexRoot() {
      return st.reindexRoot;
    },
    set reindexRoot(block: number) {
      st.reindexRoot = block;
      st.metaDirty = true;
    },
    drainWrites: () => drainWrites(st),
    forget(block, id) {
      st.numbers.delete(id);
      st.records.delete(block);
      st.nodes.delete(block);
    },
    cacheStats: () => [st.ids.stats(), st.numbers.stats(), st.records.stats(), st.nodes.stats()],
  };
}
