/**
 * The wallet's IndexedDB (idb): sealed keystores (src/wallet/keystore.ts JSON, the same format the node writes to
 * files — nothing in it is readable without the password) and the wallet's own history rows. The database lives
 * in the page's origin: the wallet page and the widget's iframe page are both served by the node, so keys stay in
 * the node origin's storage (docs/widget.md).
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { KeystoreFile } from '../../src/wallet/keystore.ts';
import { walletHistoryRowsMax, walletHistoryUnprovenRowsMax } from './wallet-web-limits.ts';

export interface HistoryRow {
  readonly wallet: string;
  readonly hash: string;
  /** Direction for `address`: the node's hint while unproven, read from the transaction's bytes once proven. */
  readonly type: 'incoming' | 'outgoing' | 'self';
  readonly address: string;
  readonly counterparty: string;
  readonly amount: string;
  /**
   * What this tab proved (docs/wallet.md "What the tab proves"): 'pending' until acceptance is proven, then
   * 'confirmed', and 'final' once the block that proved it is past the finality depth below the tab's tip;
   * 'unconfirmed' when it is in a block but its acceptance cannot be proven (the sender's nonce had passed it before
   * this tab watched). Never the node's word.
   */
  readonly status: string;
  /** What the node last said (get_transaction, address events): a hint, shown in the status cell's title only. */
  readonly nodeStatus?: string;
  /** Signed and sent by this tab (its nonce counts toward the next one; nothing the node says can set this). */
  readonly own?: boolean;
  /**
   * The payer and nonce the acceptance rule watches, and whether a current proof showed the payer's account nonce at
   * or below it (then its passing proves a transaction with that nonce accepted).
   */
  readonly payer?: string;
  readonly payerNonce?: string;
  readonly nonceSeenBelow?: boolean;
  /** The block whose proven state first showed the payer's nonce past this transaction's. */
  readonly acceptedAt?: { readonly hash: string; readonly height: number; readonly timestampMs: number };
  readonly timeMs: number;
  /**
   * What a send of this tab takes from `address` (amount + fee), in base units as decimal text: "available" counts
   * it out until the payer's proven nonce passes the row's (then the proven balance has it).
   */
  readonly spentUnits?: string;
  /**
   * 'verified': the bytes hash to the row's hash, a Merkle path reaches the tx root of a header the light node
   * verified, the bytes name the row's address as a party, and acceptance is proven; 'included': all that but
   * acceptance (yet); 'failed': the inclusion proof failed. Absent while not in a block.
   */
  readonly proof?: 'verified' | 'included' | 'failed';
  /** The verified carrying block, or why the proof failed. */
  readonly proofNote?: string;
}

/** A row the tab signed itself, or proved in a block and bound to its address: kept apart from unproven rows. */
const isProvenRow = (row: HistoryRow): boolean => row.own === true || row.proof === 'verified' || row.proof === 'included';

/**
 * The rows to delete so that at most walletHistoryRowsMax proven rows and walletHistoryUnprovenRowsMax unproven
 * ones remain (the oldest of each go first): a flood of events the node invents fills only the unproven share and
 * can never evict proven history.
 */
export function rowsToEvict(rows: readonly HistoryRow[]): HistoryRow[] {
  const oldestFirst = [...rows].sort((a, b) => a.timeMs - b.timeMs);
  const proven = oldestFirst.filter(isProvenRow);
  const unproven = oldestFirst.filter((row) => !isProvenRow(row));
  return [
    ...proven.slice(0, Math.max(0, proven.length - walletHistoryRowsMax)),
    ...unproven.slice(0, Math.max(0, unproven.length - walletHistoryUnprovenRowsMax)),
  ];
}

/**
 * The row to store when `incoming` is written over `stored`. A row the tab signed carries what only the signer knows
 * (that it is its own, the payer's nonce, what it spends); a write that lacks it — an address event or a re-check
 * that read the node's row before the tab's own row was stored — must not erase it, or "available" would stop
 * counting a pending send out and the next nonce would be reused. Everything else comes from the newer write.
 */
export function mergeHistoryRow(stored: HistoryRow | undefined, incoming: HistoryRow): HistoryRow {
  if (stored?.own !== true || incoming.own === true) return incoming;
  const { own, payer, payerNonce, nonceSeenBelow, spentUnits, counterparty, amount, type } = stored;
  return { ...incoming, own, payer, payerNonce, nonceSeenBelow, spentUnits, counterparty, amount, type };
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
  deleteHistory(wallet: string, hash: string): Promise<void>;
}

const walletDbName = 'weft-wallet';

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
      // Read and write in one transaction: no other write can land between the merge's read and its put.
      const tx = db.transaction('history', 'readwrite');
      await tx.store.put(mergeHistoryRow(await tx.store.get([row.wallet, row.hash]), row));
      await tx.done;
      for (const old of rowsToEvict(await db.getAllFromIndex('history', 'byWallet', row.wallet))) await db.delete('history', [old.wallet, old.hash]);
    },
    async deleteHistory(wallet, hash) {
      await db.delete('history', [wallet, hash]);
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
      const key = `${row.wallet}\n${row.hash}`;
      rows.set(key, mergeHistoryRow(rows.get(key), row));
      for (const old of rowsToEvict([...rows.values()].filter((r) => r.wallet === row.wallet))) rows.delete(`${old.wallet}\n${old.hash}`);
    },
    async deleteHistory(wallet, hash) {
      rows.delete(`${wallet}\n${hash}`);
    },
  };
}
