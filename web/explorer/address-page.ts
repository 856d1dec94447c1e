/**
 * The address page (`#/address/<address>`): the balance, nonce and energy this tab verified (a state proof against
 * a header its light node verified — a failing proof is shown as an error, never as verified), a QR code of the
 * address, and its history (get_transaction_history: pending first, then accepted, newest first) a page at a time,
 * and the block rewards it received (get_reward_history), so a miner's balance is explained by what the page shows.
 */
import { isContractAddress } from './contract-view.ts';
import { fetchVerifiedBalance } from '../light/verified-balance.ts';
import { addressQrSvg } from '../lib/address-qr.ts';
import { getAgentAccount, getRewardHistory, getTransactionHistory } from '../../packages/client/src/index.ts';
import { copyButtonHtml, escapeHtml, formatCoins, formatInteger, linkHtml } from '../lib/format.ts';
import { query } from '../lib/dom.ts';
import { createHttpClient } from '../lib/node-client.ts';
import { fieldsTable, type PageContext } from './page-context.ts';
import { columns, transactionsTable, type TransactionColumn } from './transactions-table.ts';
import { strip0x } from '../../src/util/bytes.ts';

/** History rows per page. */
export const historyPageSize = 20;

const direction: TransactionColumn = { head: 'Direction', cell: (t) => ({ incoming: 'in', outgoing: 'out', self: 'self' })[String(t.type)] ?? '–' };
const where: TransactionColumn = {
  head: 'Status',
  cell: (t) => (t.block_hash ? `${escapeHtml(String(t.status))} in ${linkHtml('block', String(t.block_hash), { label: `block ${formatInteger(Number(t.block_height))}`, copy: false })}` : `<span class="warn">${escapeHtml(String(t.status))}</span>`),
};
const historyColumns = [columns.time, columns.hash, direction, columns.from, columns.to, columns.amount, columns.fee, where];

async function renderHistory(ctx: PageContext, address: string, box: HTMLElement, offset: number): Promise<void> {
  box.setAttribute('aria-busy', 'true');
  try {
    // Accepted history is public (docs/auth.md "Public reads").
    const page = await getTransactionHistory(createHttpClient(ctx.urls.httpUrl), { address, limit: historyPageSize, offset, include_pending: true });
    if (!ctx.current()) return;
    const txs = page.transactions as unknown as Record<string, unknown>[];
    const total = page.total;
    const shown = txs.length === 0 ? 'no transactions' : `${formatInteger(offset + 1)}–${formatInteger(offset + txs.length)}${total === null ? '' : ` of ${formatInteger(total)}`}`;
    const hasNext = total === null ? txs.length === historyPageSize : offset + txs.length < total;
    box.innerHTML = `${transactionsTable(txs, historyColumns, offset === 0 ? 'no transactions yet' : 'no more transactions')}
<nav class="pager" aria-label="History pages"><button type="button" data-offset="${Math.max(0, offset - historyPageSize)}"${offset === 0 ? ' disabled' : ''}>Newer</button><span id="history-range" role="status">${shown}</span><button type="button" data-offset="${offset + historyPageSize}"${hasNext ? '' : ' disabled'}>Older</button></nav>`;
  } catch (error) {
    box.innerHTML = `<p class="muted">history unavailable: ${escapeHtml((error as Error).message)}</p>`;
  } finally {
    box.setAttribute('aria-busy', 'false');
  }
}

