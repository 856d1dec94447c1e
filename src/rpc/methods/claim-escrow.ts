import { z } from 'zod';
import { escrowClaimKind } from '../../kinds/escrow/escrow-claim.ts';
import { defineMethod } from '../method.ts';
import { escrowIdSchema, parseKey } from '../settlement/agent-params.ts';
import { signerParams, submitAgentTransaction, submittedResult } from '../settlement/agent-submit.ts';
import { escrowAt } from '../settlement/escrow-party.ts';
import { parseHex } from '../schemas.ts';

/**
 * The agent claims an escrow (ClaimTaskReward): paid by the escrow's agent account, signed by its owner, controller
 * or a session key scoped for claims; with the client's completion receipt, or without once the dispute window passed.
 */
export const claimEscrow = defineMethod({
  name: 'claim_escrow',
  summary: "Claim an escrow for its agent account (escrow_claim), with the client's receipt or once its dispute window is over.",
  params: z.strictObject({
    escrow_id: escrowIdSchema,
    receipt: z
      .strictObject({ client_key: z.string().regex(/^(0x)?[0-9a-fA-F]{64}$/), signature: z.string().regex(/^(0x)?[0-9a-fA-F]{128}$/) })
      .optional()
      .describe("the client's completion receipt (docs/settlement.md \"Completion receipt\")"),
    ...signerParams,
  }),
  scope: 'send_transactions',
  result: submittedResult,
  async run(params, ctx) {
    const { id, record } = escrowAt(ctx, params.escrow_id, 'claim_escrow');
    const receipt = params.receipt === undefined ? undefined : { clientKey: parseKey(params.receipt.client_key, 'receipt.client_key'), signature: parseHex(params.receipt.signature) };
    const { tx: _tx, ...sent } = await submitAgentTransaction(ctx, 'claim_escrow', record.agent, params, escrowClaimKind, { escrowId: id, receipt });
    return sent;
  },
});
