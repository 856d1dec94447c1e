import { z } from 'zod';
import { escrowCreateKind } from '../../kinds/escrow/escrow-create.ts';
import { blake3 } from '../../crypto/blake3.ts';
import { escrowIdOf } from '../../kinds/escrow/escrow-record.ts';
import { toHash0x } from '../../util/bytes.ts';
import { InvalidParamsError } from '../errors.ts';
import { defineMethod } from '../method.ts';
import { hashResult, u64NumberResult } from '../result-schemas.ts';
import { addressSchema, amountSchema, hashSchema, parseAddress, parseCoins, parseHex } from '../schemas.ts';
import { arbiterCanSign } from '../../kinds/escrow/escrow-rules-v2.ts';
import { rejected, signerParams, submitAgentTransaction, submittedResult } from '../settlement/agent-submit.ts';

const encoder = new TextEncoder();

/**
 * Locks coins of a node-wallet address (the client) for an agent account and a task (CreateTaskEscrow,
 * docs/settlement.md "Escrows"). The answer's `escrow_id` is the A2A `escrowHash` the client then sends in
 * `metadata.chainSettlement`. The timeout is absolute (`timeout_daa_score`) or relative to the tip (`timeout_in`).
 */
export const createEscrow = defineMethod({
  name: 'create_escrow',
  summary: 'Lock coins for an agent account and a task (escrow_create); returns the escrow id (A2A escrowHash).',
  params: z.strictObject({
    from: addressSchema.describe('the client: a node-wallet address'),
    agent_account: addressSchema,
    amount: amountSchema,
    task_hash: hashSchema.optional().describe('32-byte task id hash; default BLAKE3 of task_id'),
    task_id: z.string().max(256).optional().describe('the task id the escrow pays for (hashed with BLAKE3)'),
    timeout_daa_score: z.int().positive().optional().describe('from this DAA score on the client may reclaim'),
    timeout_in: z.int().positive().optional().describe('the timeout as DAA steps after the selected tip'),
    dispute_window: z.int().nonnegative().default(0).describe('DAA steps after creation from which the agent may claim without a receipt; 0: never'),
    arbiter: addressSchema.optional().describe('who resolves a dispute: a standard address, neither the client nor the agent'),
    ...signerParams,
  }),
  scope: 'send_transactions',
  result: submittedResult.extend({ escrow_id: hashResult, timeout_daa_score: u64NumberResult }),
  async run(params, ctx) {
    const payer = parseAddress(ctx, params.from);
    const agent = parseAddress(ctx, params.agent_account);
    if ((params.timeout_daa_score === undefined) === (params.timeout_in === undefined)) {
      throw new InvalidParamsError('give exactly one of timeout_daa_score and timeout_in', [{ path: 'timeout_daa_score', message: 'exactly one of timeout_daa_score, timeout_in' }]);
    }
    if ((params.task_hash === undefined) === (params.task_id === undefined)) {
      throw new InvalidParamsError('give exactly one of task_hash and task_id', [{ path: 'task_hash', message: 'exactly one of task_hash, task_id' }]);
    }
    const arbiter = params.arbiter === undefined ? undefined : parseAddress(ctx, params.arbiter);
    if (arbiter !== undefined && !arbiterCanSign(arbiter)) {
      // Refused whatever the rule set: only a standard address can send escrow_resolve, so a multisig or contract
      // arbiter would leave a disputed escrow to its deadline (or, before rules v2, locked for good).
      throw rejected('escrow_arbiter_cannot_sign', 'the arbiter must be a standard address: a multisig or contract address can never sign escrow_resolve (docs/settlement.md "Funds never locked for good")');
    }
    const timeout = params.timeout_daa_score ?? ctx.services.chain.selectedTip().header.daaScore + params.timeout_in!;
    const payload = {
      agent,
      taskHash: params.task_hash !== undefined ? parseHex(params.task_hash) : blake3(encoder.encode(params.task_id!)),
      amount: parseCoins(params.amount),
      timeoutDaaScore: BigInt(timeout),
      disputeWindow: BigInt(params.dispute_window),
      arbiter,
    };
    const { tx, ...sent } = await submitAgentTransaction(ctx, 'create_escrow', payer, params, escrowCreateKind, payload);
    return { ...sent, escrow_id: toHash0x(escrowIdOf(payer, tx.nonce)), timeout_daa_score: timeout };
  },
});
