/**
 * The mempool view (`#/mempool`): the node's pending pool as get_mempool gives it — highest fee rate first, with
 * the whole pool's count, bytes and fees, and how the listed transactions spread over fee-rate bands. Read again
 * every few seconds while the view is open (a visitor's public rate limit is 100 calls a minute).
 */
import { getMempool } from '../../packages/client/src/index.ts';
import { escapeHtml, formatCoins, formatInteger } from '../lib/format.ts';
import { fieldsTable, type PageContext } from './page-context.ts';
import { columns, transactionsTable, type TransactionColumn } from './transactions-table.ts';

export const mempoolPageSize = 50;
const refreshEveryMs = 5_000;
/** Fee-rate bands (base units per byte), lower bounds. */
const bands = [0, 1, 10, 100, 1_000, 10_000, 100_000] as const;

const feeRate: TransactionColumn = { head: 'Fee rate', cell: (t) => `${Number(t.fee_rate).toLocaleString('en', { maximumFractionDigits: 3 })} units/B`, className: 'num' };
const size: TransactionColumn = { head: 'Size', cell: (t) => `${formatInteger(Number(t.size))} B`, className: 'num' };
const mempoolColumns = [columns.hash, columns.kind, feeRate, columns.fee, size, columns.amount, columns.time];

function bandsHtml(rates: readonly number[]): string {
  if (rates.length === 0) return '';
  const counts = bands.map((low, i) => rates.filter((r) => r >= low && (i === bands.length - 1 || r < bands[i + 1]!)).length);
  const most = Math.max(...counts, 1);
  const rows = bands.map((low, i) => {
    const label = i === bands.length - 1 ? `≥ ${low.toLocaleString('en')}` : `${low.toLocaleString('en')}–${bands[i + 1]!.toLocaleString('en')}`;
    return `<tr><th scope="row">${label} units/B</th><td><span class="bar" aria-hidden="true"><span style="width:${((counts[i]! / most) * 100).toFixed(1)}%"></span></span></td><td class="num">${counts[i]}</td></tr>`;
  });
  return `<h3>Fee rates of the listed transactions</h3><table class="fields bands"><thead><tr><th scope="col">fee rate</th><th scope="col">share</th><th scope="col" class="num">transactions</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

async function renderPool(ctx: PageContext, box: HTMLElement, offset: number): Promise<void> {
  const pool = await getMempool(ctx.client, { limit: mempoolPageSize, offset });
  if (!ctx.current()) return;
  const txs = pool.transactions as unknown as Record<string, unknown>[];
  const range = txs.length ? `${formatInteger(offset + 1)}–${formatInteger(offset + txs.length)} of ${formatInteger(pool.total)}` : `none of ${formatInteger(pool.total)}`;
  box.innerHTML = `${fieldsTable([
    ['Pending transactions', `<span id="mempool-count">${formatInteger(pool.total)}</span>`],
    ['Size', `${formatInteger(pool.total_bytes)} bytes`],
    ['Fees', formatCoins(pool.total_fees)],
  ], 'mempool-fields')}${bandsHtml(txs.map((t) => Number(t.fee_rate)))}
<h3>Pending, highest fee rate first</h3>${transactionsTable(txs, mempoolColumns, 'The pool is empty: every transaction the node knows is in a block.')}
<nav class="pager" aria-label="Mempool pages"><button type="button" data-offset="${Math.max(0, offset - mempoolPageSize)}"${offset === 0 ? ' disabled' : ''}>Higher fee rates</button><span role="status">${escapeHtml(range)}</span><button type="button" data-offset="${offset + mempoolPageSize}"${offset + txs.length < pool.total ? '' : ' disabled'}>Lower fee rates</button></nav>`;
}

export async function renderMempoolPage(ctx: PageContext): Promise<void> {
  ctx.title.textContent = 'Mempool';
  ctx.body.innerHTML = '<div id="mempool" aria-live="polite"></div><p class="muted">Read again every 5 s from the node’s get_mempool.</p>';
  const box = ctx.body.querySelector<HTMLElement>('#mempool')!;
  let offset = 0;
  box.addEventListener('click', (event) => {
    const button = (event.target as Element).closest<HTMLButtonElement>('button[data-offset]');
    if (button) (offset = Number(button.dataset.offset)), void renderPool(ctx, box, offset);
  });
  await renderPool(ctx, box, offset);
  const refresh = (): void => {
    if (!ctx.current()) return;
    void renderPool(ctx, box, offset).catch(() => undefined).finally(() => setTimeout(refresh, refreshEveryMs));
  };
  setTimeout(refresh, refreshEveryMs);
}
