/**
 * The light node's LightHeaderStore (src/light/light-store.ts) on IndexedDB through idb: one object store of
 * verified headers keyed by seq, one database per network, so a reload replays them instead of downloading again.
 * What comes back from IndexedDB is checked for shape before use (STYLE.md: IndexedDB reads are input).
 */
import { openDB, type IDBPDatabase } from 'idb';
import type { LightHeaderStore, StoredHeader } from '../../src/light/light-store.ts';

const storeName = 'headers';
const dbVersion = 1;

export function lightDbName(network: string): string {
  return `weft-light-${network}`;
}

function isRow(row: unknown): row is StoredHeader {
  const r = row as StoredHeader;
  return typeof r?.seq === 'number' && r.hash instanceof Uint8Array && r.hash.length === 32 && r.bytes instanceof Uint8Array;
}

export async function openIdbHeaderStore(network: string): Promise<LightHeaderStore> {
  const db: IDBPDatabase = await openDB(lightDbName(network), dbVersion, {
    upgrade(database) {
      database.createObjectStore(storeName, { keyPath: 'seq' });
    },
  });
  return {
    async load() {
      const rows = (await db.getAll(storeName)) as unknown[];
      if (!rows.every(isRow)) throw new Error('the light node database holds malformed rows');
      return rows;
    },
    async append(headers) {
      const tx = db.transaction(storeName, 'readwrite');
      for (const h of headers) void tx.store.put({ seq: h.seq, hash: h.hash, bytes: h.bytes });
      await tx.done;
    },
    async clear() {
      await db.clear(storeName);
    },
  };
}
