/**
 * State snapshot chunks (issue 19, docs/state-trie.md "Snapshots"): how a node that has proven a pruning-point header
 * downloads the state trie under that header's state root from peers it does not trust, in bounded chunks, each
 * checked on arrival so a bad chunk is refused before anything of it is written and its sender banned.
 *
 * A chunk holds the leaves with key ≥ a start key S, ascending, up to a last leaf Z, and a range proof: the hashes of
 * the subtrees left of S's path and right of Z's path. The verifier rebuilds every other subtree — all of those
 * strictly between the two paths — from the chunk's own leaves, then folds the two paths up to a root. Node hashes
 * bind their kind and contents (64- vs 65-byte preimages, trie-hash.ts), so a recomputed root equal to the proven
 * one means every rebuilt subtree is the real one: a dropped, added or altered leaf in [S, Z] cannot hash to it.
 * A chunk that claims to be the last must show every subtree right of Z empty.
 */
import { snapshotChunkEntriesMax, snapshotChunkLeafBytesMax } from '../limits.ts';
import { compareBytes, equalBytes, toHex } from '../util/bytes.ts';
import { nextStateKey, snapshotLeafBytes, type SnapshotChunk, type SnapshotLeaf, type SnapshotPath } from './snapshot-codec.ts';
import { SnapshotError } from './snapshot-errors.ts';
import type { StateTrie } from './trie.ts';
import {
  defaultStateHash,
  emptyStateRoot,
  hashInternal,
  hashLeaf,
  hashValue,
  isEmptyHash,
  keyBit,
  sharePrefix,
  stateDepthMax,
  stateHashBytes,
  stateKeyBytes,
  type StateHash,
} from './trie-hash.ts';

export interface SnapshotReadLimits {
  /** At most this many leaves (capped at snapshotChunkEntriesMax). */
  readonly entriesMax?: number;
  /** At most this many encoded leaf bytes (capped at snapshotChunkLeafBytesMax; one leaf always fits). */
  readonly leafBytesMax?: number;
}

/**
 * The chunk of the state `root` starting at `startKey`: the next leaves in key order within the limits, and the
 * range proof that lets a peer check them against `root` alone. Throws StateError 'node-missing' for an unknown root.
 */
export function readSnapshotChunk(
  trie: StateTrie,
  root: Uint8Array,
  startKey: Uint8Array,
  limits: SnapshotReadLimits = {},
): SnapshotChunk {
  const entriesMax = Math.max(1, Math.min(limits.entriesMax ?? snapshotChunkEntriesMax, snapshotChunkEntriesMax));
  const leafBytesMax = Math.min(limits.leafBytesMax ?? snapshotChunkLeafBytesMax, snapshotChunkLeafBytesMax);
  const leaves: SnapshotLeaf[] = [];
  let leafBytes = 0;
  let more = false;
  for (const [key, value] of trie.entries(root, startKey)) {
    const size = snapshotLeafBytes(value);
    if (leaves.length === entriesMax || (leaves.length > 0 && leafBytes + size > leafBytesMax)) {
      more = true;
      break;
    }
    leaves.push({ key, value });
    leafBytes += size;
  }
  const start = trie.prove(root, startKey);
  const left = {
    depth: start.siblings.length,
    siblings: start.siblings.map((s, d) => (keyBit(startKey, d) === 1 ? s : emptyStateRoot)),
    terminal:
      start.kind === 'absence-empty'
        ? ({ kind: 'empty' } as const)
        : start.kind === 'absence-leaf' && compareBytes(start.leafKey, startKey) < 0
          ? ({ kind: 'leaf', key: start.leafKey, valueHash: start.leafValueHash } as const)
          : ({ kind: 'chunk' } as const),
  };
  const last = leaves.at(-1)?.key;
  let right: SnapshotPath | undefined;
  if (last !== undefined) {
    const end = trie.prove(root, last);
    right = { depth: end.siblings.length, siblings: end.siblings.map((s, d) => (keyBit(last, d) === 0 ? s : emptyStateRoot)) };
  }
  return { leaves, left, right, nextKey: more && last !== undefined ? nextStateKey(last) : undefined };
}

