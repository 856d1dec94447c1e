/**
 * The light node's LightHeaderStore (src/light/light-store.ts) on IndexedDB through idb: one database per network,
 * one object store of batches — each append is one record keyed by its first seq, the headers packed into one byte
 * string (src/light/header-batch.ts) — so a reload replays them instead of downloading again. One record per
 * header cost more than verifying it (docs/performance.md). What comes back from IndexedDB is checked for shape
 * before use (docs/style.md habit 4: IndexedDB reads are input).
 *
 * A tab that joined at a pruning point keeps the join (its proof and trusted blocks, src/light/light-store.ts) as the
 * one record of store `join`; its batches are the headers verified above it. Version 3 added that store: a version 2
 * database keeps its batches (a chain from genesis) and opens as before.
 *
 * One writer per database: tabs of one origin share it, and two tabs appending their own batches would collide on
 * keys. The tab holding the Web Lock named after the database writes; any other tab is a reader — it resumes from
 * what the writer stored and keeps the headers it verifies after that in memory.
 */
import { openDB, type IDBPDatabase } from 'idb';
import { HeaderBatchError, packHeaderBatch, unpackHeaderBatch } from '../../src/light/header-batch.ts';
import type { LightHeaderStore, StoredHeader, StoredJoin } from '../../src/light/light-store.ts';

const storeName = 'batches';
const joinStoreName = 'join';
const joinKey = 'join';
/** 1 kept one record per header (store `headers`); an upgrade drops it and the tab syncs again. 3 added `join`. */
const dbVersion = 3;

interface BatchRow {
  readonly firstSeq: number;
  readonly packed: Uint8Array;
}

function lightDbName(network: string): string {
  return `weft-light-${network}`;
}

/** Shape only: the chain decodes the proof and checks the trusted blocks again (src/light/light-join.ts). */
function isStoredJoin(row: unknown): row is StoredJoin {
  const r = row as StoredJoin;
  return r?.pruningPoint instanceof Uint8Array && r.proof instanceof Uint8Array && Array.isArray(r.blocks) &&
    r.blocks.every((b) => b?.header instanceof Uint8Array && Number.isSafeInteger(b.height) && typeof b.ghostdag === 'object' && b.ghostdag !== null);
}

function isBatchRow(row: unknown): row is BatchRow {
  const r = row as BatchRow;
  return Number.isSafeInteger(r?.firstSeq) && r.firstSeq >= 1 && r.packed instanceof Uint8Array;
}

export type IdbStoreRole = 'writer' | 'reader';

/** True when this tab holds (from now until it closes) the database's write lock. */
function claimWriter(name: string): Promise<boolean> {
  const locks = globalThis.navigator?.locks;
  if (!locks) return Promise.resolve(true);
  return new Promise((resolve) => {
    void locks.request(`${name}-writer`, { ifAvailable: true }, (lock) => {
      resolve(lock !== null);
      // Held for the page's life: the browser releases it when the tab goes.
      return lock ? new Promise<never>(() => undefined) : undefined;
    });
  });
}

/**
 * A reader's view: loads what the writer stored, never writes; `clear` only forgets it for this tab, and a join of
 * its own lives in memory (the next reload reads the writer's again).
 */
function readerOf(store: LightHeaderStore): LightHeaderStore {
  let forgotten = false;
  let ownJoin: StoredJoin | undefined;
  return {
    load: () => (forgotten ? Promise.resolve([]) : store.load()),
    append: () => Promise.resolve(),
    loadJoin: () => (forgotten ? Promise.resolve(ownJoin) : store.loadJoin()),
    saveJoin(join) {
      forgotten = true;
      ownJoin = join;
      return Promise.resolve();
    },
    clear() {
      forgotten = true;
      ownJoin = undefined;
      return Promise.resolve();
    },
  };
}

export async function openIdbHeaderStore(network: string): Promise<{ store: LightHeaderStore; role: IdbStoreRole }> {
  const store = await openSharedStore(network);
  return (await claimWriter(lightDbName(network))) ? { store, role: 'writer' } : { store: readerOf(store), role: 'reader' };
}

async function openSharedStore(network: string): Promise<LightHeaderStore> {
  const db: IDBPDatabase = await openDB(lightDbName(network), dbVersion, {
    upgrade(database, oldVersion) {
      if (oldVersion < 2) {
        for (const name of Array.from(database.objectStoreNames)) database.deleteObjectStore(name);
        database.createObjectStore(storeName, { keyPath: 'firstSeq' });
      }
      if (oldVersion < 3) database.createObjectStore(joinStoreName);
    },
  });
  const clearAll = async (): Promise<void> => {
    const tx = db.transaction([storeName, joinStoreName], 'readwrite');
    await Promise.all([tx.objectStore(storeName).clear(), tx.objectStore(joinStoreName).clear(), tx.done]);
  };
  const dropAll = async (): Promise<StoredHeader[]> => {
    await clearAll();
    return [];
  };
  return {
    async load() {
      const rows = (await db.getAll(storeName)) as unknown[];
      const out: StoredHeader[] = [];
      for (const row of rows) {
        // Malformed or non-contiguous batches are not ours to repair: start over (the tab syncs again).
        if (!isBatchRow(row) || row.firstSeq !== out.length + 1) return dropAll();
        try {
          out.push(...unpackHeaderBatch(row.packed, row.firstSeq));
        } catch (error) {
          if (error instanceof HeaderBatchError) return dropAll();
          throw error;
        }
      }
      return out;
    },
    async append(headers) {
      if (headers.length === 0) return;
      await db.put(storeName, { firstSeq: headers[0]!.seq, packed: packHeaderBatch(headers) } satisfies BatchRow);
    },
    async loadJoin() {
      const row = (await db.get(joinStoreName, joinKey)) as unknown;
      if (row === undefined) return undefined;
      if (!isStoredJoin(row)) {
        await clearAll();
        return undefined;
      }
      return row;
    },
    async saveJoin(join) {
      // One transaction: the headers of the chain before and the new join never coexist on disk.
      const tx = db.transaction([storeName, joinStoreName], 'readwrite');
      await Promise.all([tx.objectStore(storeName).clear(), tx.objectStore(joinStoreName).put(join, joinKey), tx.done]);
    },
    clear: clearAll,
  };
}
