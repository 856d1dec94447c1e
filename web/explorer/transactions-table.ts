/**
 * A table of transactions as the block, address and mempool pages list them: hash, kind, from → to, amount and
 * fee, each hash and address a link with its full text in `title`. Kinds other than transfers (agent, escrow,
 * contract) are listed the same way under their own kind name. Each cell carries its column's name (`data-label`):
 * on a phone the rows are drawn as labelled cards (app.css `table.stack`) instead of scrolling sideways.
 */
import { escapeHtml, formatCoins, linkHtml, timeHtml } from '../lib/format.ts';

type Tx = Record<string, unknown>;

export interface TransactionColumn {
  readonly head: string;
  readonly cell: (tx: Tx) => string;
  readonly className?: string;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
export const amountOf = (tx: Tx, field: 'amount' | 'fee'): string => formatCoins(str(tx[`${field}_exact`]) || (tx[field] as number | undefined));
const address = (v: unknown): string => (str(v) ? linkHtml('address', str(v), { short: true, copy: false }) : '<span class="muted">–</span>');

export const columns = {
  hash: { head: 'Transaction', cell: (t) => linkHtml('tx', str(t.hash), { short: true, copy: false }) },
  kind: { head: 'Kind', cell: (t) => escapeHtml(str(t.kind) || '–') },
  from: { head: 'From', cell: (t) => address(t.from) },
  to: { head: 'To', cell: (t) => address(t.to) },
  amount: { head: 'Amount', cell: (t) => amountOf(t, 'amount'), className: 'num' },
  fee: { head: 'Fee', cell: (t) => `${amountOf(t, 'fee')}${t.use_energy ? ' <span class="muted">(energy)</span>' : ''}`, className: 'num' },
  time: { head: 'Time', cell: (t) => timeHtml(Number(t.timestamp) * 1000) },
} satisfies Record<string, TransactionColumn>;

export function transactionsTable(txs: readonly Tx[], cols: readonly TransactionColumn[] = [columns.hash, columns.kind, columns.from, columns.to, columns.amount, columns.fee], empty = 'none'): string {
  if (txs.length === 0) return `<p class="muted">${escapeHtml(empty)}</p>`;
  const head = cols.map((c) => `<th scope="col"${c.className ? ` class="${c.className}"` : ''}>${escapeHtml(c.head)}</th>`).join('');
  const rows = txs.map((t) => `<tr data-hash="${escapeHtml(str(t.hash))}">${cols.map((c) => `<td data-label="${escapeHtml(c.head)}"${c.className ? ` class="${c.className}"` : ''}>${c.cell(t)}</td>`).join('')}</tr>`);
  return `<div class="table-scroll" tabindex="0" role="region" aria-label="Transactions"><table class="txs stack"><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}
