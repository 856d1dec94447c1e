import { z } from 'zod';
import { agentFundEnergyPoolKind } from '../../kinds/agent/agent-fund-energy-pool.ts';
import { defineMethod } from '../method.ts';
import { addressSchema, amountSchema, parseAddress, parseCoins } from '../schemas.ts';
import { signerParams, submitAgentTransaction, submittedResult } from '../settlement/agent-submit.ts';

/** Moves coins from a node-wallet address into an agent account's energy pool (any payer funds any agent). */
export const fundEnergyPool = defineMethod({
  name: 'fund_energy_pool',
  summary: "Move coins from a node-wallet address into an agent account's energy pool (agent_fund_energy_pool).",
  params: z.strictObject({
    from: addressSchema.describe('the payer: a node-wallet address, or an agent account whose key the wallet holds'),
    agent_account: addressSchema,
    amount: amountSchema,
    ...signerParams,
  }),
  scope: 'send_transactions',
  result: submittedResult,
  async run(params, ctx) {
    const payer = parseAddress(ctx, params.from);
    const agent = parseAddress(ctx, params.agent_account);
    const { tx: _tx, ...sent } = await submitAgentTransaction(ctx, 'fund_energy_pool', payer, params, agentFundEnergyPoolKind, { agent, amount: parseCoins(params.amount) });
    return sent;
  },
});