export interface VerifiedSnapshotChunk {
  /** Where the next chunk starts, or undefined when this was the last. */
  readonly nextKey: Uint8Array | undefined;
}

const fail = (reason: ConstructorParameters<typeof SnapshotError>[0], message: string) => new SnapshotError(reason, message);

/** Cheap checks first: sizes, order, range, the end claim, and which levels may carry a proof hash. */
function checkChunkShape(startKey: Uint8Array, chunk: SnapshotChunk): void {
  const { leaves, left, right } = chunk;
  if (startKey.length !== stateKeyBytes) throw fail('chunk-malformed', `start key has ${startKey.length} bytes, expected 32`);
  if (leaves.length > snapshotChunkEntriesMax) {
    throw fail('chunk-too-large', `chunk has ${leaves.length} leaves, expected at most ${snapshotChunkEntriesMax}`);
  }
  let leafBytes = 0;
  for (let i = 0; i < leaves.length; i++) {
    const { key, value } = leaves[i]!;
    if (key.length !== stateKeyBytes) throw fail('chunk-malformed', `leaf ${i} key has ${key.length} bytes, expected 32`);
    leafBytes += snapshotLeafBytes(value);
    if (i === 0 && compareBytes(key, startKey) < 0) {
      throw fail('chunk-out-of-range', `first leaf ${toHex(key)} is below the start key ${toHex(startKey)}`);
    }
    if (i > 0 && compareBytes(leaves[i - 1]!.key, key) >= 0) {
      throw fail('chunk-not-sorted', `leaf ${i} key ${toHex(key)} does not follow leaf ${i - 1}'s`);
    }
  }
  if (leafBytes > snapshotChunkLeafBytesMax) {
    throw fail('chunk-too-large', `chunk leaves take ${leafBytes} bytes, expected at most ${snapshotChunkLeafBytesMax}`);
  }
  const last = leaves.at(-1)?.key;
  if (chunk.nextKey !== undefined) {
    const expected = last === undefined ? undefined : nextStateKey(last);
    if (expected === undefined || !equalBytes(chunk.nextKey, expected)) {
      throw fail('chunk-out-of-range', 'chunk says more follow, but its next key is not its last leaf key plus one');
    }
  }
  checkPathShape(left, startKey, 1, 'left');
  if ((right === undefined) !== (last === undefined)) {
    throw fail('chunk-malformed', 'a chunk has a right path exactly when it has leaves');
  }
  if (right !== undefined && last !== undefined) {
    checkPathShape(right, last, 0, 'right');
    const remain = right.siblings.some((s) => !isEmptyHash(s));
    if (chunk.nextKey === undefined && remain) {
      throw fail('chunk-keys-remain', `chunk claims to be the last, but its proof holds keys after ${toHex(last)}`);
    }
    if (chunk.nextKey !== undefined && !remain) {
      throw fail('chunk-out-of-range', `chunk says more follow, but its proof holds no key after ${toHex(last)}`);
    }
  }
  const terminal = left.terminal;
  if (terminal.kind === 'leaf') {
    if (compareBytes(terminal.key, startKey) >= 0 || !sharePrefix(terminal.key, startKey, left.depth)) {
      throw fail('chunk-malformed', 'left terminal leaf is not a smaller key on the start key\'s path');
    }
    if (terminal.valueHash.length !== stateHashBytes) throw fail('chunk-malformed', 'left terminal value hash is not 32 bytes');
  } else if (terminal.kind === 'chunk' && (last === undefined || !sharePrefix(leaves[0]!.key, startKey, left.depth))) {
    throw fail('chunk-root-mismatch', 'left terminal is the first leaf, but the chunk has none on the start key\'s path');
  }
}

