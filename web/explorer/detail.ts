/**
 * The explorer's block, transaction and address pages (hash routes) and the search box's routing. The address
 * page shows the balance verified by the tab (a state proof against a header the light node verified), and the
 * transaction page its inclusion proven the same way (a Merkle path to the verified header's tx root) — a failing
 * proof is shown as an error, never as verified.
 */
import type { LightNode } from '../light/light-node.ts';
import { fetchVerifiedBalance } from '../light/verified-balance.ts';
import { fetchVerifiedTransaction } from '../light/verified-transaction.ts';
import { getBlock } from '../lib/actions/get-block.ts';
import { getTransaction } from '../lib/actions/get-transaction.ts';
import { getTransactionHistory } from '../lib/actions/get-transaction-history.ts';
import { createHttpClient, type NodeClient, type NodeUrls } from '../lib/node-client.ts';
import { isContractAddress, renderContract, transactionContractSection } from './contract-view.ts';

interface DetailContext {
  readonly client: NodeClient;
  readonly urls: NodeUrls;
  readonly light: LightNode;
  readonly section: HTMLElement;
  readonly body: HTMLElement;
  readonly title: HTMLElement;
}

const escapeHtml = (s: string): string => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/**
 * Height → block, 0x-hash → block (then transaction), anything else with a `1` separator → address; other text →
 * `#/search/<text>`, which says that nothing matches (a search must never just do nothing). Empty → undefined.
 */
export function routeSearch(text: string): string | undefined {
  if (text === '') return undefined;
  if (/^\d+$/.test(text)) return `#/block/${text}`;
  if (/^(0x)?[0-9a-fA-F]{64}$/.test(text)) return `#/hash/0x${text.replace(/^0x/, '').toLowerCase()}`;
  if (/^[a-z]+1[02-9ac-hj-np-z]+$/.test(text)) return `#/address/${text}`;
  return `#/search/${encodeURIComponent(text)}`;
}

/** A node answer meaning "no such block / transaction" (as opposed to a failure worth showing as such). */
const isNotFound = (error: unknown): boolean => /not found/i.test((error as Error).message) || (error as { kind?: string }).kind === 'block_not_found';

function showNothingFound(ctx: DetailContext, what: string, searched: string, note?: string): void {
  ctx.title.textContent = 'Nothing found';
  const hint = note ?? 'Search by block height, block or transaction hash (0x and 64 hex digits), or address.';
  ctx.body.innerHTML = `<p id="not-found">No ${escapeHtml(what)} matches <span class="mono">${escapeHtml(searched)}</span>.</p><p class="muted">${escapeHtml(hint)}</p>`;
}

type Linker = (value: string) => string | undefined;
const toBlock: Linker = (v) => (/^0x[0-9a-f]{64}$/.test(v) ? `#/block/${v}` : undefined);
const toTx: Linker = (v) => (/^0x[0-9a-f]{64}$/.test(v) ? `#/tx/${v}` : undefined);
const toAddress: Linker = (v) => (/^[a-z]+1[02-9ac-hj-np-z]+$/.test(v) ? `#/address/${v}` : undefined);
const toHeight: Linker = (v) => (/^\d+$/.test(v) ? `#/block/${v}` : undefined);

/**
 * What each field of a block or transaction view links to. A field is linked by what it names, never by its shape
 * alone: a transaction's own `hash` is a transaction (it used to be linked as a block and led to "Block not
 * found"), while `block_hash` and the parents are blocks.
 */
const blockLinks: Readonly<Record<string, Linker>> = { hash: toBlock, previous_hash: toBlock, parent_hashes: toBlock, miner: toAddress };
const txLinks: Readonly<Record<string, Linker>> = {
  hash: toTx, block_hash: toBlock, accepting_block_hash: toBlock, block_height: toHeight, from: toAddress, to: toAddress,
};

/**
 * A key/value table of a node answer. Where the node sends a quantity's exact decimal string beside its JSON number
 * (`nonce` and `nonce_exact`, docs/api.md "Exact integers"), the exact one is shown under the plain name: a number
 * past 2^53 would have been rounded by JSON.parse.
 */
function table(obj: Record<string, unknown>, links: Readonly<Record<string, Linker>>): string {
  const exact = (k: string, v: unknown): unknown => (typeof obj[`${k}_exact`] === 'string' ? obj[`${k}_exact`] : v);
  const cell = (k: string, v: unknown): string => {
    const text = typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v);
    const href = v === null || v === undefined ? undefined : links[k]?.(text);
    return href ? `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>` : escapeHtml(text);
  };
  const rows = Object.entries(obj).filter(([k]) => k !== 'transactions' && !(k.endsWith('_exact') && k.slice(0, -6) in obj)).map(([k, raw]) => {
    const v = exact(k, raw);
    const shown = Array.isArray(v) ? v.map((item) => cell(k, item)).join('\n') : cell(k, v);
    return `<tr><th style="width:30%">${escapeHtml(k)}</th><td class="mono" style="white-space:pre-wrap">${shown}</td></tr>`;
  });
  return `<table>${rows.join('')}</table>`;
}

