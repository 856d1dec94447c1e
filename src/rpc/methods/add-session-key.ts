import { z } from 'zod';
import { agentAddSessionKeyKind } from '../../kinds/agent/agent-add-session-key.ts';
import { defineMethod } from '../method.ts';
import { u64NumberResult } from '../result-schemas.ts';
import { amountSchema, addressSchema, parseAddress, parseCoins } from '../schemas.ts';
import { parseKey, publicKeySchema, scopeBits, scopeKindNames } from '../settlement/agent-params.ts';
import { agentAt, signerParams, submitAgentTransaction, submittedResult } from '../settlement/agent-submit.ts';

/** Adds a scoped session key to an agent account (owner or controller signs; docs/settlement.md "Session keys"). */
export const addSessionKey = defineMethod({
  name: 'add_session_key',
  summary: 'Add a scoped, capped, expiring session key to an agent account (agent_add_session_key).',
  params: z.strictObject({
    agent_account: addressSchema,
    public_key: publicKeySchema.describe('0x-hex x-only key of the session'),
    allowed_kinds: z.array(z.enum(scopeKindNames)).min(1).describe('kinds the key may sign'),
    tx_cap: amountSchema.describe('most coins (amount + fee) one transaction may take'),
    total_cap: amountSchema.describe('most coins all its transactions may take'),
    expiry_daa_score: z.int().positive().describe('the key signs nothing accepted at or after this DAA score'),
    ...signerParams,
  }),
  scope: 'send_transactions',
  result: submittedResult.extend({ session_key_id: u64NumberResult.nullable().describe('the id it gets when accepted next (null: the account has pending transactions)') }),
  async run(params, ctx) {
    const payer = parseAddress(ctx, params.agent_account);
    const payload = {
      publicKey: parseKey(params.public_key, 'public_key'),
      allowedKinds: scopeBits(params.allowed_kinds),
      txCap: parseCoins(params.tx_cap),
      totalCap: parseCoins(params.total_cap),
      expiryDaaScore: BigInt(params.expiry_daa_score),
    };
    const before = agentAt(ctx, payer, 'add_session_key');
    const { tx: _tx, ...sent } = await submitAgentTransaction(ctx, 'add_session_key', payer, params, agentAddSessionKeyKind, payload);
    // The id is the account's next one unless transactions of the payer were pending before this one.
    const nothingPending = sent.nonce === Number(ctx.services.ledger!.account(payer).nonce);
    return { ...sent, session_key_id: before !== undefined && nothingPending ? Number(before.nextSessionKeyId) : null };
  },
});
