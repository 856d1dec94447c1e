/**
 * The private account's IndexedDB (its own database beside wallet-db.ts's, so neither schema's version moves the
 * other): the account's outputs and key images, the scan cursor, the decoy pool, and the tab's pending private
 * sends. Everything kept is public chain data plus which outputs are the wallet's; amounts, masks and one-time
 * secrets are re-derived from the keys at unlock (private-scan.ts), so the store holds no secret and no amount.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { DecoyRow, PrivateOutputRow } from './private-scan.ts';
import { privateDecoysMax } from './private-limits.ts';

export interface ScanCursor {
  readonly wallet: string;
  /** The stealth address scanned for (a restored wallet of another account starts afresh). */
  readonly account: string;
  /** Selected-chain height scanned through, and that block's hash (a different hash there means a reorganisation). */
  readonly height: number;
  readonly hash: string;
}

export interface PendingPrivateSend {
  readonly wallet: string;
  readonly hash: string;
  readonly keyImages: readonly string[];
  readonly timeMs: number;
  /** Units, as text: what left the account (amount + fee), shown until the scan finds the spend. */
  readonly outflow: string;
}

interface PrivateSchema extends DBSchema {
  outputs: { key: [string, string]; value: PrivateOutputRow; indexes: { byWallet: string } };
  decoys: { key: [string, string]; value: DecoyRow; indexes: { byWallet: string } };
  cursors: { key: string; value: ScanCursor };
  sends: { key: [string, string]; value: PendingPrivateSend; indexes: { byWallet: string } };
}

export interface PrivateDb {
  cursor(wallet: string): Promise<ScanCursor | undefined>;
  outputs(wallet: string): Promise<PrivateOutputRow[]>;
  decoys(wallet: string): Promise<DecoyRow[]>;
  sends(wallet: string): Promise<PendingPrivateSend[]>;
  /** One scanned stretch of blocks, written at once with the cursor that says it was scanned. */
  saveScan(cursor: ScanCursor, outputs: readonly PrivateOutputRow[], decoys: readonly DecoyRow[]): Promise<void>;
  /** Rows re-written after their records were proven (private-verify.ts). */
  putProven(outputs: readonly PrivateOutputRow[], decoys: readonly DecoyRow[]): Promise<void>;
  putSend(send: PendingPrivateSend): Promise<void>;
  deleteSend(wallet: string, hash: string): Promise<void>;
  /** Forgets a wallet's scan (another account, or a rescan). */
  clear(wallet: string): Promise<void>;
}

const privateDbName = 'weft-wallet-private';

export async function openPrivateDb(name: string = privateDbName): Promise<PrivateDb> {
  const db: IDBPDatabase<PrivateSchema> = await openDB<PrivateSchema>(name, 1, {
    upgrade(up) {
      up.createObjectStore('outputs', { keyPath: ['wallet', 'oneTimeKey'] }).createIndex('byWallet', 'wallet');
      up.createObjectStore('decoys', { keyPath: ['wallet', 'oneTimeKey'] }).createIndex('byWallet', 'wallet');
      up.createObjectStore('cursors', { keyPath: 'wallet' });
      up.createObjectStore('sends', { keyPath: ['wallet', 'hash'] }).createIndex('byWallet', 'wallet');
    },
  });
  return {
    cursor: (wallet) => db.get('cursors', wallet),
    outputs: (wallet) => db.getAllFromIndex('outputs', 'byWallet', wallet),
    decoys: (wallet) => db.getAllFromIndex('decoys', 'byWallet', wallet),
    sends: (wallet) => db.getAllFromIndex('sends', 'byWallet', wallet),
    async saveScan(cursor, outputs, decoys) {
      const tx = db.transaction(['cursors', 'outputs', 'decoys'], 'readwrite');
      for (const row of outputs) void tx.objectStore('outputs').put(row);
      for (const row of decoys) void tx.objectStore('decoys').put(row);
      void tx.objectStore('cursors').put(cursor);
      await tx.done;
      // The decoy pool keeps the newest outputs only: older ones drop out first.
      const pool = await db.getAllFromIndex('decoys', 'byWallet', cursor.wallet);
      if (pool.length > privateDecoysMax) {
        const oldest = pool.sort((a, b) => a.daaScore - b.daaScore).slice(0, pool.length - privateDecoysMax);
        const trim = db.transaction('decoys', 'readwrite');
        for (const row of oldest) void trim.store.delete([row.wallet, row.oneTimeKey]);
        await trim.done;
      }
    },
    async putProven(outputs, decoys) {
      const tx = db.transaction(['outputs', 'decoys'], 'readwrite');
      for (const row of outputs) void tx.objectStore('outputs').put(row);
      for (const row of decoys) void tx.objectStore('decoys').put(row);
      await tx.done;
    },
    async putSend(send) {
      await db.put('sends', send);
    },
    async deleteSend(wallet, hash) {
      await db.delete('sends', [wallet, hash]);
    },
    async clear(wallet) {
      const tx = db.transaction(['cursors', 'outputs', 'decoys', 'sends'], 'readwrite');
      void tx.objectStore('cursors').delete(wallet);
      for (const store of ['outputs', 'decoys', 'sends'] as const) {
        for (const key of await tx.objectStore(store).index('byWallet').getAllKeys(wallet)) void tx.objectStore(store).delete(key);
      }
      await tx.done;
    },
  };
}

/**
 * A PrivateDb in memory only, for a context the browser refuses IndexedDB (as wallet-db.ts's memory store) and for
 * tests: the same rules, the decoy pool trimmed to its newest privateDecoysMax.
 */
export function createMemoryPrivateDb(): PrivateDb {
  const cursors = new Map<string, ScanCursor>();
  const outputs = new Map<string, PrivateOutputRow>();
  const decoys = new Map<string, DecoyRow>();
  const sends = new Map<string, PendingPrivateSend>();
  const key = (wallet: string, id: string) => `${wallet}\n${id}`;
  const of = <T extends { wallet: string }>(map: Map<string, T>, wallet: string) => [...map.values()].filter((r) => r.wallet === wallet);
  return {
    cursor: async (wallet) => cursors.get(wallet),
    outputs: async (wallet) => of(outputs, wallet),
    decoys: async (wallet) => of(decoys, wallet),
    sends: async (wallet) => of(sends, wallet),
    async saveScan(cursor, found, seen) {
      for (const row of found) outputs.set(key(row.wallet, row.oneTimeKey), row);
      for (const row of seen) decoys.set(key(row.wallet, row.oneTimeKey), row);
      cursors.set(cursor.wallet, cursor);
      const pool = of(decoys, cursor.wallet).sort((a, b) => a.daaScore - b.daaScore);
      for (const row of pool.slice(0, Math.max(0, pool.length - privateDecoysMax))) decoys.delete(key(row.wallet, row.oneTimeKey));
    },
    async putProven(found, seen) {
      for (const row of found) outputs.set(key(row.wallet, row.oneTimeKey), row);
      for (const row of seen) decoys.set(key(row.wallet, row.oneTimeKey), row);
    },
    async putSend(send) {
      sends.set(key(send.wallet, send.hash), send);
    },
    async deleteSend(wallet, hash) {
      sends.delete(key(wallet, hash));
    },
    async clear(wallet) {
      cursors.delete(wallet);
      for (const map of [outputs, decoys, sends] as Map<string, { wallet: string }>[]) for (const [k, r] of map) if (r.wallet === wallet) map.delete(k);
    },
  };
}