/** A path's proof hashes may sit only on the side the chunk does not cover: left where `key` goes right, and so on. */
function checkPathShape(path: SnapshotPath, key: Uint8Array, sentBit: number, what: string): void {
  if (!Number.isInteger(path.depth) || path.depth < 0 || path.depth > stateDepthMax || path.siblings.length !== path.depth) {
    throw fail('chunk-malformed', `${what} path has depth ${path.depth} and ${path.siblings.length} siblings`);
  }
  for (let d = 0; d < path.depth; d++) {
    const sibling = path.siblings[d]!;
    if (sibling.length !== stateHashBytes) throw fail('chunk-malformed', `${what} sibling ${d} is not 32 bytes`);
    if (keyBit(key, d) !== sentBit && !isEmptyHash(sibling)) {
      throw fail('chunk-malformed', `${what} path carries a hash at level ${d}, inside the chunk's range`);
    }
  }
}

/**
 * Checks `chunk` against the state `root` for a request starting at `startKey`; throws SnapshotError (every reason
 * but 'import-state' is the sender's fault) and otherwise answers where the next chunk starts.
 */
export function verifySnapshotChunk(
  root: Uint8Array,
  startKey: Uint8Array,
  chunk: SnapshotChunk,
  hash: StateHash = defaultStateHash,
): VerifiedSnapshotChunk {
  checkChunkShape(startKey, chunk);
  const { leaves, left, right } = chunk;
  const last = leaves.at(-1)?.key;
  const leafHashOf = (i: number) => hashLeaf(hash, leaves[i]!.key, hashValue(hash, leaves[i]!.value));
  const mismatch = (d: number) => fail('chunk-root-mismatch', `chunk leaves disagree with its proof at depth ${d}`);

  /** First index in [lo, hi) whose key goes right at `depth`. */
  const split = (depth: number, lo: number, hi: number): number => {
    let i = lo;
    while (i < hi && keyBit(leaves[i]!.key, depth) === 0) i++;
    return i;
  };

  /** A subtree strictly between the two paths: exactly the leaves [lo, hi), as the trie would build it. */
  const build = (depth: number, lo: number, hi: number): Uint8Array => {
    if (hi === lo) return emptyStateRoot;
    if (hi - lo === 1) return leafHashOf(lo);
    const mid = split(depth, lo, hi);
    return hashInternal(hash, build(depth + 1, lo, mid), build(depth + 1, mid, hi));
  };

  /** A node on S's path (onS) or Z's path (onZ) at `depth`, holding the leaves [lo, hi). */
  const fold = (depth: number, lo: number, hi: number, onS: boolean, onZ: boolean): Uint8Array => {
    if (onS && depth === left.depth) {
      if (onZ && right!.depth !== depth) throw mismatch(depth);
      if (left.terminal.kind === 'chunk') {
        if (hi - lo !== 1) throw mismatch(depth);
        return leafHashOf(lo);
      }
      if (hi !== lo) throw mismatch(depth);
      return left.terminal.kind === 'leaf' ? hashLeaf(hash, left.terminal.key, left.terminal.valueHash) : emptyStateRoot;
    }
    if (onZ && depth === right!.depth) {
      if (onS || hi - lo !== 1) throw mismatch(depth);
      return leafHashOf(lo);
    }
    const sBit = onS ? keyBit(startKey, depth) : -1;
    const zBit = onZ ? keyBit(last!, depth) : -1;
    const mid = split(depth, lo, hi);
    const l =
      sBit === 0 || zBit === 0
        ? fold(depth + 1, lo, mid, sBit === 0, zBit === 0)
        : sBit === 1
          ? left.siblings[depth]!
          : build(depth + 1, lo, mid);
    const r =
      sBit === 1 || zBit === 1
        ? fold(depth + 1, mid, hi, sBit === 1, zBit === 1)
        : zBit === 0
          ? right!.siblings[depth]!
          : build(depth + 1, mid, hi);
    if ((sBit === 1 && mid !== lo) || (zBit === 0 && hi !== mid)) throw mismatch(depth);
    return hashInternal(hash, l, r);
  };

  const computed = fold(0, 0, leaves.length, true, last !== undefined);
  if (!equalBytes(computed, root)) {
    throw fail('chunk-root-mismatch', `chunk hashes to ${toHex(computed)}, expected the state root ${toHex(root)}`);
  }
  return { nextKey: chunk.nextKey };
}
