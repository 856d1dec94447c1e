/**
 * Rebuilding the state trie at a proven state root from verified snapshot chunks (docs/state-trie.md "Snapshots").
 * Chunks go in in key order; each is verified against the root, applied to the partial trie built so far with the
 * trie's own `applyUpdates`, and written in one atomic batch together with the cursor row (`V` ‖ root: the partial
 * root, the next start key, the leaves so far). A kill -9 between chunks therefore loses at most the chunk in flight,
 * and reopening resumes from the cursor. Once the last chunk is in, the partial root must equal the proven root.
 */
import type { KvStore } from '../storage/kv.ts';
import { concatBytes, equalBytes, toHex } from '../util/bytes.ts';
import type { SnapshotChunk } from './snapshot-codec.ts';
import { SnapshotError } from './snapshot-errors.ts';
import { verifySnapshotChunk } from './snapshot.ts';
import { createStateTrie } from './trie.ts';
import { defaultStateHash, emptyStateRoot, stateHashBytes, stateKeyBytes, type StateHash } from './trie-hash.ts';

/** The cursor table: one row per import in progress, keyed by the root being rebuilt (docs/storage.md). */
export const snapshotCursorTable = 0x56; // 'V'
const cursorVersion = 1;
const cursorBytes = 2 + stateHashBytes + stateKeyBytes + 8;

export function snapshotCursorKey(root: Uint8Array): Uint8Array {
  return concatBytes(Uint8Array.of(snapshotCursorTable), root);
}

export interface SnapshotImportOptions {
  readonly store: KvStore;
  /** Key prefix of the trie's nodes (the ledger's `T`). */
  readonly prefix: Uint8Array;
  /** The state root proven in the pruning-point header. */
  readonly root: Uint8Array;
  readonly hash?: StateHash;
}

export interface SnapshotImport {
  readonly root: Uint8Array;
  /** Where the next chunk must start; undefined once the last chunk is in. */
  readonly nextKey: Uint8Array | undefined;
  /** Leaves imported so far (across restarts). */
  readonly entries: number;
  /** Verifies `chunk` (requested at `nextKey`) and writes it with the moved cursor; refuses it whole on any fault. */
  apply(chunk: SnapshotChunk): Promise<void>;
  /** After the last chunk: checks the rebuilt root and removes the cursor row. Answers the root. */
  finish(): Promise<Uint8Array>;
}

interface Cursor {
  partialRoot: Uint8Array;
  nextKey: Uint8Array | undefined;
  entries: number;
}

function encodeCursor(cursor: Cursor): Uint8Array {
  const out = new Uint8Array(cursorBytes);
  out[0] = cursorVersion;
  out[1] = cursor.nextKey === undefined ? 1 : 0;
  out.set(cursor.partialRoot, 2);
  if (cursor.nextKey !== undefined) out.set(cursor.nextKey, 2 + stateHashBytes);
  new DataView(out.buffer).setBigUint64(2 + stateHashBytes + stateKeyBytes, BigInt(cursor.entries));
  return out;
}

function decodeCursor(bytes: Uint8Array, root: Uint8Array): Cursor {
  if (bytes.length !== cursorBytes || bytes[0] !== cursorVersion || bytes[1]! > 1) {
    throw new SnapshotError('import-state', `snapshot cursor row for ${toHex(root)} does not decode (${bytes.length} bytes)`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    partialRoot: bytes.slice(2, 2 + stateHashBytes),
    nextKey: bytes[1] === 1 ? undefined : bytes.slice(2 + stateHashBytes, 2 + stateHashBytes + stateKeyBytes),
    entries: Number(view.getBigUint64(2 + stateHashBytes + stateKeyBytes)),
  };
}

/** Opens (or resumes, from its cursor row) the import of the state `root` into `store`. */
export function createSnapshotImport(options: SnapshotImportOptions): SnapshotImport {
  const { store } = options;
  const root = options.root.slice();
  const hash = options.hash ?? defaultStateHash;
  if (root.length !== stateHashBytes) throw new SnapshotError('import-state', `snapshot root has ${root.length} bytes, expected 32`);
  const trie = createStateTrie({ store, prefix: options.prefix, hash });
  const cursorKey = snapshotCursorKey(root);
  const saved = store.get(cursorKey);
  let cursor: Cursor = saved === undefined
    ? { partialRoot: emptyStateRoot.slice(), nextKey: new Uint8Array(stateKeyBytes), entries: 0 }
    : decodeCursor(saved, root);
  let busy = false;

  return {
    root,
    get nextKey() {
      return cursor.nextKey?.slice();
    },
    get entries() {
      return cursor.entries;
    },
    async apply(chunk) {
      if (busy) throw new SnapshotError('import-state', 'a snapshot chunk is already being applied');
      const startKey = cursor.nextKey;
      if (startKey === undefined) throw new SnapshotError('import-state', 'the snapshot import already has its last chunk');
      busy = true;
      try {
        const { nextKey } = verifySnapshotChunk(root, startKey, chunk, hash);
        const updates = new Map<string, Uint8Array>();
        for (const leaf of chunk.leaves) updates.set(toHex(leaf.key), leaf.value);
        const update = trie.applyUpdates(cursor.partialRoot, updates);
        const next: Cursor = { partialRoot: update.root, nextKey, entries: cursor.entries + chunk.leaves.length };
        await store.write([...update.ops, { type: 'put', key: cursorKey, value: encodeCursor(next) }]);
        cursor = next;
      } finally {
        busy = false;
      }
    },
    async finish() {
      if (cursor.nextKey !== undefined) {
        throw new SnapshotError('import-state', `the snapshot import is not done: the next chunk starts at ${toHex(cursor.nextKey)}`);
      }
      // Every chunk was verified against `root` and together they cover the whole key space, so this is a bug check.
      if (!equalBytes(cursor.partialRoot, root)) {
        throw new SnapshotError('import-state', `rebuilt state root ${toHex(cursor.partialRoot)} is not ${toHex(root)}`);
      }
      await store.write([{ type: 'del', key: cursorKey }]);
      return root.slice();
    },
  };
}
