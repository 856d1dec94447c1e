import { z } from 'zod';
import { decodeEscrowRecord } from '../../kinds/escrow/escrow-record.ts';
import { toHash0x } from '../../util/bytes.ts';
import { defineMethod, need } from '../method.ts';
import { hashResult, u64NumberResult } from '../result-schemas.ts';
import { hashSchema, parseHex } from '../schemas.ts';
import { escrowResult, escrowView, provenAtResult, readProvenRecord } from '../settlement/settlement-views.ts';

/**
 * A task escrow (docs/settlement.md "Escrows") by its id — the A2A `escrowHash` — as the selected tip's committed
 * state has it: status, client, agent, amount, timeout and dispute window, arbiter, and the settlement outcome; with
 * `proof: true` the state proof of the `escrow` record against that header. An unknown id answers `exists: false`
 * (the seed's status `None`).
 */
export const getEscrow = defineMethod({
  name: 'get_escrow',
  summary: 'A task escrow by id (status, parties, amount, timeout), optionally with a state proof against a header.',
  params: z.strictObject({
    escrow_id: hashSchema.describe('the 32-byte escrow id (A2A escrowHash), 0x-hex'),
    proof: z.boolean().default(false).describe('add the state proof of the record (or of its absence) against the selected tip header'),
  }),
  scope: 'public',
  result: z.object({
    escrow_id: hashResult,
    exists: z.boolean(),
    block_hash: hashResult.describe('the header the record was read from'),
    block_height: z.int().nullable(),
    daa_score: u64NumberResult.describe('that header’s DAA score: the timeout is judged against it'),
    escrow: escrowResult.nullable(),
    proof: provenAtResult.optional(),
  }),
  run(params, ctx) {
    const ledger = need(ctx, 'ledger', 'get_escrow');
    const id = parseHex(params.escrow_id);
    const read = readProvenRecord(ctx, ledger, 'escrow', id, 'get_escrow');
    return {
      escrow_id: toHash0x(id),
      exists: read.value !== undefined,
      block_hash: toHash0x(read.blockHash),
      block_height: read.blockHeight,
      daa_score: read.daaScore,
      escrow: read.value === undefined ? null : escrowView(id, decodeEscrowRecord(read.value), ctx.services.chain.params.hrp, read.daaScore),
      ...(params.proof ? { proof: read.proof } : {}),
    };
  },
});
