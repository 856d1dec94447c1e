import { z } from 'zod';
import { agentCreateKind } from '../../kinds/agent/agent-create.ts';
import { defineMethod } from '../method.ts';
import { addressSchema, parseAddress } from '../schemas.ts';
import { parseKey, publicKeySchema } from '../settlement/agent-params.ts';
import { signerParams, submitAgentTransaction, submittedResult } from '../settlement/agent-submit.ts';

/**
 * Makes one of the node wallet's standard addresses an agent account (docs/settlement.md "Agent accounts"): its key
 * becomes the owner, `controller` the day-to-day key (default: the owner's own key).
 */
export const createAgentAccount = defineMethod({
  name: 'create_agent_account',
  summary: "Make a node-wallet address an on-chain agent account (agent_create), signed by the address's key.",
  params: z.strictObject({
    agent_account: addressSchema.describe("the node wallet's standard address that becomes the agent account (owner key)"),
    controller: publicKeySchema.optional().describe('0x-hex x-only controller key; default the owner key'),
    identity_proof_hash: z.string().regex(/^0x[0-9a-fA-F]{64}$/).optional().describe('BLAKE3 of the identity proof object'),
    ...signerParams,
  }),
  scope: 'send_transactions',
  result: submittedResult.extend({ agent_account: z.string() }),
  async run(params, ctx) {
    const payer = parseAddress(ctx, params.agent_account);
    const controller = params.controller === undefined ? payer.subarray(1) : parseKey(params.controller, 'controller');
    const identityProofHash = params.identity_proof_hash === undefined ? undefined : parseKey(params.identity_proof_hash, 'identity_proof_hash');
    const { tx: _tx, ...sent } = await submitAgentTransaction(ctx, 'create_agent_account', payer, params, agentCreateKind, { controller, identityProofHash });
    return { ...sent, agent_account: params.agent_account };
  },
});
