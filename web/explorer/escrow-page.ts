/**
 * The escrow page (`#/escrow/<id>`, docs/settlement.md "Escrows"): id, status, client, agent account, amount and the
 * agent's share once settled, task id hash, creation, timeout and dispute window in DAA scores, arbiter; then its
 * status history — each transition with the transaction that made it, its block and time (settlement-history.ts).
 */
import { getEscrow } from '../../packages/client/src/index.ts';
import { copyButtonHtml, escapeHtml, formatCoins, formatInteger, linkHtml, shortHash, timeHtml } from '../lib/format.ts';
import type { RpcClient } from '../lib/node-client.ts';
import { fieldsTable, isNotFound, showNothingFound, type PageContext } from './page-context.ts';
import { escrowHistory, scanPageSize, scanPagesMax, type EscrowStep, type EscrowView } from './settlement-history.ts';

/** A status as the seed names it, coloured: settled to the agent green, disputed amber. */
export const escrowStatusHtml = (status: string): string => {
  const tone = ({ Claimed: ' class="ok"', Disputed: ' class="warn"' } as Record<string, string>)[status] ?? '';
  return `<span${tone}>${escapeHtml(status)}</span>`;
};

function timeoutText(escrow: EscrowView, readAt: number): string {
  const at = `DAA score ${formatInteger(escrow.timeout_daa_score)}`;
  if (escrow.timed_out) return `${at} <span class="muted">(passed: the client may reclaim while it is locked)</span>`;
  return `${at} <span class="muted">(in ${formatInteger(escrow.timeout_daa_score - readAt)} DAA steps)</span>`;
}

function escrowFields(escrow: EscrowView, read: { block_hash: string; block_height: number | null; daa_score: number }): string {
  const settled = escrow.status === 'Claimed' || escrow.status === 'Refunded';
  const window = escrow.dispute_window > 0
    ? `${formatInteger(escrow.dispute_window)} DAA steps <span class="muted">(the agent may claim without the client’s receipt from DAA score ${formatInteger(escrow.created_daa_score + escrow.dispute_window)})</span>`
    : 'none <span class="muted">(a claim needs the client’s completion receipt)</span>';
  return fieldsTable([
    ['Escrow id', linkHtml('escrow', escrow.escrow_id)],
    ['Status', escrowStatusHtml(escrow.status)],
    ['Client', linkHtml('address', escrow.client)],
    ['Agent account', linkHtml('agent', escrow.agent_account)],
    ['Amount', formatCoins(escrow.amount_exact)],
    ['Paid to the agent', settled ? `${formatCoins(escrow.agent_share_exact)} <span class="muted">(the rest back to the client)</span>` : undefined],
    ['Task id hash', `<span class="hash-copy"><span class="mono wrap">${escapeHtml(escrow.task_hash)}</span>${copyButtonHtml(escrow.task_hash)}</span>`],
    ['Created at', `DAA score ${formatInteger(escrow.created_daa_score)}`],
    ['Timeout', timeoutText(escrow, read.daa_score)],
    ['Dispute window', window],
    ['Arbiter', escrow.arbiter === null ? '<span class="muted">none (the escrow cannot be disputed)</span>' : linkHtml('address', escrow.arbiter)],
    ['Read at', `block ${linkHtml('block', read.block_hash, { label: formatInteger(Number(read.block_height)), copy: false })}, DAA score ${formatInteger(read.daa_score)}`],
  ], 'escrow-fields');
}

function stepRow(step: EscrowStep, unscanned: readonly string[]): string {
  const tx = step.tx;
  const missing = step.senders.some((s) => unscanned.includes(s))
    ? `not among the newest ${formatInteger(scanPageSize * scanPagesMax)} transactions of ${step.senders.map((s) => escapeHtml(shortHash(s))).join(' or ')}`
    : 'not in the transaction index';
  const cells = tx
    ? `<td>${linkHtml('tx', String(tx.hash), { short: true, copy: false })} <span class="muted">${escapeHtml(step.kind)}</span></td><td>${linkHtml('block', String(tx.block_hash), { label: formatInteger(Number(tx.block_height)), copy: false })}</td><td>${timeHtml(Number(tx.timestamp) * 1000)}</td>`
    : `<td colspan="3" class="muted">${escapeHtml(step.kind)}: ${missing}</td>`;
  return `<tr data-status="${escapeHtml(step.status)}"><td>${escrowStatusHtml(step.status)}</td>${cells}<td class="num">${formatInteger(step.daaScore)}</td></tr>`;
}

async function renderHistory(ctx: PageContext, client: RpcClient, escrow: EscrowView, box: HTMLElement): Promise<void> {
  box.setAttribute('aria-busy', 'true');
  try {
    const history = await escrowHistory(client, escrow);
    if (!ctx.current()) return;
    box.innerHTML = `<div class="table-scroll" tabindex="0" role="region" aria-label="Status history"><table class="txs" id="escrow-history"><thead><tr><th scope="col">Status</th><th scope="col">Transaction</th><th scope="col">Block</th><th scope="col">Time</th><th scope="col" class="num">DAA score</th></tr></thead><tbody>${history.steps.map((s) => stepRow(s, history.unscanned)).join('')}</tbody></table></div>`;
  } catch (error) {
    box.innerHTML = `<p class="muted">history unavailable: ${escapeHtml((error as Error).message)}</p>`;
  } finally {
    box.setAttribute('aria-busy', 'false');
  }
}

/** Shows the escrow `arg`; without `strict` (a bare hash that was no block or transaction) an unknown id leaves the page as it is. */
export async function renderEscrowPage(ctx: PageContext, arg: string, strict: boolean): Promise<boolean> {
  // Public reads over the tab's WebSocket (agent-page.ts says why).
  const client = ctx.client;
  let read;
  try {
    read = await getEscrow(client, { escrow_id: arg });
  } catch (error) {
    if (!strict || isNotFound(error)) return false;
    throw error;
  }
  if (!ctx.current()) return true;
  const escrow = read.escrow;
  if (escrow === null) {
    if (strict) showNothingFound(ctx, 'escrow', arg, 'An escrow id is 0x and 64 hex digits: BLAKE3 of its client and the nonce of the transaction that created it.');
    return false;
  }
  ctx.title.textContent = 'Escrow';
  ctx.body.innerHTML = `${escrowFields(escrow, read)}<h3>Status history</h3><div id="escrow-history-box" aria-live="polite"><p class="muted">reading the parties’ histories…</p></div>`;
  await renderHistory(ctx, client, escrow, ctx.body.querySelector<HTMLElement>('#escrow-history-box')!);
  return true;
}
