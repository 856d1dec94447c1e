/**
 * The block page (`#/block/<height|hash>`): what the node says about the block — time, miner, reward and fees,
 * blue and DAA score, parents, transactions — and what the tab's own GHOSTDAG says about its place in the DAG:
 * its merge set (blue / red), the chain block that merged it, and its children. The node keeps no child index, so
 * children are the blocks this tab verified that name it as a parent, found among the chain blocks above it and
 * their merge sets; a child no chain block merged yet (a fresh tip) is not listed until one does.
 */
import { blockSubsidyUnits } from '../../src/consensus/emission.ts';
import { coinsToUnits } from '../../src/crypto/amount.ts';
import { toHex } from '../../src/util/bytes.ts';
import type { LightChainView } from '../../src/light/light-chain.ts';
import { getBlock, type GetBlockReturnType } from '../../packages/client/src/index.ts';
import { query } from '../lib/dom.ts';
import { escapeHtml, formatCoins, formatInteger, linkHtml, timeHtml } from '../lib/format.ts';
import { fieldsTable, isNotFound, showNothingFound, whenVerified, type PageContext } from './page-context.ts';
import { transactionsTable } from './transactions-table.ts';

/** Chain blocks above a block that are searched for its children: more than any merge reaches back. */
const childSearchChainBlocks = 64;

interface DagPlace {
  readonly blues: readonly string[];
  readonly reds: readonly string[];
  readonly children: readonly string[];
  /** The chain block whose merge set holds it, and as what (null: a chain block or not merged yet). */
  readonly mergedBy: { readonly hash: string; readonly colour: 'blue' | 'red' } | null;
}

/** The block's merge set, merging block and children in the tab's verified DAG (ids are hex without 0x). */
function dagPlace(light: LightChainView, id: string): DagPlace | undefined {
  const block = light.get(id);
  const data = light.mergeset(id);
  if (!block || !data) return undefined;
  const tipHeight = light.selectedTip().height;
  let walk = light.blockAtHeight(Math.min(tipHeight, block.height + childSearchChainBlocks)) ?? light.selectedTip();
  const children = new Set<string>();
  let mergedBy: DagPlace['mergedBy'] = null;
  for (let n = 0; walk && walk.header.blueScore > block.header.blueScore && n <= childSearchChainBlocks * 2; walk = walk.selectedParent!, n++) {
    const merged = light.mergeset(walk.id);
    const candidates = [walk.id, ...(merged?.mergesetBlues ?? []), ...(merged?.mergesetReds ?? [])];
    if (merged?.mergesetBlues.includes(id) && merged.selectedParent !== id) mergedBy = { hash: walk.id, colour: 'blue' };
    if (merged?.mergesetReds.includes(id)) mergedBy = { hash: walk.id, colour: 'red' };
    for (const c of candidates) if (light.get(c)?.header.parents.some((p) => toHex(p) === id)) children.add(c);
    if (!walk.selectedParent) break;
  }
  return { blues: data.mergesetBlues, reds: data.mergesetReds, children: [...children], mergedBy };
}

const blockList = (ids: readonly string[]): string =>
  ids.length === 0 ? '<span class="muted">none</span>' : `<ul class="links">${ids.map((id) => `<li>${linkHtml('block', `0x${id}`, { short: true })}</li>`).join('')}</ul>`;

function dagRows(place: DagPlace | undefined, isChain: boolean): string {
  if (!place) return '<p class="muted" id="dag-place">This tab has not verified this header yet: merge set and children appear once it has.</p>';
  const merged = place.mergedBy
    ? `${linkHtml('block', `0x${place.mergedBy.hash}`, { short: true })} as <span class="${place.mergedBy.colour === 'red' ? 'bad' : 'ok'}">${place.mergedBy.colour}</span>`
    : isChain ? 'on the selected chain' : '<span class="muted">not merged yet</span>';
  return fieldsTable([
    ['Merged by', merged],
    [`Merge set, blue (${place.blues.length})`, blockList(place.blues)],
    [`Merge set, red (${place.reds.length})`, blockList(place.reds)],
    [`Children (${place.children.length})`, blockList(place.children)],
  ], 'dag-place');
}

