import { z } from 'zod';
import { escrowResolveKind } from '../../kinds/escrow/escrow-resolve.ts';
import { defineMethod } from '../method.ts';
import { amountSchema, parseCoins } from '../schemas.ts';
import { escrowIdSchema } from '../settlement/agent-params.ts';
import { rejected, signerParams, submitAgentTransaction, submittedResult } from '../settlement/agent-submit.ts';
import { escrowAt } from '../settlement/escrow-party.ts';

/** The arbiter splits a disputed escrow: `agent_share` to the agent, the rest to the client (escrow_resolve). */
export const resolveEscrow = defineMethod({
  name: 'resolve_escrow',
  summary: 'As the arbiter, split a disputed escrow between agent and client (escrow_resolve).',
  params: z.strictObject({ escrow_id: escrowIdSchema, agent_share: amountSchema.describe('coins to the agent; the rest goes to the client'), ...signerParams }),
  scope: 'send_transactions',
  result: submittedResult,
  async run(params, ctx) {
    const { id, record } = escrowAt(ctx, params.escrow_id, 'resolve_escrow');
    if (record.arbiter === undefined) throw rejected('escrow_not_disputed', 'the escrow has no arbiter, so it is never disputed');
    const { tx: _tx, ...sent } = await submitAgentTransaction(ctx, 'resolve_escrow', record.arbiter, params, escrowResolveKind, { escrowId: id, agentShare: parseCoins(params.agent_share) });
    return sent;
  },
});
