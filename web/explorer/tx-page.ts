/**
 * The transaction page (`#/tx/<hash>`): status and inclusion proof (a Merkle path to a header this tab verified),
 * then the transaction as a reader wants it — kind, from, to, amount, fee, nonce, the carrying and accepting
 * blocks, time. Kinds this page has no special rows for (agent, escrow, contract calls …) show their kind name and
 * the rest of their fields generically, addresses and hashes linked by shape; agent and escrow kinds add links to
 * their agent account and escrow (settlement-links.ts), contract kinds their receipt (contract-view.ts).
 */
import { gasFields, gasRows, transactionContractSection } from './contract-view.ts';
import { contractCallRows, shownByContractRows } from './contract-call-view.ts';
import { confidentialTxSection, shownByConfidentialSection } from './confidential-tx.ts';
import { fetchVerifiedTransaction } from '../light/verified-transaction.ts';
import { getTransaction } from '../../packages/client/src/index.ts';
import { escapeHtml, formatCoins, formatInteger, linkHtml, timeHtml } from '../lib/format.ts';
import { fieldsTable, isNotFound, showNothingFound, type PageContext } from './page-context.ts';
import { transactionSettlementSection } from './settlement-links.ts';
import { amountOf } from './transactions-table.ts';

/** Fields with their own rows (or shown through another field). */
// `receipt` has its own section (contract-view.ts).
const shownFields = new Set(['hash', 'kind', 'from', 'to', 'amount', 'fee', 'nonce', 'use_energy', 'status', 'confirmations', 'block_height', 'block_hash', 'accepting_block_hash', 'timestamp', 'energy_used', 'privacy_level', 'receipt', ...gasFields]);

const isHash = (v: string): boolean => /^0x[0-9a-f]{64}$/.test(v);
const isAddress = (v: string): boolean => /^[a-z]+1[02-9ac-hj-np-z]{20,}$/.test(v);

/** Any other field of a kind's view, by shape: amounts (`*_exact` beside a number) with units, addresses linked. */
function genericValue(key: string, value: unknown, tx: Record<string, unknown>): string {
  if (typeof tx[`${key}_exact`] === 'string') return /amount|fee|value|deposit|price|balance/.test(key) ? formatCoins(tx[`${key}_exact`] as string) : escapeHtml(tx[`${key}_exact`] as string);
  if (typeof value === 'string' && isAddress(value)) return linkHtml('address', value);
  if (typeof value === 'string' && isHash(value)) return `<span class="mono wrap">${escapeHtml(value)}</span>`;
  const text = typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
  return `<span class="mono wrap">${escapeHtml(text)}</span>`;
}

/** A contract transaction not yet run shows the most it may pay; once run its fee is what it paid. */
function maxFeeNote(tx: Record<string, unknown>): string {
  if (typeof tx.max_fee_exact !== 'string' || tx.gas_used !== undefined) return '';
  return ` <span class="muted">(at most; pays gas used × gas price once accepted)</span>`;
}

export async function renderTransactionPage(ctx: PageContext, arg: string, strict: boolean): Promise<boolean> {
  let tx: Record<string, unknown>;
  try {
    tx = (await getTransaction(ctx.client, { hash: arg })) as unknown as Record<string, unknown>;
  } catch (error) {
    if (!isNotFound(error)) throw error;
    showNothingFound(ctx, strict ? 'transaction' : 'block or transaction', arg);
    return false;
  }
  if (!ctx.current()) return true;
  ctx.title.textContent = 'Transaction';
  let inclusion = '<p class="warn" id="inclusion">pending: in no block yet</p>';
  if (tx.status === 'confirmed' || tx.status === 'final') {
    const proven = await fetchVerifiedTransaction((await ctx.light).chain, ctx.client, String(tx.hash));
    if (!ctx.current()) return true;
    inclusion = proven.ok
      ? `<p class="ok" id="inclusion">✓ inclusion proven against verified block ${formatInteger(proven.transaction.blockHeight)} (${linkHtml('block', proven.transaction.blockHash, { short: true, copy: false })})</p>`
      : `<div class="error-box" role="alert" id="inclusion">Inclusion proof rejected (${escapeHtml(proven.error.reason)}): ${escapeHtml(proven.error.message)}</div>`;
  }
  const str = (k: string): string => (typeof tx[k] === 'string' ? (tx[k] as string) : '');
  const status = `${escapeHtml(String(tx.status))}${tx.status === 'pending' ? '' : `, ${formatInteger(Number(tx.confirmations))} confirmations`}`;
  const energy = Number(tx.energy_used) > 0 ? `${escapeHtml(str('energy_used_exact') || String(tx.energy_used))} units of energy` : undefined;
  const others = Object.entries(tx).filter(([k]) => !shownFields.has(k) && !shownByConfidentialSection(tx, k) && !shownByContractRows(tx, k) && !(k.endsWith('_exact') && k.slice(0, -6) in tx));
  ctx.body.innerHTML = `${inclusion}${fieldsTable([
    ['Hash', linkHtml('tx', str('hash'))],
    ['Status', status],
    ['Kind', escapeHtml(str('kind'))],
    ['From', str('from') ? linkHtml('address', str('from')) : '–'],
    ['To', str('to') ? linkHtml('address', str('to')) : '–'],
    ...contractCallRows(tx),
    ['Amount', amountOf(tx, 'amount')],
    ['Fee', `${amountOf(tx, 'fee')}${tx.use_energy ? ' <span class="muted">(paid with energy)</span>' : ''}${maxFeeNote(tx)}`],
    ...gasRows(tx),
    ['Energy used', energy],
    ['Nonce', tx.nonce === undefined ? undefined : escapeHtml(str('nonce_exact') || String(tx.nonce))],
    ['Block', str('block_hash') ? `${linkHtml('block', str('block_hash'))} <span class="muted">height ${formatInteger(Number(tx.block_height))}</span>` : '<span class="muted">none yet</span>'],
    ['Accepted by', str('accepting_block_hash') ? linkHtml('block', str('accepting_block_hash')) : undefined],
    [tx.status === 'pending' ? 'Seen' : 'Time', timeHtml(Number(tx.timestamp) * 1000)],
    ['Privacy', escapeHtml(str('privacy_level'))],
    ...others.map(([k, v]) => [k.replace(/_/g, ' '), genericValue(k, v, tx)] as const),
  ], 'tx-fields')}${transactionSettlementSection(tx)}${confidentialTxSection(tx)}${transactionContractSection(tx)}`;
  return true;
}
