/**
 * The wallet's history without owner credentials: get_transaction_history needs the read_balance scope
 * (docs/auth.md), which a tab does not hold. So the tab keeps its own rows in IndexedDB — transactions it sent, and
 * those the public `address_transactions` subscription announces — and refreshes their status with the public
 * get_transaction. Once a row is in a block, its inclusion is proven against the light node's verified headers
 * (web/light/verified-transaction.ts) and its amount and counterparty are re-read from the transaction's bytes:
 * what the node's events said is only a hint until then.
 */
import { encodeAddress } from '../../src/crypto/address.ts';
import { formatUnits } from '../../src/crypto/amount.ts';
import { kindOf } from '../../src/kinds/registry.ts';
import type { LightChain } from '../../src/light/light-chain.ts';
import { fetchVerifiedTransaction } from '../light/verified-transaction.ts';
import type { HistoryRow, WalletDb } from './wallet-db.ts';
import { getTransaction } from '../lib/actions/get-transaction.ts';
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
    ...known,
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

const inBlock = (status: string): boolean => status === 'confirmed' || status === 'final';

/** The row with its inclusion proven (or failed) against the light node's headers. */
async function proveRow(link: NodeClient, chain: LightChain, row: HistoryRow): Promise<HistoryRow> {
  const result = await fetchVerifiedTransaction(chain, link, row.hash);
  if (!result.ok) return { ...row, proof: 'failed', proofNote: `${result.error.reason}: ${result.error.message}` };
  const { tx, blockHash, blockHeight } = result.transaction;
  // The kind (src/kinds/) says who sent, who received and what moved: one reading for every kind of transaction.
  const kind = kindOf(tx);
  const parties = kind.parties(tx);
  const counterparty = parties.find((p) => p.role === (row.type === 'incoming' ? 'sender' : 'recipient'));
  return {
    ...row,
    amount: formatUnits(kind.spend(tx).amount),
    counterparty: counterparty ? encodeAddress(chain.params.hrp, counterparty.address) : row.counterparty,
    proof: 'verified',
    proofNote: `in verified block ${blockHash} (height ${blockHeight})`,
  };
}

/**
 * Re-reads the status of rows not yet final (the newest first, bounded per refresh), and proves the inclusion of
 * rows in a block that have no verified proof yet.
 */
export async function refreshHistory(link: NodeClient, chain: LightChain, db: WalletDb, wallet: string): Promise<HistoryRow[]> {
  const rows = await db.history(wallet);
  const open = rows.filter((row) => row.status === 'pending' || (inBlock(row.status) && row.proof !== 'verified')).slice(0, walletPendingChecksMax);
  for (const row of open) {
    try {
      let next = row;
      if (row.status !== 'final') {
        const tx = await getTransaction(link, { hash: row.hash });
        next = { ...row, status: tx.status };
      }
      if (inBlock(next.status) && next.proof !== 'verified') next = await proveRow(link, chain, next);
      if (next !== row) await db.putHistory(next);
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
