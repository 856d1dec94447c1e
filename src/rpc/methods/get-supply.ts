import { z } from 'zod';
import { formatUnits } from '../../crypto/amount.ts';
import { blockSubsidyUnits, halvingIntervalDaa } from '../../consensus/emission.ts';
import { defineMethod, need } from '../method.ts';
import { exactResult } from '../result-schemas.ts';

const coins = exactResult.describe('coins, exact decimal string');

/**
 * Weft extension (docs/api.md "get_supply"): the coin supply at the virtual state for the explorer's supply view —
 * the cap, what was emitted, what was burnt, what circulates (emitted − burnt), fees paid so far, and where the
 * emission schedule stands (docs/state.md "Emission"). The seed's REST network info keeps its two supply fields.
 */
export const getSupply = defineMethod({
  name: 'get_supply',
  summary: 'Coin supply: cap, emitted, burnt, circulating, fees paid so far, and the emission schedule at the tip.',
  params: z.strictObject({}),
  scope: 'public',
  result: z.object({
    max_supply: coins,
    emitted: coins,
    burnt: coins.nullable().describe('null when the ledger does not count burns'),
    circulating: coins.describe('emitted − burnt'),
    fees_total: coins.nullable().describe('coin and energy fees of every accepted transaction; null when not counted'),
    daa_score: z.int().describe('of the selected tip'),
    block_subsidy: coins.describe('subsidy of a block at the next DAA score'),
    halving_interval_daa: z.int(),
    next_halving_daa_score: z.int(),
  }),
  run(_params, ctx) {
    const supply = need(ctx, 'ledger', 'get_supply').supply();
    const daaScore = ctx.services.chain.selectedTip().header.daaScore;
    const burnt = supply.burntUnits;
    return {
      max_supply: formatUnits(supply.totalUnits),
      emitted: formatUnits(supply.circulatingUnits),
      burnt: burnt === undefined ? null : formatUnits(burnt),
      circulating: formatUnits(supply.circulatingUnits - (burnt ?? 0n)),
      fees_total: supply.feesTotalUnits === undefined ? null : formatUnits(supply.feesTotalUnits),
      daa_score: daaScore,
      block_subsidy: formatUnits(blockSubsidyUnits(daaScore + 1)),
      halving_interval_daa: halvingIntervalDaa,
      next_halving_daa_score: (Math.floor(daaScore / halvingIntervalDaa) + 1) * halvingIntervalDaa,
    };
  },
});
