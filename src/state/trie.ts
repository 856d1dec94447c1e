/**
 * The authenticated state map: a compact binary sparse Merkle tree over BLAKE3 (trie-hash.ts) whose root goes in
 * every block header (docs/design.md "State, accounts and energy"). Keys are 32 bytes, values opaque bytes up to stateValueBytesMax.
 *
 * Nodes are immutable and stored content-addressed under the caller's prefix (trie-node.ts), so every old root
 * stays readable: a reorganisation rolls state back by reading from the older root, with no replay. An update
 * computes the new root and returns the node writes without writing them, so the chain puts them in the same atomic
 * batch as its block. To chain several updates before a write, give the trie an overlay: every node an update
 * creates is also kept there, and reads look there before the store; clear it once the ops are written.
 *
 * @example
 *   const trie = createStateTrie({ store, prefix: Uint8Array.of(0x10), overlay: createStateOverlay() });
 *   const a = trie.applyUpdates(emptyStateRoot, new Map([[toHex(key), value]]));
 *   const b = trie.applyUpdates(a.root, new Map([[toHex(key), null]]));   // reads a's pending nodes
 *   await store.write([...a.ops, ...b.ops]); trie.overlay?.clear();
 */
import type { KvOp, KvStore } from '../storage/kv.ts';
import { StateError } from './state-errors.ts';
import type { StateProof } from './proof.ts';
import { decodeTrieNode, type TrieNode } from './trie-node.ts';
import type { TrieNodeCache } from './trie-node-cache.ts';
import type { TrieValueCache } from './trie-value-cache.ts';
import { computeUpdate, type UpdateItem } from './trie-update.ts';
import {
  defaultStateHash,
  hashValue,
  isEmptyHash,
  keyBit,
  stateDepthMax,
  stateHashBytes,
  stateKeyBytes,
  stateValueBytesMax,
  type StateHash,
} from './trie-hash.ts';
import { compareBytes, equalBytes, toHex } from '../util/bytes.ts';

/** Pending nodes not yet in the store: lowercase hex node hash → stored node bytes. */
export type StateOverlay = Map<string, Uint8Array>;

/** A batch: lowercase or uppercase 64-digit hex key (no 0x) → new value, or null to delete. */
type StateUpdates = ReadonlyMap<string, Uint8Array | null>;

interface StateUpdate {
  /** The state root after the batch (emptyStateRoot's bytes when the state is empty). */
  readonly root: Uint8Array;
  /** The node writes the new root needs, for the caller's atomic batch. Treat the values as read-only. */
  readonly ops: KvOp[];
}

export interface StateTrieOptions {
  readonly store: KvStore;
  /** Key prefix of every node in the store (e.g. 0x10). */
  readonly prefix: Uint8Array;
  /** BLAKE3 by default; any faster implementation of the same function may be plugged in. */
  readonly hash?: StateHash;
  readonly overlay?: StateOverlay;
  /** Decoded nodes kept in memory by hash (trie-node-cache.ts): the node's ledger trie has one; nodes never go stale. */
  readonly nodeCache?: TrieNodeCache;
  /** The values of one root, moved along by each update (trie-value-cache.ts): the ledger's reads at the tip. */
  readonly valueCache?: TrieValueCache;
}

export interface StateTrie {
  readonly prefix: Uint8Array;
  readonly overlay: StateOverlay | undefined;
  /** The value under `key` in the state `root`, or undefined. Throws StateError 'node-missing' for unknown roots. */
  get(root: Uint8Array, key: Uint8Array): Uint8Array | undefined;
  /**
   * Every [key, value] of the state `root` with key ≥ `from` (all when absent), in ascending key order (snapshots,
   * audits, tests). Subtrees left of `from`'s path are not read.
   */
  entries(root: Uint8Array, from?: Uint8Array): Generator<readonly [Uint8Array, Uint8Array]>;
  /** The new root and its node writes (not written); the overlay, if any, gets the nodes too. */
  applyUpdates(root: Uint8Array, updates: StateUpdates): StateUpdate;
  /** A proof of `key`'s value, or of its absence, under `root` (check it with verifyProof). */
  prove(root: Uint8Array, key: Uint8Array): StateProof;
}

export function createStateOverlay(): StateOverlay {
  return new Map();
}