/** The newest block rewards, one line each: the block, subsidy + fees, and which chain block paid it (or "pending"). */
export function rewardsHtml(page: { total: number; rewards: readonly { block_hash: string; block_height: number; blue: boolean; amount_exact: string; fees_exact: string; accepting_block_hash: string | null; accepting_height: number | null }[] }): string {
  if (page.total === 0) return '';
  const rows = page.rewards.map((r) => {
    const paid = r.accepting_block_hash === null ? '<span class="warn">pending (in the balance, no chain block yet)</span>' : linkHtml('block', r.accepting_block_hash, { label: `block ${formatInteger(r.accepting_height ?? 0)}`, copy: false });
    const fees = r.fees_exact === '0' ? '' : ` <span class="muted">incl. ${formatCoins(r.fees_exact)} fees</span>`;
    return `<tr><td data-label="Block">${linkHtml('block', r.block_hash, { label: formatInteger(r.block_height), copy: false })}${r.blue ? '' : ' <span class="muted">(red)</span>'}</td><td data-label="Reward">${formatCoins(r.amount_exact)}${fees}</td><td data-label="Paid by">${paid}</td></tr>`;
  });
  return `<h3>Mining rewards</h3><p class="muted" id="rewards-total">${formatInteger(page.total)} block rewards; the newest ${formatInteger(page.rewards.length)}:</p><table class="list stack" id="rewards"><thead><tr><th scope="col">Block</th><th scope="col">Reward</th><th scope="col">Paid by</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

async function renderRewards(ctx: PageContext, address: string, box: HTMLElement): Promise<void> {
  try {
    const page = await getRewardHistory(createHttpClient(ctx.urls.httpUrl), { address, limit: historyPageSize });
    if (ctx.current()) box.innerHTML = rewardsHtml(page);
  } catch {
    // A node without the reward index: the section stays empty.
  }
}

export async function renderAddressPage(ctx: PageContext, address: string): Promise<void> {
  // The address is case-sensitive text to copy: it is never uppercased with the other headings (issue 21).
  ctx.title.innerHTML = `Address <span class="address mono">${escapeHtml(address)}</span>`;
  ctx.body.innerHTML = `<div class="address-head"><figure class="qr-box">${addressQrSvg(address)}<figcaption>${copyButtonHtml(address, 'address')} copy address</figcaption></figure><div id="account-box"><p class="muted">checking the balance proof…</p></div></div>
${isContractAddress(address) ? `<p><a id="contract-viewer-link" href="#/contract/${escapeHtml(address)}">contract viewer</a></p>` : ''}<div id="agent-box"></div><h3>History</h3><div id="history" aria-live="polite"></div><div id="rewards-box"></div>`;
  const historyBox = ctx.body.querySelector<HTMLElement>('#history')!;
  historyBox.addEventListener('click', (event) => {
    const button = (event.target as Element).closest<HTMLButtonElement>('button[data-offset]');
    if (button) void renderHistory(ctx, address, historyBox, Number(button.dataset.offset));
  });
  const history = renderHistory(ctx, address, historyBox, 0);
  const agent = renderAgentLink(ctx, address, ctx.body.querySelector<HTMLElement>('#agent-box')!);
  const rewards = renderRewards(ctx, address, ctx.body.querySelector<HTMLElement>('#rewards-box')!);
  const balance = await fetchVerifiedBalance((await ctx.light).chain, ctx.client, address);
  if (!ctx.current()) return;
  query('#account-box', ctx.body).innerHTML = balance.ok
    ? `${fieldsTable([
      ['Balance', `<strong id="verified-balance">${formatCoins(balance.account.balance)}</strong>`],
      ['Proof', `<span class="ok">✓ checked against verified block ${linkHtml('block', `0x${strip0x(balance.account.blockHash)}`, { label: formatInteger(balance.account.blockHeight), copy: false })}</span>`],
      ['Nonce', formatInteger(Number(balance.account.nonce))],
      ['Energy', `${formatInteger(Number(balance.account.energy))} units`],
      ['Seen by the chain', balance.account.exists ? 'yes' : 'no (never used)'],
    ], 'account-fields')}`
    : `<div class="error-box" role="alert" id="proof-error">Proof rejected (${escapeHtml(balance.error.reason)}): ${escapeHtml(balance.error.message)}</div>`;
  await Promise.all([history, agent, rewards]);
}

/** An address that is an agent account (get_agent_account) links its agent page, saying whether it is frozen. */
async function renderAgentLink(ctx: PageContext, address: string, box: HTMLElement): Promise<void> {
  // A contract or stealth address is no agent account: the node refuses the read, and nothing is shown.
  const read = await getAgentAccount(ctx.client, { agent_account: address }).catch(() => undefined);
  if (!ctx.current() || !read?.account) return;
  const frozen = read.account.frozen ? ' <strong class="warn">frozen</strong>' : '';
  box.innerHTML = `<p id="agent-account-link">This address is an agent account${frozen}: <a href="#/agent/${encodeURIComponent(address)}">its keys, reputation and escrows</a></p>`;
}
