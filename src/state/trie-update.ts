/**
 * One batched update of the state trie: from an old root and a sorted list of key → value | delete, the new root and
 * the nodes it needs, each handed to `emit` (nothing is written here). The walk descends once through the old
 * trie, splitting the sorted batch by key bit, so a node shared by many updated keys is read and rehashed once per
 * batch, and subtrees no update enters are neither read nor hashed. Leaf hashes do not depend on depth, so a leaf
 * that moves up (its sibling deleted) or down (a new key lands beside it) keeps its hash and is not rewritten.
 */
import { StateError } from './state-errors.ts';
import { encodeInternalNode, encodeLeafNode, internalNodePreimage, type TrieNode } from './trie-node.ts';
import {
  hashLeaf,
  hashValue,
  isEmptyHash,
  keyBit,
  stateDepthMax,
  stateHashBytes,
  type StateHash,
} from './trie-hash.ts';
import { compareBytes, equalBytes, toHex } from '../util/bytes.ts';

/** One entry of a batch, sorted by key. `existing` marks a leaf already stored (its hash): kept, not rewritten. */
export interface UpdateItem {
  readonly key: Uint8Array;
  readonly value: Uint8Array | null;
  readonly existing?: Uint8Array;
}

export interface UpdateContext {
  readonly hash: StateHash;
  readonly readNode: (hash: Uint8Array) => TrieNode;
  readonly emit: (hash: Uint8Array, encoded: Uint8Array) => void;
}

const empty = 0;
const leaf = 1;
const internal = 2;
/** A child no update entered: its kind is read only if a deleted sibling forces it to move up. */
const unknown = 3;
type Kind = typeof empty | typeof leaf | typeof internal | typeof unknown;

interface Built {
  readonly hash: Uint8Array;
  readonly kind: Kind;
}

const emptyBuilt: Built = { hash: new Uint8Array(stateHashBytes), kind: empty };

/** The new root after applying `items` (sorted by key, keys unique) to the trie under `root`. */
export function computeUpdate(ctx: UpdateContext, root: Uint8Array, items: readonly UpdateItem[]): Uint8Array {
  if (items.length === 0) return root.slice();
  return update(ctx, root, 0, items, 0, items.length).hash.slice();
}

/** First index in [lo, hi) whose key has bit `depth` set (the batch is sorted, so the zeros come first). */
function splitAt(items: readonly UpdateItem[], depth: number, lo: number, hi: number): number {
  let i = lo;
  while (i < hi && keyBit(items[i]!.key, depth) === 0) i++;
  return i;
}

function update(
  ctx: UpdateContext,
  nodeHash: Uint8Array,
  depth: number,
  items: readonly UpdateItem[],
  lo: number,
  hi: number,
): Built {
  if (isEmptyHash(nodeHash)) return build(ctx, depth, items, lo, hi);
  const node = ctx.readNode(nodeHash);
  if (node.kind === 'leaf') return mergeLeaf(ctx, nodeHash, node.key, node.value, depth, items, lo, hi);
  if (depth >= stateDepthMax) {
    throw new StateError('node-corrupt', `internal state node ${toHex(nodeHash)} at depth ${depth}: too deep`);
  }
  const mid = splitAt(items, depth, lo, hi);
  const left = mid > lo ? update(ctx, node.left, depth + 1, items, lo, mid) : known(node.left);
  const right = hi > mid ? update(ctx, node.right, depth + 1, items, mid, hi) : known(node.right);
  // A batch that changed nothing below (values rewritten as they were) costs no hash above.
  if (equalBytes(left.hash, node.left) && equalBytes(right.hash, node.right)) return { hash: nodeHash, kind: internal };
  return combine(ctx, left, right);
}

function known(hash: Uint8Array): Built {
  return isEmptyHash(hash) ? emptyBuilt : { hash, kind: unknown };
}

/** The canonical parent of two subtrees: empty if both are, the lone leaf if the other is empty, else a node. */
function combine(ctx: UpdateContext, left: Built, right: Built): Built {
  if (left.kind === empty && right.kind === empty) return emptyBuilt;
  if (left.kind === empty || right.kind === empty) {
    const only = left.kind === empty ? right : left;
    const kind = only.kind === unknown ? (ctx.readNode(only.hash).kind === 'leaf' ? leaf : internal) : only.kind;
    if (kind === leaf) return { hash: only.hash, kind: leaf };
  }
  const encoded = encodeInternalNode(left.hash, right.hash);
  const hash = ctx.hash(internalNodePreimage(encoded));
  ctx.emit(hash, encoded);
  return { hash, kind: internal };
}

/** Builds the subtree at `depth` holding exactly the non-deleted items of [lo, hi) (no old nodes below). */
function build(ctx: UpdateContext, depth: number, items: readonly UpdateItem[], lo: number, hi: number): Built {
  let live = 0;
  let last = lo;
  for (let i = lo; i < hi && live < 2; i++) {
    if (items[i]!.value !== null) {
      live++;
      last = i;
    }
  }
  if (live === 0) return emptyBuilt;
  if (live === 1) return buildLeaf(ctx, items[last]!);
  const mid = splitAt(items, depth, lo, hi);
  return combine(ctx, build(ctx, depth + 1, items, lo, mid), build(ctx, depth + 1, items, mid, hi));
}

function buildLeaf(ctx: UpdateContext, item: UpdateItem): Built {
  if (item.existing !== undefined) return { hash: item.existing, kind: leaf };
  const value = item.value!;
  const hash = hashLeaf(ctx.hash, item.key, hashValue(ctx.hash, value));
  ctx.emit(hash, encodeLeafNode(item.key, value));
  return { hash, kind: leaf };
}

/** The batch range [lo, hi) lands on an existing leaf: rebuild the subtree from that leaf plus the batch. */
function mergeLeaf(
  ctx: UpdateContext,
  leafHash: Uint8Array,
  leafKey: Uint8Array,
  leafValue: Uint8Array,
  depth: number,
  items: readonly UpdateItem[],
  lo: number,
  hi: number,
): Built {
  // Deletes drop out here (of the leaf's key, or of keys that are absent anyway); an unchanged value keeps the
  // stored leaf, so a batch that changes nothing under this leaf hashes and writes nothing.
  const merged: UpdateItem[] = [];
  const kept: UpdateItem = { key: leafKey, value: leafValue, existing: leafHash };
  let placed = false;
  for (let i = lo; i < hi; i++) {
    const item = items[i]!;
    const order = placed ? -1 : compareBytes(leafKey, item.key);
    if (order === 0) {
      placed = true;
      if (item.value !== null) merged.push(equalBytes(item.value, leafValue) ? kept : item);
      continue;
    }
    if (order < 0 && !placed) {
      placed = true;
      merged.push(kept);
    }
    if (item.value !== null) merged.push(item);
  }
  if (!placed) merged.push(kept);
  return build(ctx, depth, merged, 0, merged.length);
}
