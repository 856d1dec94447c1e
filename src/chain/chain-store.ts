/**
 * The chain's tables in the KvStore. One letter per table; every block commits its rows in one batch, so a crash
 * leaves either the whole block (with its indexes) or nothing.
 *
 *   H | hash           → header bytes
 *   B | hash           → block bytes (header + transactions)
 *   O | seq (u64 BE)   → hash        insertion order: a topological order, replayed at start
 *   S | hash           → seq (u64 BE)
 *   C | height (u64 BE)→ hash        the virtual selected chain (height = selected-chain length from genesis)
 *   M | name           → value       chain metadata (the selected tip)
 */
import type { KvOp, KvStore } from '../storage/kv.ts';
import { concatBytes } from '../util/bytes.ts';

const enc = new TextEncoder();
const T = { header: 0x48, block: 0x42, order: 0x4f, seq: 0x53, chain: 0x43, meta: 0x4d, invalid: 0x49 } as const;

function u64be(n: number): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(n));
  return out;
}

function readU64be(bytes: Uint8Array): number {
  return Number(new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0));
}

export const chainKeys = {
  header: (hash: Uint8Array) => concatBytes(Uint8Array.of(T.header), hash),
  block: (hash: Uint8Array) => concatBytes(Uint8Array.of(T.block), hash),
  order: (seq: number) => concatBytes(Uint8Array.of(T.order), u64be(seq)),
  orderPrefix: Uint8Array.of(T.order),
  seq: (hash: Uint8Array) => concatBytes(Uint8Array.of(T.seq), hash),
  chain: (height: number) => concatBytes(Uint8Array.of(T.chain), u64be(height)),
  chainPrefix: Uint8Array.of(T.chain),
  selectedTip: concatBytes(Uint8Array.of(T.meta), enc.encode('selected-tip')),
  /** A block refused by a consensus rule after its PoW checked out; the value is the rule (UTF-8). */
  invalid: (hash: Uint8Array) => concatBytes(Uint8Array.of(T.invalid), hash),
};

export function blockRows(hash: Uint8Array, headerBytes: Uint8Array, blockBytes: Uint8Array, seq: number): KvOp[] {
  return [
    { type: 'put', key: chainKeys.header(hash), value: headerBytes },
    { type: 'put', key: chainKeys.block(hash), value: blockBytes },
    { type: 'put', key: chainKeys.order(seq), value: hash },
    { type: 'put', key: chainKeys.seq(hash), value: u64be(seq) },
  ];
}

export function chainIndexPut(height: number, hash: Uint8Array): KvOp {
  return { type: 'put', key: chainKeys.chain(height), value: hash };
}

export function chainIndexDel(height: number): KvOp {
  return { type: 'del', key: chainKeys.chain(height) };
}

/** Hashes in insertion order, for replay at start. */
export function* storedBlockOrder(store: KvStore): Iterable<{ seq: number; hash: Uint8Array }> {
  for (const [key, hash] of store.entries({ prefix: chainKeys.orderPrefix })) {
    yield { seq: readU64be(key.subarray(1)), hash };
  }
}

export function* storedChainIndex(store: KvStore): Iterable<{ height: number; hash: Uint8Array }> {
  for (const [key, hash] of store.entries({ prefix: chainKeys.chainPrefix })) {
    yield { height: readU64be(key.subarray(1)), hash };
  }
}
