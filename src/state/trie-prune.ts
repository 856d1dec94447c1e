/**
 * Garbage collection of state-trie nodes when the pruning point moves from P_old to P_new (docs/storage.md
 * "Pruning"). Nodes are immutable and shared between roots, so a node may go only when no state still needed reads
 * it. The states still needed are P_new's and those of blocks in its future whose selected chain runs through it
 * (the only ones that can ever be on the virtual's chain again, P_new being below the finality point). Each of those
 * roots reads only nodes reachable from root(P_new) or written by a block after P_new — by induction, a block's
 * root is its selected parent's plus the nodes its own update wrote. So a node is garbage when it is
 *
 *   - not reachable from root(P_new), and
 *   - not in the write log of any block that is kept (`retained`, a Bloom filter plus the blocks written since the
 *     round began: a false positive keeps garbage one round longer, never the other way round).
 *
 * Candidates are every node some pruned block wrote (their write logs) and every node of root(P_old) that is not in
 * root(P_new) (kept last round because P_old read it). Those of root(P_old) are listed children first, so a run cut
 * short by a crash leaves no node whose subtree was not yet looked at: the rerun treats a missing node as done.
 */
import type { KvOp, KvStore } from '../storage/kv.ts';
import { concatBytes, equalBytes, toHex } from '../util/bytes.ts';
import { isEmptyHash, keyBit, stateDepthMax } from './trie-hash.ts';
import { decodeTrieNode, type TrieNode } from './trie-node.ts';

const seenMax = 100_000;

export interface TrieGarbageInput {
  readonly store: KvStore;
  /** The trie's key prefix in the store. */
  readonly prefix: Uint8Array;
  readonly oldRoot: Uint8Array;
  readonly newRoot: Uint8Array;
  /** Node hashes the pruned blocks' updates wrote. */
  readonly writtenByPruned: Iterable<Uint8Array>;
  /** True for a node a kept block wrote (or may have: false positives are fine). Asked right before each delete. */
  readonly retained: (hash: Uint8Array) => boolean;
  /** Candidates looked at per step: each yield is one bounded piece of work and its deletes (maybe none). */
  readonly stepCandidates?: number;
}

export interface TrieGarbageCounts {
  candidates: number;
  deleted: number;
}

export function* trieGarbage(input: TrieGarbageInput, counts: TrieGarbageCounts = { candidates: 0, deleted: 0 }): Generator<KvOp[]> {
  const { store, prefix, newRoot } = input;
  const step = input.stepCandidates ?? 2_000;
  const keyOf = (hash: Uint8Array) => concatBytes(prefix, hash);
  const read = (hash: Uint8Array): TrieNode | undefined => {
    const bytes = store.get(keyOf(hash));
    return bytes === undefined ? undefined : decodeTrieNode(bytes, hash);
  };

  /** Whether `hash` sits on root(P_new): walk from the new root toward a key below the node and meet it or not. */
  const reachable = (hash: Uint8Array, node: TrieNode): boolean => {
    let probe = node;
    for (let depth = 0; probe.kind === 'internal'; depth++) {
      if (depth > stateDepthMax) return false;
      const next = read(isEmptyHash(probe.left) ? probe.right : probe.left);
      // A child already gone: the new root (whose nodes all exist) cannot hold this node.
      if (next === undefined) return false;
      probe = next;
    }
    const key = probe.key;
    let at = newRoot;
    for (let depth = 0; depth <= stateDepthMax; depth++) {
      if (equalBytes(at, hash)) return true;
      if (isEmptyHash(at)) return false;
      const n = read(at);
      if (n === undefined || n.kind === 'leaf') return false;
      at = keyBit(key, depth) === 0 ? n.left : n.right;
    }
    return false;
  };

  // Write logs repeat a node a block rewrote; checking it twice is only wasted reads, so the memory is bounded.
  const seen = new Set<string>();
  let ops: KvOp[] = [];
  let looked = 0;
  const consider = (hash: Uint8Array): void => {
    const id = toHex(hash);
    if (seen.has(id)) return;
    if (seen.size >= seenMax) seen.clear();
    seen.add(id);
    counts.candidates++;
    looked++;
    const node = read(hash);
    if (node === undefined || input.retained(hash) || reachable(hash, node)) return;
    ops.push({ type: 'del', key: keyOf(hash) });
    counts.deleted++;
  };
  const flush = function* (): Generator<KvOp[]> {
    if (looked < step) return;
    yield ops;
    ops = [];
    looked = 0;
  };

  for (const hash of oldOnlyNodes(read, input.oldRoot, newRoot)) {
    consider(hash);
    yield* flush();
  }
  for (const hash of input.writtenByPruned) {
    consider(hash);
    yield* flush();
  }
  if (ops.length > 0) yield ops;
}

/** Nodes of the trie under `oldRoot` that are not at the same place under `newRoot`, children before parents. */
function* oldOnlyNodes(read: (hash: Uint8Array) => TrieNode | undefined, oldRoot: Uint8Array, newRoot: Uint8Array | null): Generator<Uint8Array> {
  if (isEmptyHash(oldRoot) || (newRoot !== null && equalBytes(oldRoot, newRoot))) return;
  const node = read(oldRoot);
  if (node === undefined) return;
  if (node.kind === 'internal') {
    const other = newRoot !== null && !isEmptyHash(newRoot) ? read(newRoot) : undefined;
    const [left, right] = other?.kind === 'internal' ? [other.left, other.right] : [null, null];
    yield* oldOnlyNodes(read, node.left, left);
    yield* oldOnlyNodes(read, node.right, right);
  }
  yield oldRoot;
}
