import { z } from 'zod';
import { escrowDisputeKind } from '../../kinds/escrow/escrow-dispute.ts';
import { defineMethod } from '../method.ts';
import { addressSchema, parseAddress } from '../schemas.ts';
import { escrowIdSchema } from '../settlement/agent-params.ts';
import { signerParams, submitAgentTransaction, submittedResult } from '../settlement/agent-submit.ts';
import { escrowAt } from '../settlement/escrow-party.ts';

/** The client or the agent disputes a locked escrow that has an arbiter (escrow_dispute). */
export const disputeEscrow = defineMethod({
  name: 'dispute_escrow',
  summary: 'Dispute a locked escrow with an arbiter, as its client or its agent (escrow_dispute).',
  params: z.strictObject({ escrow_id: escrowIdSchema, from: addressSchema.describe("the disputing party: the escrow's client or agent account"), ...signerParams }),
  scope: 'send_transactions',
  result: submittedResult,
  async run(params, ctx) {
    const { id } = escrowAt(ctx, params.escrow_id, 'dispute_escrow');
    const { tx: _tx, ...sent } = await submitAgentTransaction(ctx, 'dispute_escrow', parseAddress(ctx, params.from), params, escrowDisputeKind, { escrowId: id });
    return sent;
  },
});
