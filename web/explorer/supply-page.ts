/**
 * The supply view (`#/supply`): emitted, burnt and circulating coins against the cap, fees paid so far, and where
 * the emission schedule stands (subsidy per block, next halving), all from the node's get_supply.
 */
import { getSupply } from '../../packages/client/src/index.ts';
import { formatCoins, formatInteger } from '../lib/format.ts';
import { fieldsTable, type PageContext } from './page-context.ts';

export async function renderSupplyPage(ctx: PageContext): Promise<void> {
  ctx.title.textContent = 'Supply';
  const s = await getSupply(ctx.client);
  if (!ctx.current()) return;
  const share = Number(s.emitted) / Number(s.max_supply);
  const percent = `${(share * 100).toLocaleString('en', { maximumFractionDigits: 6 })} %`;
  const daaLeft = s.next_halving_daa_score - s.daa_score;
  ctx.body.innerHTML = `${fieldsTable([
    ['Emitted', `<span id="supply-emitted">${formatCoins(s.emitted)}</span>`],
    ['Burnt', s.burnt === null ? '<span class="muted">not counted by this node</span>' : `<span id="supply-burnt">${formatCoins(s.burnt)}</span>`],
    ['Circulating', `<span id="supply-circulating">${formatCoins(s.circulating)}</span> <span class="muted">(emitted − burnt)</span>`],
    ['Maximum supply', formatCoins(s.max_supply)],
    ['Emitted of the maximum', `${percent}<span class="bar" role="img" aria-label="${percent} of the maximum supply emitted"><span style="width:${Math.max(share * 100, 0.5).toFixed(3)}%"></span></span>`],
    ['Fees paid so far', s.fees_total === null ? '<span class="muted">not counted by this node</span>' : formatCoins(s.fees_total)],
    ['Subsidy per block now', formatCoins(s.block_subsidy)],
    ['DAA score', formatInteger(s.daa_score)],
    ['Next halving', `at DAA score ${formatInteger(s.next_halving_daa_score)} <span class="muted">(${formatInteger(daaLeft)} DAA steps from now, about ${formatInteger(daaLeft / 86_400)} days at one block a second)</span>`],
  ], 'supply-fields')}<p class="muted">Every block pays a subsidy fixed by its DAA score, halving every ${formatInteger(s.halving_interval_daa)} DAA steps, plus its transactions’ coin fees; the cap is never passed (docs/state.md “Emission”).</p>`;
}
