import { z } from 'zod';
import { agentFreezeKind } from '../../kinds/agent/agent-freeze.ts';
import { defineMethod } from '../method.ts';
import { addressSchema, parseAddress } from '../schemas.ts';
import { signerParams, submitAgentTransaction, submittedResult } from '../settlement/agent-submit.ts';

/** Freezes an agent account (no key of it signs anything accepted) or unfreezes it; only the owner signs. */
export const freezeAgentAccount = defineMethod({
  name: 'freeze_agent_account',
  summary: 'Freeze (frozen: true) or unfreeze (false) an agent account (agent_freeze; owner only).',
  params: z.strictObject({ agent_account: addressSchema, frozen: z.boolean().default(true), ...signerParams }),
  scope: 'send_transactions',
  result: submittedResult,
  async run(params, ctx) {
    const payer = parseAddress(ctx, params.agent_account);
    const { tx: _tx, ...sent } = await submitAgentTransaction(ctx, 'freeze_agent_account', payer, params, agentFreezeKind, { frozen: params.frozen });
    return sent;
  },
});
