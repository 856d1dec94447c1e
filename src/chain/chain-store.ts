/**
 * The chain's tables in the KvStore (docs/storage.md). One letter per table; every block commits its rows in one
 * batch, so a crash leaves either the whole block (with its indexes and consensus data) or nothing.
 *
 *   H | hash           → header bytes
 *   B | hash           → block bytes (header + transactions)
 *   K | hash           → hash        the block's skip ancestor on its selected chain (block-index.ts)
 *   C | height (u64 BE)→ hash        the virtual selected chain (height = selected-chain length from genesis)
 *   I | hash           → rule        a block refused by a consensus rule
 *   M | name           → value       chain metadata (the selected tip, the tips, the pruning point and progress)
 *
 * The consensus tables (O, S, D, N and the engine's M rows: insertion order, block numbers, GHOSTDAG data,
 * reachability) are src/consensus/consensus-rows.ts; the engine stages them and the chain writes them in the batch.
 */
import { consensusKeys, readU64be, u64be } from '../consensus/consensus-rows.ts';
import type { KvOp, KvStore } from '../storage/kv.ts';
import { concatBytes } from '../util/bytes.ts';

const enc = new TextEncoder();
const T = { header: 0x48, block: 0x42, order: 0x4f, skip: 0x4b, chain: 0x43, meta: 0x4d, invalid: 0x49 } as const;

export const chainKeys = {
  header: (hash: Uint8Array) => concatBytes(Uint8Array.of(T.header), hash),
  block: (hash: Uint8Array) => concatBytes(Uint8Array.of(T.block), hash),
  order: consensusKeys.order,
  orderPrefix: Uint8Array.of(T.order),
  seq: consensusKeys.number,
  skip: (hash: Uint8Array) => concatBytes(Uint8Array.of(T.skip), hash),
  chain: (height: number) => concatBytes(Uint8Array.of(T.chain), u64be(height)),
  chainPrefix: Uint8Array.of(T.chain),
  selectedTip: concatBytes(Uint8Array.of(T.meta), enc.encode('selected-tip')),
  /** The DAG's tips, their hashes back to back. */
  tips: concatBytes(Uint8Array.of(T.meta), enc.encode('tips')),
  /** The pruning point (src/chain/pruning-point.ts): hash. Absent: genesis, or an archive node. */
  pruningPoint: concatBytes(Uint8Array.of(T.meta), enc.encode('pruning-point')),
  /** The pruning point whose round finished: everything in its past is gone. */
  prunedThrough: concatBytes(Uint8Array.of(T.meta), enc.encode('pruned-through')),
  /** During a round: u64 BE height of the last selected-chain block whose rows are gone (the state's garbage too). */
  pruneProgress: concatBytes(Uint8Array.of(T.meta), enc.encode('prune-progress')),
  /** A trusted-data import in progress (docs/pruning-proof.md "Trusted data"): the pruning point's hash. */
  joining: concatBytes(Uint8Array.of(T.meta), enc.encode('joining')),
  /** Written last by a finished import: the pruning point the chain joined at; it knows nothing below its trusted set. */
  joinedAt: concatBytes(Uint8Array.of(T.meta), enc.encode('joined-at')),
  /** A block refused by a consensus rule after its PoW checked out; the value is the rule (UTF-8). */
  invalid: (hash: Uint8Array) => concatBytes(Uint8Array.of(T.invalid), hash),
};

export function blockRows(hash: Uint8Array, headerBytes: Uint8Array, blockBytes: Uint8Array): KvOp[] {
  return [
    { type: 'put', key: chainKeys.header(hash), value: headerBytes },
    { type: 'put', key: chainKeys.block(hash), value: blockBytes },
  ];
}

export function chainIndexPut(height: number, hash: Uint8Array): KvOp {
  return { type: 'put', key: chainKeys.chain(height), value: hash };
}

export function chainIndexDel(height: number): KvOp {
  return { type: 'del', key: chainKeys.chain(height) };
}

/** Hashes in insertion order from `fromSeq` on (a store written before the consensus tables is replayed from 0). */
export function* storedBlockOrder(store: KvStore, fromSeq = 0): Iterable<{ seq: number; hash: Uint8Array }> {
  for (const [key, hash] of store.entries({ prefix: chainKeys.orderPrefix, start: chainKeys.order(fromSeq) })) {
    yield { seq: readU64be(key.subarray(1)), hash };
  }
}

export function tipsRow(tips: Iterable<Uint8Array>): KvOp {
  return { type: 'put', key: chainKeys.tips, value: concatBytes(...tips) };
}

export function storedTips(store: KvStore): Uint8Array[] {
  const bytes = store.get(chainKeys.tips);
  const out: Uint8Array[] = [];
  if (bytes) for (let at = 0; at < bytes.length; at += 32) out.push(bytes.slice(at, at + 32));
  return out;
}

export function storedChainAt(store: KvStore, height: number): Uint8Array | undefined {
  return store.get(chainKeys.chain(height));
}