export function createStateTrie(options: StateTrieOptions): StateTrie {
  const { store, overlay, nodeCache, valueCache } = options;
  const prefix = options.prefix.slice();
  const hash = options.hash ?? defaultStateHash;

  const storeKey = (nodeHash: Uint8Array): Uint8Array => {
    const key = new Uint8Array(prefix.length + stateHashBytes);
    key.set(prefix, 0);
    key.set(nodeHash, prefix.length);
    return key;
  };

  const readNode = (nodeHash: Uint8Array): TrieNode => {
    const cached = nodeCache?.get(nodeHash);
    if (cached !== undefined) return cached;
    const bytes = overlay?.get(toHex(nodeHash)) ?? store.get(storeKey(nodeHash));
    if (bytes === undefined) {
      throw new StateError('node-missing', `state node ${toHex(nodeHash)} is in neither the overlay nor the store`);
    }
    const node = decodeTrieNode(bytes, nodeHash);
    nodeCache?.set(nodeHash, node);
    return node;
  };

  /** Walks from `root` toward `key`; calls `onSibling` per level; returns the leaf met, or undefined for empty. */
  const walk = (root: Uint8Array, key: Uint8Array, onSibling?: (sibling: Uint8Array) => void) => {
    checkLength(root, stateHashBytes, 'state root');
    checkLength(key, stateKeyBytes, 'state key');
    let nodeHash = root;
    for (let depth = 0; ; depth++) {
      if (isEmptyHash(nodeHash)) return undefined;
      const node = readNode(nodeHash);
      if (node.kind === 'leaf') return node;
      if (depth >= stateDepthMax) {
        throw new StateError('node-corrupt', `internal state node ${toHex(nodeHash)} at depth ${depth}: too deep`);
      }
      const bit = keyBit(key, depth);
      onSibling?.(bit === 0 ? node.right : node.left);
      nodeHash = bit === 0 ? node.left : node.right;
    }
  };

  /** `from` is set while the walk is still on `from`'s path; off it, every key is greater. */
  function* entries(nodeHash: Uint8Array, depth: number, from?: Uint8Array): Generator<readonly [Uint8Array, Uint8Array]> {
    if (isEmptyHash(nodeHash)) return;
    const node = readNode(nodeHash);
    if (node.kind === 'leaf') {
      if (from === undefined || compareBytes(node.key, from) >= 0) yield [node.key.slice(), node.value.slice()] as const;
      return;
    }
    if (depth >= stateDepthMax) {
      throw new StateError('node-corrupt', `internal state node ${toHex(nodeHash)} at depth ${depth}: too deep`);
    }
    if (from === undefined || keyBit(from, depth) === 0) yield* entries(node.left, depth + 1, from);
    yield* entries(node.right, depth + 1, from !== undefined && keyBit(from, depth) === 1 ? from : undefined);
  }

  return {
    prefix,
    overlay,
    get(root, key) {
      if (valueCache === undefined) {
        const leaf = walk(root, key);
        return leaf !== undefined && equalBytes(leaf.key, key) ? leaf.value.slice() : undefined;
      }
      checkLength(root, stateHashBytes, 'state root');
      checkLength(key, stateKeyBytes, 'state key');
      const keyHex = toHex(key);
      const cached = valueCache.get(root, keyHex);
      if (cached !== undefined) return cached === null ? undefined : cached.slice();
      const leaf = walk(root, key);
      const value = leaf !== undefined && equalBytes(leaf.key, key) ? leaf.value.slice() : undefined;
      valueCache.set(root, keyHex, value ?? null);
      return value?.slice();
    },
    entries(root, from) {
      checkLength(root, stateHashBytes, 'state root');
      if (from !== undefined) checkLength(from, stateKeyBytes, 'start key');
      return entries(root, 0, from);
    },
    applyUpdates(root, updates) {
      checkLength(root, stateHashBytes, 'state root');
      const ops: KvOp[] = [];
      const emit = (nodeHash: Uint8Array, encoded: Uint8Array): void => {
        ops.push({ type: 'put', key: storeKey(nodeHash), value: encoded });
        overlay?.set(toHex(nodeHash), encoded);
        // The next block and the virtual read what this update wrote.
        nodeCache?.set(nodeHash, decodeTrieNode(encoded, nodeHash));
      };
      const items = sortedItems(updates);
      const newRoot = computeUpdate({ hash, readNode, emit }, root, items);
      if (valueCache !== undefined) {
        const batch = new Map<string, Uint8Array | null>();
        for (const item of items) batch.set(toHex(item.key), item.value);
        valueCache.updated(root, newRoot, batch);
      }
      return { root: newRoot, ops };
    },
    prove(root, key) {
      const siblings: Uint8Array[] = [];
      const leaf = walk(root, key, (sibling) => siblings.push(sibling.slice()));
      if (leaf === undefined) return { kind: 'absence-empty', siblings };
      if (equalBytes(leaf.key, key)) return { kind: 'inclusion', siblings, value: leaf.value.slice() };
      return { kind: 'absence-leaf', siblings, leafKey: leaf.key.slice(), leafValueHash: hashValue(hash, leaf.value) };
    },
  };
}

function checkLength(bytes: Uint8Array, expected: number, what: string): void {
  if (bytes.length !== expected) {
    throw new StateError('bad-key', `${what} has ${bytes.length} bytes, expected ${expected}`);
  }
}

/** Nibble of a hex digit's char code, or -1. */
function nibble(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  return -1;
}

/** Validates a batch and sorts it by key (lowercase hex sorts as the bytes do). */
function sortedItems(updates: StateUpdates): UpdateItem[] {
  const rows: [string, Uint8Array | null][] = [];
  for (const [rawKey, value] of updates) {
    const hexKey = rawKey.toLowerCase();
    if (hexKey.length !== 2 * stateKeyBytes) {
      throw new StateError('bad-key', `update key has ${rawKey.length} characters, expected ${2 * stateKeyBytes} hex`);
    }
    if (value !== null && value.length > stateValueBytesMax) {
      throw new StateError(
        'value-too-large',
        `value for key ${hexKey} has ${value.length} bytes, expected at most ${stateValueBytesMax}`,
      );
    }
    rows.push([hexKey, value]);
  }
  rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const items: UpdateItem[] = new Array<UpdateItem>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const [hexKey, value] = rows[i]!;
    if (i > 0 && rows[i - 1]![0] === hexKey) {
      throw new StateError('bad-key', `update key ${hexKey} appears twice (in two letter cases)`);
    }
    const key = new Uint8Array(stateKeyBytes);
    for (let j = 0; j < stateKeyBytes; j++) {
      const hi = nibble(hexKey.charCodeAt(2 * j));
      const lo = nibble(hexKey.charCodeAt(2 * j + 1));
      if (hi < 0 || lo < 0) throw new StateError('bad-key', `update key ${rawKeyHint(hexKey)} is not hex`);
      key[j] = (hi << 4) | lo;
    }
    items[i] = { key, value: value === null ? null : value.slice() };
  }
  return items;
}

function rawKeyHint(hexKey: string): string {
  return JSON.stringify(hexKey.length > 80 ? `${hexKey.slice(0, 80)}…` : hexKey);
}
