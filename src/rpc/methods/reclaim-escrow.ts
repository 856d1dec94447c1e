import { z } from 'zod';
import { escrowReclaimKind } from '../../kinds/escrow/escrow-reclaim.ts';
import { defineMethod } from '../method.ts';
import { escrowIdSchema } from '../settlement/agent-params.ts';
import { signerParams, submitAgentTransaction, submittedResult } from '../settlement/agent-submit.ts';
import { escrowAt } from '../settlement/escrow-party.ts';

/** The client takes a locked escrow back once it timed out (ReclaimEscrowTimeout); paid by the escrow's client. */
export const reclaimEscrow = defineMethod({
  name: 'reclaim_escrow',
  summary: 'Take a timed-out, unclaimed escrow back to its client (escrow_reclaim).',
  params: z.strictObject({ escrow_id: escrowIdSchema, ...signerParams }),
  scope: 'send_transactions',
  result: submittedResult,
  async run(params, ctx) {
    const { id, record } = escrowAt(ctx, params.escrow_id, 'reclaim_escrow');
    const { tx: _tx, ...sent } = await submitAgentTransaction(ctx, 'reclaim_escrow', record.client, params, escrowReclaimKind, { escrowId: id });
    return sent;
  },
});
