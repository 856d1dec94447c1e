/**
 * The agent account page (`#/agent/<address>`, docs/settlement.md "Agent accounts"): owner and controller keys, the
 * session keys with their scope, caps and expiry (and whether each is expired or revoked as of the tip the node read
 * the record at), the frozen flag, the energy pool, the reputation, the identity proof, and the escrows of which the
 * account is the agent — found in its transaction history (settlement-history.ts), each with its current status.
 */
import { getAgentAccount, type GetAgentAccountReturnType, getEscrow } from '../../packages/client/src/index.ts';
import { copyButtonHtml, escapeHtml, formatCoins, formatInteger, linkHtml, shortHash, timeHtml } from '../lib/format.ts';
import type { RpcClient } from '../lib/node-client.ts';
import { escrowStatusHtml } from './escrow-page.ts';
import { fieldsTable, showNothingFound, type PageContext } from './page-context.ts';
import { scanAgentEscrows, type Tx } from './settlement-history.ts';

type AgentAccount = NonNullable<GetAgentAccountReturnType['account']>;
type SessionKey = AgentAccount['session_keys'][number];

/** Escrows listed per "Older escrows". */
export const agentEscrowsBatch = 20;

/** 6,666 basis points → "66.66 %". */
export const reputationText = (bps: number): string => `${(bps / 100).toLocaleString('en', { maximumFractionDigits: 2 })} %`;

const keyHtml = (key: string): string => `<span class="hash-copy"><span class="mono wrap">${escapeHtml(key)}</span>${copyButtonHtml(key)}</span>`;

function keyState(key: SessionKey): string {
  if (key.revoked) return '<span class="warn">revoked</span>';
  if (key.expired) return '<span class="warn">expired</span>';
  return '<span class="ok">active</span>';
}