export async function renderBlockPage(ctx: PageContext, arg: string, strict: boolean): Promise<boolean> {
  let block: GetBlockReturnType;
  try {
    block = await getBlock(ctx.client, /^\d+$/.test(arg) ? { height: Number(arg) } : { hash: arg });
  } catch (error) {
    if (!isNotFound(error)) throw error;
    if (strict) showNothingFound(ctx, 'block', arg, (error as Error).message);
    return false;
  }
  if (!ctx.current()) return true;
  const id = String(block.hash).slice(2);
  const txs = (block.transactions ?? []) as unknown as Record<string, unknown>[];
  const coinFees = txs.reduce((sum, t) => sum + (t.use_energy ? 0n : feeUnits(t)), 0n);
  const allFees = txs.reduce((sum, t) => sum + feeUnits(t), 0n);
  const subsidy = blockSubsidyUnits(block.daa_score);
  const parents = block.parent_hashes.map((p) => `<li>${linkHtml('block', p, { short: true })}${p === block.previous_hash ? ' <span class="muted">(selected parent)</span>' : ''}</li>`);
  ctx.title.textContent = `Block ${String(block.height)}`;
  const light = ctx.lightNow();
  const verified = light?.chain.has(id) ?? false;
  ctx.body.innerHTML = `<p class="${verified ? 'ok' : 'warn'}" id="verified-line">${verified ? 'header verified by this tab' : 'header not (yet) verified by this tab'}</p>
${fieldsTable([
    ['Hash', linkHtml('block', block.hash)],
    ['Height', `${formatInteger(block.height)}${block.is_chain_block ? '' : ' <span class="muted">(side block: height of its selected-parent chain)</span>'}`],
    ['Time', timeHtml(block.timestamp_ms)],
    ['Status', block.is_chain_block ? `chain block, ${formatInteger(block.confirmations)} confirmations` : 'side block (merged into the chain by another block)'],
    ['Miner', `${linkHtml('address', block.miner, { short: true })}${block.gpu_mining ? ' <span class="muted">GPU</span>' : ''}`],
    ['Reward', `${formatCoins(subsidy + coinFees)} <span class="muted">(subsidy ${formatCoins(subsidy)} + coin fees ${formatCoins(coinFees)}; a red block’s goes to the miner of the block that merges it)</span>`],
    ['Fee total', `${formatCoins(allFees)}${allFees !== coinFees ? ` <span class="muted">(${formatCoins(allFees - coinFees)} paid with energy)</span>` : ''}`],
    ['Blue score', formatInteger(block.blue_score)],
    ['DAA score', formatInteger(block.daa_score)],
    ['Blue work', `<span class="mono">${escapeHtml(block.blue_work)}</span>`],
    ['Difficulty', formatInteger(block.difficulty)],
    ['Transactions', formatInteger(block.transaction_count)],
    ['Size', `${formatInteger(block.size)} bytes`],
    ['Nonce', `<span class="mono">${escapeHtml(String(block.nonce))}</span>`],
    [`Parents (${block.parent_hashes.length})`, `<ul class="links">${parents.join('')}</ul>`],
    ['Merkle root', `<span class="mono wrap">${escapeHtml(block.merkle_root)}</span>`],
    ['State root', `<span class="mono wrap">${escapeHtml(block.state_root)}</span>`],
  ], 'block-fields')}
<h3>Place in the DAG <span class="muted">(this tab’s own GHOSTDAG)</span></h3><div id="dag-place-box">${dagRows(light && dagPlace(light.chain, id), block.is_chain_block)}</div>
<h3>Transactions (${txs.length})</h3>${transactionsTable(txs)}`;
  // A light node that failed to start says so in the overview's panel; the node's answer above stays.
  const started = await ctx.light.catch(() => undefined);
  if (started && !verified && (await whenVerified(started, id, 30_000)) && ctx.current()) {
    query('#verified-line', ctx.body).className = 'ok';
    query('#verified-line', ctx.body).textContent = 'header verified by this tab';
    query('#dag-place-box', ctx.body).innerHTML = dagRows(dagPlace(started.chain, id), block.is_chain_block);
  }
  return true;
}

/** A transaction's fee in units; the exact decimal string is read as the API's number of coins (exact, amount.ts). */
const feeUnits = (tx: Record<string, unknown>): bigint => coinsToUnits(Number(tx.fee_exact ?? tx.fee ?? 0));
