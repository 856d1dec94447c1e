import { z } from 'zod';
import { agentSetControllerKind } from '../../kinds/agent/agent-set-controller.ts';
import { defineMethod } from '../method.ts';
import { addressSchema, parseAddress } from '../schemas.ts';
import { parseKey, publicKeySchema } from '../settlement/agent-params.ts';
import { signerParams, submitAgentTransaction, submittedResult } from '../settlement/agent-submit.ts';

/** Replaces an agent account's controller (only the owner signs). */
export const setAgentController = defineMethod({
  name: 'set_agent_controller',
  summary: "Replace an agent account's controller key (agent_set_controller; owner only).",
  params: z.strictObject({ agent_account: addressSchema, controller: publicKeySchema.describe('0x-hex x-only key'), ...signerParams }),
  scope: 'send_transactions',
  result: submittedResult,
  async run(params, ctx) {
    const payer = parseAddress(ctx, params.agent_account);
    const { tx: _tx, ...sent } = await submitAgentTransaction(ctx, 'set_agent_controller', payer, params, agentSetControllerKind, { controller: parseKey(params.controller, 'controller') });
    return sent;
  },
});