function sessionKeysHtml(keys: readonly SessionKey[]): string {
  if (keys.length === 0) return '<p class="muted" id="session-keys">no session keys</p>';
  // State and scope first: on a phone the table scrolls, and they are what a reader looks for.
  const rows = keys.map((k) => `<tr data-key-id="${k.id}"><td class="num">${k.id}</td><td data-field="state">${keyState(k)}</td><td>${escapeHtml(k.allowed_kinds.join(', ') || 'none')}</td>`
    + `<td class="num">${formatInteger(k.expiry_daa_score)}</td><td class="num">${formatCoins(k.tx_cap_exact)}</td><td class="num">${formatCoins(k.spent_exact)} of ${formatCoins(k.total_cap_exact)}</td>`
    + `<td><span class="mono" title="${escapeHtml(k.public_key)}">${escapeHtml(shortHash(k.public_key, 12, 8))}</span>${copyButtonHtml(k.public_key)}</td></tr>`);
  const head = ['Id', 'State', 'Scope', 'Expires at DAA score', 'Per transaction', 'Spent of total cap', 'Public key'];
  const numeric = new Set(['Id', 'Expires at DAA score', 'Per transaction', 'Spent of total cap']);
  return `<div class="table-scroll" tabindex="0" role="region" aria-label="Session keys"><table class="txs" id="session-keys"><thead><tr>${head.map((h) => `<th scope="col"${numeric.has(h) ? ' class="num"' : ''}>${h}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

function accountFields(account: AgentAccount, read: GetAgentAccountReturnType): string {
  const settled = account.claimed + account.refunded + account.resolved;
  return fieldsTable([
    ['Address', linkHtml('address', account.agent_account)],
    ['Owner key', keyHtml(account.owner)],
    ['Controller key', `${keyHtml(account.controller)}${account.controller === account.owner ? ' <span class="muted">(the owner key)</span>' : ''}`],
    ['Frozen', account.frozen ? '<strong class="warn">yes</strong> <span class="muted">(no key of the account may send but the owner’s unfreeze)</span>' : 'no'],
    ['Energy pool', formatCoins(account.energy_pool_exact)],
    ['Reputation', account.reputation_score_bps === null ? '<span class="muted">none yet (no escrow of the agent settled)</span>' : `<strong>${reputationText(account.reputation_score_bps)}</strong> <span class="muted">(${formatInteger(account.reputation_score_bps)} bps)</span>`],
    ['Settled escrows', `${formatInteger(settled)}: ${formatInteger(account.claimed)} claimed, ${formatInteger(account.refunded)} refunded, ${formatInteger(account.resolved)} resolved by an arbiter`],
    ['Identity proof', account.identity_proof_hash === null ? '<span class="muted">none</span>' : keyHtml(account.identity_proof_hash)],
    ['Read at', `block ${linkHtml('block', read.block_hash, { label: formatInteger(Number(read.block_height)), copy: false })}, DAA score ${formatInteger(read.daa_score)}`],
  ], 'agent-fields');
}

async function escrowRows(client: RpcClient, creates: readonly (Tx & { escrow_id: string })[]): Promise<string[]> {
  const escrows = await Promise.all(creates.map((c) => getEscrow(client, { escrow_id: c.escrow_id }).then((r) => r.escrow).catch(() => null)));
  return creates.map((c, i) => {
    const escrow = escrows[i];
    const status = escrow ? escrowStatusHtml(escrow.status) : '<span class="muted">unknown</span>';
    return `<tr data-escrow="${escapeHtml(c.escrow_id)}"><td>${linkHtml('escrow', c.escrow_id, { short: true, copy: false })}</td><td data-field="status">${status}</td><td class="num">${formatCoins(escrow?.amount_exact ?? String(c.amount_exact))}</td><td>${linkHtml('address', String(c.from), { short: true, copy: false })}</td><td>${timeHtml(Number(c.timestamp) * 1000)}</td></tr>`;
  });
}

/** Lists the agent's escrows a batch at a time; "Older escrows" goes on scanning its history where the last batch stopped. */
async function renderEscrows(ctx: PageContext, client: RpcClient, agent: string, box: HTMLElement): Promise<void> {
  const rows: string[] = [];
  let offset: number | undefined = 0;
  let scanned = 0;
  const more = async (): Promise<void> => {
    box.setAttribute('aria-busy', 'true');
    try {
      const scan = await scanAgentEscrows(client, agent, offset!, agentEscrowsBatch);
      rows.push(...(await escrowRows(client, scan.creates)));
      if (!ctx.current()) return;
      offset = scan.nextOffset;
      scanned += scan.scanned;
      const table = rows.length === 0
        ? '<p class="muted" id="agent-escrows">no escrows found</p>'
        : `<div class="table-scroll" tabindex="0" role="region" aria-label="Escrows of this agent"><table class="txs" id="agent-escrows"><thead><tr><th scope="col">Escrow</th><th scope="col">Status</th><th scope="col" class="num">Amount</th><th scope="col">Client</th><th scope="col">Created</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
      const reach = offset === undefined
        ? `<p class="muted" id="escrows-reach">all ${formatInteger(scanned)} transactions of the account read</p>`
        : `<p class="muted" id="escrows-reach">from the account’s newest ${formatInteger(scanned)} transactions <button type="button" id="older-escrows">Older escrows</button></p>`;
      box.innerHTML = `${table}${reach}`;
      box.querySelector('#older-escrows')?.addEventListener('click', () => void more());
    } catch (error) {
      box.innerHTML = `<p class="muted">escrows unavailable: ${escapeHtml((error as Error).message)}</p>`;
    } finally {
      box.setAttribute('aria-busy', 'false');
    }
  };
  await more();
}

export async function renderAgentPage(ctx: PageContext, address: string): Promise<void> {
  // Public reads (docs/auth.md "Public reads") over the tab's WebSocket: a page reads the account, its history and
  // each escrow, more calls than the anonymous HTTP bucket (100 a minute) should spend on one page.
  const client = ctx.client;
  const read = await getAgentAccount(client, { agent_account: address });
  if (!ctx.current()) return;
  const account = read.account;
  if (account === null) {
    showNothingFound(ctx, 'agent account', address, 'An agent account is the standard address of its owner key, made by an agent_create transaction.');
    ctx.body.insertAdjacentHTML('beforeend', `<p>${linkHtml('address', address, { label: 'the address page', copy: false })}</p>`);
    return;
  }
  ctx.title.innerHTML = `Agent account <span class="address mono">${escapeHtml(address)}</span>`;
  ctx.body.innerHTML = `${accountFields(account, read)}<h3>Session keys</h3>${sessionKeysHtml(account.session_keys)}<h3>Escrows as agent</h3><div id="agent-escrows-box" aria-live="polite"><p class="muted">reading the account’s history…</p></div>`;
  await renderEscrows(ctx, client, address, ctx.body.querySelector<HTMLElement>('#agent-escrows-box')!);
}
