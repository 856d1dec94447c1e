/**
 * The escrows this browser's wallets created (as client), in IndexedDB: database `weft-wallet-escrows`, store
 * `escrows`, keyed by [wallet, escrow id]. No RPC lists a client's escrows and get_transaction_history needs
 * credentials a tab lacks, so the wallet remembers the ids it created; their status is never stored as truth — the
 * list reads each record again with get_escrow and checks it against a verified header (wallet-escrow.ts).
 *
 * A database of its own beside `weft-wallet` (keystores, history; wallet-db.ts) so its schema is versioned apart from
 * the keystores'. Nothing in it is secret (ids, addresses, amounts: all public on chain). Bounded per wallet
 * (walletEscrowRowsMax): past it, the oldest settled rows go first.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { walletEscrowRowsMax } from './wallet-web-limits.ts';

export interface EscrowRow {
  readonly wallet: string;
  /** 0x-hex escrow id (docs/settlement.md "Escrows": BLAKE3 of the client and its nonce). */
  readonly escrowId: string;
  /** The escrow_create transaction's hash; absent for an escrow added to the list by its id. */
  readonly createHash?: string;
  readonly client: string;
  readonly agent: string;
  /** Coins as decimal text. */
  readonly amount: string;
  /** The task as typed (text, or the hash). */
  readonly task: string;
  readonly timeoutDaaScore: number;
  readonly timeMs: number;
  /** The reclaim this wallet sent, while the list has not yet seen the escrow Refunded. */
  readonly reclaimHash?: string;
  /** The last verified status, to keep settled rows longer than open ones only (never shown as verified). */
  readonly lastStatus?: string;
}

interface EscrowSchema extends DBSchema {
  escrows: { key: [string, string]; value: EscrowRow; indexes: { byWallet: string } };
}

export interface EscrowDb {
  escrows(wallet: string): Promise<EscrowRow[]>;
  putEscrow(row: EscrowRow): Promise<void>;
}

const escrowDbName = 'weft-wallet-escrows';

const newestFirst = (rows: EscrowRow[]): EscrowRow[] => rows.sort((a, b) => b.timeMs - a.timeMs);
const settled = (row: EscrowRow): boolean => row.lastStatus === 'Claimed' || row.lastStatus === 'Refunded';

/** Rows of one wallet past the bound, to delete: settled ones oldest first, then open ones oldest first. */
function overflow(rows: readonly EscrowRow[]): EscrowRow[] {
  if (rows.length <= walletEscrowRowsMax) return [];
  const order = [...rows].sort((a, b) => Number(settled(b)) - Number(settled(a)) || a.timeMs - b.timeMs);
  return order.slice(0, rows.length - walletEscrowRowsMax);
}

export async function openEscrowDb(name: string = escrowDbName): Promise<EscrowDb> {
  const db: IDBPDatabase<EscrowSchema> = await openDB<EscrowSchema>(name, 1, {
    upgrade(up) {
      up.createObjectStore('escrows', { keyPath: ['wallet', 'escrowId'] }).createIndex('byWallet', 'wallet');
    },
  });
  return {
    escrows: async (wallet) => newestFirst(await db.getAllFromIndex('escrows', 'byWallet', wallet)),
    async putEscrow(row) {
      await db.put('escrows', row);
      for (const old of overflow(await db.getAllFromIndex('escrows', 'byWallet', row.wallet))) await db.delete('escrows', [old.wallet, old.escrowId]);
    },
  };
}

/** An EscrowDb in memory, where the browser refuses IndexedDB to this context (wallet-db.ts createMemoryWalletDb). */
export function createMemoryEscrowDb(): EscrowDb {
  const rows = new Map<string, EscrowRow>();
  return {
    escrows: async (wallet) => newestFirst([...rows.values()].filter((r) => r.wallet === wallet)),
    async putEscrow(row) {
      rows.set(`${row.wallet}\n${row.escrowId}`, row);
      for (const old of overflow([...rows.values()].filter((r) => r.wallet === row.wallet))) rows.delete(`${old.wallet}\n${old.escrowId}`);
    },
  };
}
