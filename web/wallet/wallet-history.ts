/**
 * The wallet's history without owner credentials: get_transaction_history needs the read_balance scope
 * (docs/auth.md), which a tab does not hold. So the tab keeps its own rows in IndexedDB — transactions it sent, and
 * those the public `address_transactions` subscription announces — and refreshes their status with the public
 * get_transaction.
 */
import type { HistoryRow, WalletDb } from './wallet-db.ts';
import type { NodeClient } from '../lib/node-client.ts';
import { walletPendingChecksMax } from './wallet-web-limits.ts';

interface AddressEvent {
  readonly address: string;
  readonly hash: string;
  readonly type: 'incoming' | 'outgoing';
  readonly amount: number;
  readonly status: string;
}

/** Records an address_transactions event (docs/api.md) as a history row. */
export async function recordAddressEvent(db: WalletDb, wallet: string, event: unknown): Promise<void> {
  const e = event as AddressEvent;
  if (typeof e?.hash !== 'string' || typeof e.address !== 'string') return;
  const known = (await db.history(wallet)).find((row) => row.hash === e.hash);
  await db.putHistory({
    wallet,
    hash: e.hash,
    type: known?.type ?? e.type,
    address: e.address,
    counterparty: known?.counterparty ?? '',
    amount: known?.amount ?? String(e.amount),
    status: e.status,
    timeMs: known?.timeMs ?? Date.now(),
  });
}

/** Re-reads the status of rows not yet final (the newest first, bounded per refresh). */
export async function refreshPending(link: NodeClient, db: WalletDb, wallet: string): Promise<HistoryRow[]> {
  const rows = await db.history(wallet);
  const open = rows.filter((row) => row.status === 'pending' || row.status === 'confirmed').slice(0, walletPendingChecksMax);
  for (const row of open) {
    try {
      const tx = await link.call<{ status: string }>('get_transaction', { hash: row.hash });
      if (tx.status !== row.status) await db.putHistory({ ...row, status: tx.status });
    } catch {
      // Not known to the node (yet, or any more): leave the row; the next refresh asks again.
    }
  }
  return db.history(wallet);
}

/** How many of this wallet's sends from `address` the node has not accepted yet (for the next nonce). */
export function pendingSends(rows: readonly HistoryRow[], address: string): number {
  return rows.filter((row) => row.address === address && row.type !== 'incoming' && row.status === 'pending').length;
}
