/**
 * The wallet's history without owner credentials: get_transaction_history needs the read_balance scope
 * (docs/auth.md), which a tab does not hold. So the tab keeps its own rows in IndexedDB — transactions it sent, and
 * those the public `address_transactions` subscription announces — and proves each itself (history-proof.ts):
 * inclusion against the light node's verified headers, the row's address named by the transaction's own bytes
 * (direction, amount and counterparty read from them), and acceptance by the payer's proven nonce. What the node's
 * events and get_transaction say is only a hint: it picks which rows to look at, never what they show as verified.
 */
import type { LightChainView } from '../../src/light/light-chain.ts';
import { getTransaction } from '../../packages/client/src/index.ts';
import type { RpcClient } from '../lib/node-client.ts';
import { proveHistoryRow, watchPendingPayer } from './history-proof.ts';
import type { HistoryRow, WalletDb } from './wallet-db.ts';
import { walletPendingChecksMax } from './wallet-web-limits.ts';

interface AddressEvent {
  readonly address: string;
  readonly hash: string;
  readonly type: 'incoming' | 'outgoing';
  readonly amount: number;
  readonly status: string;
}

const hashPattern = /^0x[0-9a-f]{64}$/;

/**
 * Records an address_transactions event (docs/api.md) as a row to prove: a new row is `pending` whatever the event
 * says (its type and amount a hint until the bytes are proven); a known row only learns the node's new status.
 */
export async function recordAddressEvent(db: WalletDb, wallet: string, event: unknown): Promise<void> {
  const e = event as AddressEvent;
  if (typeof e?.hash !== 'string' || !hashPattern.test(e.hash) || typeof e.address !== 'string') return;
  const known = (await db.history(wallet)).find((row) => row.hash === e.hash);
  const nodeStatus = typeof e.status === 'string' ? e.status.slice(0, 20) : 'unknown';
  if (known) {
    if (known.nodeStatus !== nodeStatus) await db.putHistory({ ...known, nodeStatus });
    return;
  }
  await db.putHistory({
    wallet, hash: e.hash, type: e.type === 'outgoing' ? 'outgoing' : 'incoming', address: e.address, counterparty: '',
    amount: typeof e.amount === 'number' ? String(e.amount) : '', status: 'pending', nodeStatus, timeMs: Date.now(),
  });
}

/** Rows still to prove: not final, not given up on ('unconfirmed' is as far as the tab can get). */
const open = (row: HistoryRow): boolean => row.status !== 'final' && row.status !== 'unconfirmed';

async function refreshRow(link: RpcClient, chain: LightChainView, row: HistoryRow): Promise<HistoryRow | undefined> {
  if (row.proof === 'included' || row.proof === 'verified') return proveHistoryRow(link, chain, row);
  const tx = await getTransaction(link, { hash: row.hash });
  const next: HistoryRow = { ...row, nodeStatus: tx.status };
  if (tx.status === 'pending') {
    return watchPendingPayer(link, chain, next, tx.from, tx.nonce_exact !== undefined ? BigInt(tx.nonce_exact) : tx.nonce !== undefined ? BigInt(tx.nonce) : undefined);
  }
  return proveHistoryRow(link, chain, next);
}

/** Check order: the tab's own sends, then rows proven in a block, then the node's announcements (newest first in each). */
const checkRank = (row: HistoryRow): number => (row.own === true ? 0 : row.proof === 'included' || row.proof === 'verified' ? 1 : 2);

/**
 * Re-proves rows not yet final (bounded per refresh, own and proven rows first, so a flood of invented events cannot
 * starve them of checks); a row its bytes do not bind is deleted.
 */
export async function refreshHistory(link: RpcClient, chain: LightChainView, db: WalletDb, wallet: string): Promise<HistoryRow[]> {
  const rows = (await db.history(wallet)).filter(open).sort((a, b) => checkRank(a) - checkRank(b)).slice(0, walletPendingChecksMax);
  for (const row of rows) {
    try {
      const next = await refreshRow(link, chain, row);
      if (next === undefined) await db.deleteHistory(wallet, row.hash);
      else if (JSON.stringify(next) !== JSON.stringify(row)) await db.putHistory(next);
    } catch {
      // Not known to the node (yet, or any more): leave the row; the next refresh asks again.
    }
  }
  return db.history(wallet);
}

/**
 * How many of this tab's own sends from `address` still hold a nonce at or above the proven one (for the next nonce:
 * proven + this). Only rows this tab signed count — a pending row the node invents cannot move the nonce — and a
 * send whose nonce the proven state has passed no longer does.
 */
export function pendingSends(rows: readonly HistoryRow[], address: string): PendingOwn {
  const own = rows.filter((row) => row.own === true && row.address === address && row.acceptedAt === undefined && row.status !== 'unconfirmed');
  return (provenNonce) => own.filter((row) => row.payerNonce === undefined || BigInt(row.payerNonce) >= provenNonce).length;
}

/** The tab's own sends on top of a proven nonce: a count, or a count that depends on the proven nonce. */
export type PendingOwn = number | ((provenNonce: bigint) => number);

/** The next nonce: the proven account nonce plus the tab's own sends still holding one. */
export const nextNonce = (provenNonce: bigint, pendingOwn: PendingOwn): bigint =>
  provenNonce + BigInt(typeof pendingOwn === 'number' ? pendingOwn : pendingOwn(provenNonce));

/**
 * What the tab's own sends from `address` take that its proven state (at `provenNonce`) does not show yet: their
 * amount + fee, counted until the proven nonce passes theirs. "Available" is the proven balance minus this, so it
 * drops the moment a send is admitted instead of a block later.
 */
export function pendingSpent(rows: readonly HistoryRow[], address: string, provenNonce: bigint): bigint {
  let spent = 0n;
  for (const row of rows) {
    if (row.own !== true || row.address !== address || row.status === 'unconfirmed' || row.spentUnits === undefined) continue;
    if (row.payerNonce === undefined || BigInt(row.payerNonce) >= provenNonce) spent += BigInt(row.spentUnits);
  }
  return spent;
}
