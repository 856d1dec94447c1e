import { z } from 'zod';
import { agentRevokeSessionKeyKind } from '../../kinds/agent/agent-revoke-session-key.ts';
import { defineMethod } from '../method.ts';
import { addressSchema, parseAddress } from '../schemas.ts';
import { signerParams, submitAgentTransaction, submittedResult } from '../settlement/agent-submit.ts';

/** Revokes a session key of an agent account for good (owner or controller signs). */
export const revokeSessionKey = defineMethod({
  name: 'revoke_session_key',
  summary: 'Revoke a session key of an agent account (agent_revoke_session_key).',
  params: z.strictObject({ agent_account: addressSchema, revoke_session_key_id: z.int().min(1).describe('the session key to revoke'), ...signerParams }),
  scope: 'send_transactions',
  result: submittedResult,
  async run(params, ctx) {
    const payer = parseAddress(ctx, params.agent_account);
    const { tx: _tx, ...sent } = await submitAgentTransaction(ctx, 'revoke_session_key', payer, params, agentRevokeSessionKeyKind, { revokedKeyId: BigInt(params.revoke_session_key_id) });
    return sent;
  },
});
