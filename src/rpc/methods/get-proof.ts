import { z } from 'zod';
import { unitsToCoins } from '../../crypto/amount.ts';
import { stateNamespace, stateNamespaceNames, stateRecordIdBytesMax, type StateNamespaceName } from '../../state/namespaces.ts';
import { proofToJson } from '../../state/proof.ts';
import { toHash0x, toHex } from '../../util/bytes.ts';
import { InvalidParamsError, ServiceUnavailableError } from '../errors.ts';
import { defineMethod, need, type RpcCallContext } from '../method.ts';
import { addressResult, coinsResult, hashResult, u64NumberResult } from '../result-schemas.ts';
import { addressSchema, hexSchema, parseAddress, parseHex } from '../schemas.ts';

/** A record's natural id from the params: `address` for address-keyed namespaces, `id` (0x-hex) for the others. */
function recordId(
  ctx: RpcCallContext,
  params: { readonly namespace: StateNamespaceName; readonly address?: string | undefined; readonly id?: string | undefined },
): Uint8Array {
  const { id } = stateNamespace(params.namespace);
  const [want, other] = id.kind === 'address' ? (['address', 'id'] as const) : (['id', 'address'] as const);
  const given = params[want];
  if (given === undefined || params[other] !== undefined) {
    throw new InvalidParamsError(`the ${params.namespace} namespace is keyed by ${want} (${id.describes}), not ${other}`, [
      { path: want, message: `required for namespace ${params.namespace}` },
    ]);
  }
  if (id.kind === 'address') return parseAddress(ctx, given);
  const bytes = parseHex(given);
  if (bytes.length !== id.bytes) {
    throw new InvalidParamsError(`id has ${bytes.length} bytes, expected ${id.bytes} (${id.describes})`, [
      { path: 'id', message: `expected ${id.bytes} bytes` },
    ]);
  }
  return bytes;
}

const hash0x = z.string().regex(/^0x[0-9a-f]{64}$/);

/** The JSON form of a state proof (src/state/proof.ts `StateProofJson`, docs/state-trie.md), as both answers carry it. */
export const stateProofJsonResult = z
  .object({
    kind: z.enum(['inclusion', 'absence-empty', 'absence-leaf']),
    siblings: z.array(z.string()).readonly(),
    value: z.string().optional(),
    leafKey: z.string().optional(),
    leafValueHash: z.string().optional(),
  })
  .describe('the JSON form of a state proof (docs/state-trie.md)');

/**
 * The answer for a namespace other than `account` (docs/api.md "get_proof"): the record's id as asked (`address` for
 * address-keyed namespaces, else `id`), whether it exists, and the proof; no decoded figures (a light client reads
 * the record out of the proof with verifyStateRecord). The account answer keeps its own, older shape.
 */
const recordProofResult = z.object({
  namespace: z.enum(stateNamespaceNames),
  address: z.string().optional().describe('bech32m id of an address-keyed namespace'),
  id: z.string().regex(/^0x(?:[0-9a-f]{2})+$/).optional().describe('0x-hex natural id of the record'),
  key: hash0x.describe('the trie key, BLAKE3(tag ‖ id)'),
  state_root: hash0x,
  block_hash: hash0x,
  block_height: z.int().nullable(),
  exists: z.boolean(),
  proof: stateProofJsonResult,
});

/**
 * A Merkle proof of an account (or of its absence) against the state root a chain block's header commits to; with
 * `namespace`, of a record of any state namespace (src/state/namespaces.ts) by its natural id.
 */
export const getProof = defineMethod({
  name: 'get_proof',
  summary:
    "A state proof of an address's account (with namespace, of any state record) against a header's state root, for light clients (eth_getProof's role).",
  params: z.strictObject({
    address: addressSchema.optional().describe('bech32m address: the id of the account (and agent) namespace'),
    namespace: z.enum(stateNamespaceNames).default('account').describe('state namespace of the record (default account)'),
    id: hexSchema
      .max(2 + 2 * stateRecordIdBytesMax)
      .optional()
      .describe('0x-hex natural id of the record, for namespaces not keyed by address'),
  }),
  scope: 'public',
  // The account answer (no namespace, or `account`), else a record's.
  result: z.union([
    z.object({
      address: addressResult,
      key: hashResult,
      state_root: hashResult,
      block_hash: hashResult,
      block_height: z.int().nullable(),
      account: z.object({ balance: coinsResult, nonce: u64NumberResult, energy: u64NumberResult }),
      proof: stateProofJsonResult,
    }),
    recordProofResult,
  ]),
  run(params, ctx) {
    const ledger = need(ctx, 'ledger', 'get_proof');
    if (params.namespace !== 'account') {
      const id = recordId(ctx, params);
      if (ledger.proveRecord === undefined) throw new ServiceUnavailableError('ledger (record proofs)', 'get_proof');
      const result = ledger.proveRecord(params.namespace, id);
      return {
        namespace: params.namespace,
        ...(params.address !== undefined ? { address: params.address } : { id: `0x${toHex(id)}` }),
        key: toHash0x(result.key),
        state_root: toHash0x(result.stateRoot),
        block_hash: toHash0x(result.blockHash),
        block_height: ctx.services.chain.get(toHex(result.blockHash))?.height ?? null,
        exists: result.exists,
        proof: proofToJson(result.proof),
      };
    }
    // The account namespace: the answer every existing client knows (recordId made sure `address` is given).
    const address = recordId(ctx, params);
    const result = ledger.proof(address);
    const account = ledger.account(address);
    return {
      address: params.address!,
      key: toHash0x(result.key),
      state_root: toHash0x(result.stateRoot),
      block_hash: toHash0x(result.blockHash),
      block_height: ctx.services.chain.get(toHex(result.blockHash))?.height ?? null,
      account: { balance: unitsToCoins(account.balance), nonce: Number(account.nonce), energy: Number(account.energy) },
      proof: proofToJson(result.proof),
    };
  },
});
