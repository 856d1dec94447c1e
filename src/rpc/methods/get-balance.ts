import { z } from 'zod';
import { formatUnits, unitsToCoins } from '../../crypto/amount.ts';
import { balanceCost } from '../../kinds/kind.ts';
import { kindOf } from '../../kinds/registry.ts';
import { equalBytes, toHash0x } from '../../util/bytes.ts';
import { PrivacyError } from '../errors.ts';
import { defineMethod, need, type RpcCallContext } from '../method.ts';
import { balanceResult } from '../result-schemas.ts';
import { decodeStealthAddress, looksLikeStealthAddress } from '../../crypto/stealth-address.ts';
import { anyAddressSchema, parseAddress } from '../schemas.ts';
import { stealthBalance } from './confidential-balance.ts';

/** Balance after the address's pending mempool transactions: what it receives added, what it spends (src/kinds/ `spend`) taken. */
export function pendingBalanceUnits(ctx: RpcCallContext, address: Uint8Array, balance: bigint, method: string): bigint {
  let units = balance;
  for (const { tx } of need(ctx, 'mempool', method).pending(address)) {
    const kind = kindOf(tx);
    for (const party of kind.parties(tx)) if (party.role === 'recipient' && equalBytes(party.address, address)) units += party.amount;
    const spend = kind.spend(tx);
    if (equalBytes(spend.payer, address)) units -= balanceCost(spend);
  }
  return units < 0n ? 0n : units;
}

/**
 * privacy_view (decision, docs/api.md "get_balance views"):
 *   owner     — the full account: balance, pending_balance with the mempool's effect, energy, nonce. Needs read_balance.
 *   public    — only figures a light client can check with get_proof against a header: the committed state, with
 *               the state root and block it was read at; pending_balance equals balance (the mempool is unproven).
 *               Anyone may read it: chain data is public.
 *   encrypted — a stealth address's confidential outputs as stored (commitments, encrypted amounts); needs
 *               read_balance, since listing them shows which outputs the address owns (confidential-balance.ts).
 * A stealth address (docs/privacy.md "Stealth addresses") is answered from the node wallet's scan of its outputs;
 * a standard address has no encrypted view (-40006).
 * Without privacy_view: the owner view for a caller whose credentials grant read_balance (or on a node without
 * access control), else the public view — the result's `privacy_view` says which (docs/auth.md "Public reads").
 */
function defaultBalanceView(ctx: RpcCallContext): 'owner' | 'public' {
  return ctx.scopes === undefined || ctx.scopes.has('read_balance') ? 'owner' : 'public';
}

export const getBalance = defineMethod({
  name: 'get_balance',
  summary: "An address's balance, pending balance, energy and next nonce, in the owner or the provable public view.",
  params: z.strictObject({
    address: anyAddressSchema,
    include_pending: z.boolean().default(true),
    privacy_view: z.enum(['owner', 'public', 'encrypted']).optional(),
  }),
  // Public, except the owner view asked for by name.
  scope: 'public',
  scopeOf: (params) => (params.privacy_view === 'owner' || params.privacy_view === 'encrypted' ? 'read_balance' : 'public'),
  result: balanceResult,
  run(params, ctx) {
    const view = params.privacy_view ?? defaultBalanceView(ctx);
    if (looksLikeStealthAddress(params.address, ctx.services.chain.params.hrp)) {
      decodeStealthAddress(params.address, ctx.services.chain.params.hrp);
      return stealthBalance(ctx, params.address, view);
    }
    const address = parseAddress(ctx, params.address);
    const ledger = need(ctx, 'ledger', 'get_balance');
    if (view === 'encrypted') {
      throw new PrivacyError('the encrypted view lists a stealth address\'s confidential outputs; a standard address has only public state', 'not_a_stealth_address');
    }
    const account = ledger.account(address);
    // Exact decimal strings beside the seed's numbers (docs/api.md "Exact integers").
    const base = {
      address: params.address,
      balance: unitsToCoins(account.balance),
      balance_exact: formatUnits(account.balance),
      energy: Number(account.energy),
      energy_exact: account.energy.toString(),
      nonce: Number(account.nonce),
      nonce_exact: account.nonce.toString(),
    };
    if (view === 'public') {
      const proof = ledger.proof(address);
      return { ...base, pending_balance: base.balance, pending_balance_exact: base.balance_exact, privacy_view: 'public', state_root: toHash0x(proof.stateRoot), block_hash: toHash0x(proof.blockHash) };
    }
    const pending = params.include_pending ? pendingBalanceUnits(ctx, address, account.balance, 'get_balance') : account.balance;
    return { ...base, pending_balance: unitsToCoins(pending), pending_balance_exact: formatUnits(pending), privacy_view: 'owner' };
  },
});
