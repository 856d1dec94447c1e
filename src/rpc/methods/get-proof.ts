import { z } from 'zod';
import { unitsToCoins } from '../../crypto/amount.ts';
import { proofToJson } from '../../state/proof.ts';
import { toHash0x, toHex } from '../../util/bytes.ts';
import { defineMethod, need } from '../method.ts';
import { addressSchema, parseAddress } from '../schemas.ts';

/** A Merkle proof of an account (or of its absence) against the state root a chain block's header commits to. */
export const getProof = defineMethod({
  name: 'get_proof',
  summary: "A state proof of an address's account against a header's state root, for light clients (eth_getProof's role).",
  params: z.strictObject({ address: addressSchema }),
  scope: 'public',
  result: {
    type: 'object',
    required: ['address', 'key', 'state_root', 'block_hash', 'account', 'proof'],
    properties: {
      address: { type: 'string' },
      key: { type: 'string' },
      state_root: { type: 'string' },
      block_hash: { type: 'string' },
      block_height: { type: ['integer', 'null'] },
      account: { type: 'object' },
      proof: { type: 'object' },
    },
  },
  run(params, ctx) {
    const address = parseAddress(ctx, params.address);
    const ledger = need(ctx, 'ledger', 'get_proof');
    const result = ledger.proof(address);
    const account = ledger.account(address);
    return {
      address: params.address,
      key: toHash0x(result.key),
      state_root: toHash0x(result.stateRoot),
      block_hash: toHash0x(result.blockHash),
      block_height: ctx.services.chain.get(toHex(result.blockHash))?.height ?? null,
      account: { balance: unitsToCoins(account.balance), nonce: Number(account.nonce), energy: Number(account.energy) },
      proof: proofToJson(result.proof),
    };
  },
});
