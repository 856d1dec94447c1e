import { z } from 'zod';
import { AddressType, InvalidAddressError } from '../../crypto/address.ts';
import { decodeAgentRecord } from '../../kinds/agent/agent-record.ts';
import { toHash0x } from '../../util/bytes.ts';
import { defineMethod, need } from '../method.ts';
import { addressResult, hashResult, u64NumberResult } from '../result-schemas.ts';
import { addressSchema, parseAddress } from '../schemas.ts';
import { agentAccountResult, agentAccountView, provenAtResult, readProvenRecord } from '../settlement/settlement-views.ts';

/**
 * An agent account (docs/settlement.md "Agent accounts") as the selected tip's committed state has it: owner,
 * controller, session keys with their scopes, frozen flag, energy pool and reputation; with `proof: true` the state
 * proof of the `agent` record against that header, which a light client checks with verifyStateRecord('agent', …).
 * An address without an agent account answers `exists: false` (and, with `proof`, the proof of its absence).
 */
export const getAgentAccount = defineMethod({
  name: 'get_agent_account',
  summary: 'An on-chain agent account (keys, frozen, energy pool, reputation), optionally with a state proof against a header.',
  params: z.strictObject({
    agent_account: addressSchema.describe('the agent account: its owner’s standard address'),
    proof: z.boolean().default(false).describe('add the state proof of the record (or of its absence) against the selected tip header'),
  }),
  scope: 'public',
  result: z.object({
    agent_account: addressResult,
    exists: z.boolean(),
    block_hash: hashResult.describe('the header the record was read from'),
    block_height: z.int().nullable(),
    daa_score: u64NumberResult.describe('that header’s DAA score: session-key expiries are judged against it'),
    account: agentAccountResult.nullable(),
    proof: provenAtResult.optional(),
  }),
  run(params, ctx) {
    const ledger = need(ctx, 'ledger', 'get_agent_account');
    const address = parseAddress(ctx, params.agent_account);
    if (address[0] !== AddressType.Standard) throw new InvalidAddressError('agent_account: an agent account is a standard address', 'unknown_type');
    const read = readProvenRecord(ctx, ledger, 'agent', address, 'get_agent_account');
    const hrp = ctx.services.chain.params.hrp;
    return {
      agent_account: params.agent_account,
      exists: read.value !== undefined,
      block_hash: toHash0x(read.blockHash),
      block_height: read.blockHeight,
      daa_score: read.daaScore,
      account: read.value === undefined ? null : agentAccountView(address, decodeAgentRecord(read.value), hrp, read.daaScore),
      ...(params.proof ? { proof: read.proof } : {}),
    };
  },
});
