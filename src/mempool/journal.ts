/**
 * The mempool journal (docs/mempool.md "Durability"): the bytes of every transaction in the pool, in admission order,
 * in the node's store. A transaction's row is durable before its hash is acknowledged to the client that sent it, so
 * a kill -9 loses no acknowledged transaction: at start the node reads the journal back and readmits every row
 * through the ordinary admission rules against the chain it reopened (what was accepted or became invalid meanwhile
 * is refused and forgotten). Rows of transactions that leave the pool are deleted; a delete lost to a crash only
 * costs one refused readmission.
 *
 *   key   = 'P' ‖ seq u64be   (admission order survives restarts: seq continues after the highest stored one)
 *   value = the transaction's canonical bytes
 */
import type { KvOp, KvStore } from '../storage/kv.ts';
import { toHex } from '../util/bytes.ts';

const journalTable = 0x50;
const prefix = Uint8Array.of(journalTable);

function keyOf(seq: number): Uint8Array {
  const key = new Uint8Array(9);
  key[0] = journalTable;
  new DataView(key.buffer).setBigUint64(1, BigInt(seq));
  return key;
}

interface JournaledTransaction {
  readonly hash: Uint8Array;
  readonly bytes: Uint8Array;
}

export interface MempoolJournal {
  /** Every journaled transaction, oldest first (read once, at start, before any `append`). */
  load(hashOf: (bytes: Uint8Array) => Uint8Array): JournaledTransaction[];
  /** Journals a transaction; resolves once its row is durable. Appending a journaled hash again is a no-op. */
  append(hash: Uint8Array, bytes: Uint8Array): Promise<void>;
  /** Forgets a transaction that left the pool (accepted, replaced, evicted, expired, invalidated, refused at start). */
  remove(hash: Uint8Array): Promise<void>;
  /** Resolves once `hash`'s row is durable (at once when it has none pending). */
  durable(hash: Uint8Array): Promise<void>;
  /** Rows held. */
  readonly size: number;
}

/**
 * Rows written in the same turn go to the store as one batch: under load a turn admits or removes hundreds of
 * transactions, and one store write each (a transaction callback and a promise apiece) was a quarter of the pool's
 * per-block upkeep (issue 29). Every caller gets the batch's durability.
 */
function createTurnBatcher(store: KvStore): (op: KvOp) => Promise<void> {
  let open: { readonly ops: KvOp[]; readonly written: Promise<void> } | undefined;
  return (op) => {
    if (open === undefined) {
      const ops: KvOp[] = [];
      const written = new Promise<void>((resolve) =>
        queueMicrotask(() => {
          open = undefined;
          resolve(store.write(ops));
        }),
      );
      open = { ops, written };
    }
    open.ops.push(op);
    return open.written;
  };
}

export function createMempoolJournal(store: KvStore): MempoolJournal {
  /** Row key and pending write of each journaled transaction, by hex hash. */
  const rows = new Map<string, { readonly key: Uint8Array; written: Promise<void> }>();
  const write = createTurnBatcher(store);
  let nextSeq = 0;
  return {
    load(hashOf) {
      const out: JournaledTransaction[] = [];
      for (const [key, bytes] of store.entries({ prefix })) {
        const hash = hashOf(bytes);
        rows.set(toHex(hash), { key: key.slice(), written: Promise.resolve() });
        nextSeq = Number(new DataView(key.buffer, key.byteOffset + 1, 8).getBigUint64(0)) + 1;
        out.push({ hash, bytes: bytes.slice() });
      }
      return out;
    },
    append(hash, bytes) {
      const id = toHex(hash);
      const known = rows.get(id);
      if (known) return known.written;
      const key = keyOf(nextSeq++);
      const row = { key, written: write({ type: 'put', key, value: bytes }) };
      rows.set(id, row);
      return row.written;
    },
    remove(hash) {
      const id = toHex(hash);
      const row = rows.get(id);
      if (row === undefined) return Promise.resolve();
      rows.delete(id);
      // Deleting after the put settled keeps the two in order even on a store that reorders concurrent batches.
      return row.written.then(() => write({ type: 'del', key: row.key }));
    },
    durable(hash) {
      return rows.get(toHex(hash))?.written ?? Promise.resolve();
    },
    get size() {
      return rows.size;
    },
  };
}