export async function renderDetail(hash: string, ctx: DetailContext): Promise<void> {
  const [, kind, arg] = hash.match(/^#\/(block|tx|hash|address|contract|search)\/(.+)$/) ?? [];
  ctx.section.hidden = !kind;
  if (!kind || !arg) return;
  ctx.body.innerHTML = '<p class="muted">loading…</p>';
  // The page is opened where the user is looking: a link clicked far down the lists would otherwise fill a section
  // scrolled out of view, and the click would seem to do nothing (issue 21). Focus moves to its heading for
  // keyboard and screen-reader users.
  ctx.section.scrollIntoView({ block: 'start' });
  ctx.title.focus({ preventScroll: true });
  try {
    if (kind === 'search') {
      showNothingFound(ctx, 'block, transaction or address', decodeURIComponent(arg));
      return;
    }
    // Contract history and state are public reads (docs/auth.md "Public reads").
    if (kind === 'contract') return await renderContract(arg, { client: createHttpClient(ctx.urls.httpUrl), body: ctx.body, title: ctx.title });
    if (kind === 'block' || kind === 'hash') {
      const params = /^\d+$/.test(arg) ? { height: Number(arg) } : { hash: arg };
      try {
        const block = await getBlock(ctx.client, params);
        ctx.title.textContent = `Block ${String(block.height)}`;
        const verified = ctx.light.chain.has(String(block.hash).slice(2));
        const txs = (block.transactions ?? []).map((t) => `<li><a class="mono" href="#/tx/${t.hash}">${t.hash}</a></li>`).join('');
        ctx.body.innerHTML = `<p class="${verified ? 'ok' : 'warn'}">${verified ? 'header verified by this tab' : 'header not (yet) verified by this tab'}</p>${table(block, blockLinks)}<h3>Transactions</h3><ul>${txs || '<li class="muted">none</li>'}</ul>`;
        return;
      } catch (error) {
        if (!isNotFound(error)) throw error;
        if (kind === 'block') return showNothingFound(ctx, 'block', arg, (error as Error).message);
      }
    }
    if (kind === 'tx' || kind === 'hash') {
      let tx;
      try {
        tx = await getTransaction(ctx.client, { hash: arg });
      } catch (error) {
        if (!isNotFound(error)) throw error;
        return showNothingFound(ctx, kind === 'tx' ? 'transaction' : 'block or transaction', arg);
      }
      ctx.title.textContent = 'Transaction';
      let inclusion = '<p class="muted" id="inclusion">pending: in no block yet</p>';
      if (tx.status === 'confirmed' || tx.status === 'final') {
        const proven = await fetchVerifiedTransaction(ctx.light.chain, ctx.client, String(tx.hash));
        inclusion = proven.ok
          ? `<p class="ok" id="inclusion">✓ inclusion proven against verified block ${proven.transaction.blockHeight} (${escapeHtml(proven.transaction.blockHash)})</p>`
          : `<div class="error-box" role="alert" id="inclusion">Inclusion proof rejected (${escapeHtml(proven.error.reason)}): ${escapeHtml(proven.error.message)}</div>`;
      }
      ctx.body.innerHTML = `${inclusion}${transactionContractSection(tx)}${table(tx, txLinks)}<p><a href="#/address/${String(tx.from)}">sender</a> · <a href="#/address/${String(tx.to)}">recipient</a></p>`;
      return;
    }
    // The address is case-sensitive text to copy: it is never uppercased with the other headings (issue 21).
    ctx.title.innerHTML = `Address <span class="address mono">${escapeHtml(arg)}</span>`;
    const balance = await fetchVerifiedBalance(ctx.light.chain, ctx.client, arg);
    const head = balance.ok
      ? `<p>Verified balance: <strong id="verified-balance">${balance.display}</strong> <span class="ok">✓ proof checked against verified block ${balance.account.blockHeight}</span></p>`
      : `<div class="error-box" role="alert" id="proof-error">Proof rejected (${escapeHtml(balance.error.reason)}): ${escapeHtml(balance.error.message)}</div>`;
    let history = '';
    try {
      // Accepted history is public (docs/auth.md "Public reads").
      const h = await getTransactionHistory(createHttpClient(ctx.urls.httpUrl), { address: arg, limit: 20 });
      history = h.transactions.map((t) => `<li><a class="mono" href="#/tx/${String(t.hash)}">${String(t.hash)}</a> ${String(t.type)} ${String(t.amount)}</li>`).join('') || '<li class="muted">no transactions</li>';
    } catch (error) {
      history = `<li class="muted">history unavailable: ${escapeHtml((error as Error).message)}</li>`;
    }
    const viewer = isContractAddress(arg) ? `<p><a id="contract-viewer-link" href="#/contract/${escapeHtml(arg)}">contract viewer</a></p>` : '';
    ctx.body.innerHTML = `${head}${viewer}<h3>History</h3><ul>${history}</ul>`;
  } catch (error) {
    ctx.title.textContent = 'Could not load this page';
    ctx.body.innerHTML = `<div class="error-box" role="alert">${escapeHtml((error as Error).message)}</div>`;
  }
}
