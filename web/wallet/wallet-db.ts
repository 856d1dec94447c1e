/**
 * The wallet's IndexedDB (idb): sealed keystores (src/wallet/keystore.ts JSON, the same format the node writes to
 * files — nothing in it is readable without the password) and the wallet's own history rows. The database lives
 * in the page's origin: the wallet page and the widget's iframe page are both served by the node, so keys stay in
 * the node origin's storage (docs/widget.md).
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { KeystoreFile } from '../../src/wallet/keystore.ts';
import { walletHistoryRowsMax } from './wallet-web-limits.ts';

export interface HistoryRow {
  readonly wallet: string;
  readonly hash: string;
  readonly type: 'incoming' | 'outgoing' | 'self';
  readonly address: string;
  readonly counterparty: string;
  readonly amount: string;
  readonly status: string;
  readonly timeMs: number;
  /**
   * Inclusion proof status once the node placed it in a block: 'verified' (the Merkle path reached the tx root of
   * a header the light node verified; amount and counterparty then come from the transaction's own bytes) or
   * 'failed'. Absent while pending or not yet checked.
   */
  readonly proof?: 'verified' | 'failed';
  /** The verified carrying block, or why the proof failed. */
  readonly proofNote?: string;
}

interface WalletSchema extends DBSchema {
  keystores: { key: string; value: KeystoreFile };
  history: { key: [string, string]; value: HistoryRow; indexes: { byWallet: string } };
}

export interface WalletDb {
  keystoreNames(): Promise<string[]>;
  loadKeystore(name: string): Promise<KeystoreFile | undefined>;
  saveKeystore(file: KeystoreFile): Promise<void>;
  history(wallet: string): Promise<HistoryRow[]>;
  putHistory(row: HistoryRow): Promise<void>;
}

export const walletDbName = 'weft-wallet';

export async function openWalletDb(name: string = walletDbName): Promise<WalletDb> {
  const db: IDBPDatabase<WalletSchema> = await openDB<WalletSchema>(name, 1, {
    upgrade(up) {
      up.createObjectStore('keystores', { keyPath: 'name' });
      up.createObjectStore('history', { keyPath: ['wallet', 'hash'] }).createIndex('byWallet', 'wallet');
    },
  });
  return {
    keystoreNames: async () => (await db.getAllKeys('keystores')).map(String),
    loadKeystore: (name) => db.get('keystores', name),
    async saveKeystore(file) {
      await db.put('keystores', file);
    },
    async history(wallet) {
      const rows = await db.getAllFromIndex('history', 'byWallet', wallet);
      return rows.sort((a, b) => b.timeMs - a.timeMs);
    },
    async putHistory(row) {
      await db.put('history', row);
      const rows = await db.getAllFromIndex('history', 'byWallet', row.wallet);
      if (rows.length > walletHistoryRowsMax) {
        const oldest = rows.sort((a, b) => a.timeMs - b.timeMs).slice(0, rows.length - walletHistoryRowsMax);
        for (const old of oldest) await db.delete('history', [old.wallet, old.hash]);
      }
    },
  };
}

/**
 * A WalletDb in memory only, for when the browser refuses IndexedDB to this context (a third-party iframe with
 * third-party storage blocked). The wallet then lasts as long as the page; keys still never leave this origin's
 * JavaScript realm. The widget says so to the user (docs/widget.md "Storage").
 */
export function createMemoryWalletDb(): WalletDb {
  const keystores = new Map<string, KeystoreFile>();
  const rows = new Map<string, HistoryRow>();
  return {
    keystoreNames: async () => [...keystores.keys()],
    loadKeystore: async (name) => keystores.get(name),
    async saveKeystore(file) {
      keystores.set(file.name, file);
    },
    history: async (wallet) => [...rows.values()].filter((r) => r.wallet === wallet).sort((a, b) => b.timeMs - a.timeMs),
    async putHistory(row) {
      rows.set(`${row.wallet}\n${row.hash}`, row);
    },
  };
}
