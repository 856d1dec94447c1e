import { z } from 'zod';
import { formatUnits, unitsToCoins } from '../../crypto/amount.ts';
import { decodeStealthAddress, looksLikeStealthAddress } from '../../crypto/stealth-address.ts';
import type { SignedRingSpend } from '../../kinds/confidential/ring-spend.ts';
import { kindOf } from '../../kinds/registry.ts';
import { stemHopsMax } from '../../p2p/dandelion.ts';
import { toHash0x } from '../../util/bytes.ts';
import { PrivacyError } from '../errors.ts';
import { defineMethod, need, type RpcCallContext } from '../method.ts';
import type { ConfidentialEndpoint } from '../ports.ts';
import { coinsResult, exactResult, hashResult, transactionStatusResult } from '../result-schemas.ts';
import { amountSchema, anyAddressSchema, parseAddress, parseCoins } from '../schemas.ts';
import { sendTransactionDefaults } from './send-transaction.ts';

/** The proofs the node builds: CLSAG ring signatures and one aggregated Bulletproofs+ range proof. */
const privacyProofSystem = 'clsag+bulletproof_plus';
/** A Dandelion++ stem is at most this long (src/p2p/dandelion.ts). */
const mixnetHopsMax = stemHopsMax;
const endpointsMax = 16;

function parseEndpoint(ctx: RpcCallContext, what: string, e: { address: string; amount: number; stealth_payment?: boolean | undefined }): ConfidentialEndpoint {
  const amount = parseCoins(e.amount);
  if (amount === 0n) throw new PrivacyError(`${what}: amount must be above zero`, 'zero_amount');
  const hrp = ctx.services.chain.params.hrp;
  if (looksLikeStealthAddress(e.address, hrp)) {
    decodeStealthAddress(e.address, hrp);
    if (e.stealth_payment === false) throw new PrivacyError(`${what}: a stealth address is always paid confidentially (stealth_payment false)`, 'stealth_payment_mismatch');
    return { kind: 'stealth', address: e.address.toLowerCase(), amount };
  }
  if (e.stealth_payment === true) throw new PrivacyError(`${what}: stealth_payment needs a stealth address (create_address with address_type stealth)`, 'not_a_stealth_address');
  return { kind: 'transparent', address: parseAddress(ctx, e.address), amount };
}

/**
 * Builds, signs and submits a confidential transaction from the node wallet (docs/api.md "Privacy"). What it is follows
 * from the endpoints: one transparent input and stealth outputs is a shield (`medium`); stealth inputs and stealth
 * outputs a confidential transfer (`high`); stealth inputs and one transparent output (plus stealth ones) an
 * unshield (`medium`). Inputs total outputs plus fee; change returns, hidden, to each stealth input's account.
 */
export const createConfidentialTransaction = defineMethod({
  name: 'create_confidential_transaction',
  summary: 'Shield, transfer confidentially or unshield with the node wallet\'s keys: ring inputs, stealth outputs, hidden amounts.',
  params: z.strictObject({
    inputs: z.array(z.strictObject({ address: anyAddressSchema, amount: amountSchema, privacy_proof: z.string().max(64).optional() })).min(1).max(endpointsMax),
    outputs: z.array(z.strictObject({ address: anyAddressSchema, amount: amountSchema, stealth_payment: z.boolean().optional() })).min(1).max(endpointsMax),
    ring_size: z.int().min(1).max(16).optional(),
    mixnet_hops: z.int().min(0).max(mixnetHopsMax).optional(),
    fee: amountSchema.default(sendTransactionDefaults.fee),
  }),
  scope: 'send_transactions',
  result: z.object({
    hash: hashResult,
    status: transactionStatusResult,
    kind: z.enum(['shield', 'confidential_transfer', 'unshield']),
    privacy_level: z.enum(['high', 'medium']),
    fee: coinsResult,
    fee_exact: exactResult,
    ring_size: z.int().nullable(),
    key_images: z.array(hashResult),
    outputs: z.array(z.object({ one_time_key: hashResult, view_tag: z.int() })),
    tx_public_key: hashResult,
    privacy_proof: z.string(),
  }),
  async run(params, ctx) {
    for (const input of params.inputs) {
      if (input.privacy_proof !== undefined && input.privacy_proof !== privacyProofSystem) {
        throw new PrivacyError(`privacy_proof: got "${input.privacy_proof}", this node builds "${privacyProofSystem}"`, 'unsupported_privacy_proof');
      }
    }
    const fee = parseCoins(params.fee);
    const inputs = params.inputs.map((e, i) => parseEndpoint(ctx, `inputs[${i}]`, e));
    const outputs = params.outputs.map((e, i) => parseEndpoint(ctx, `outputs[${i}]`, e));
    const privacy = need(ctx, 'privacy', 'create_confidential_transaction');
    const mempool = need(ctx, 'mempool', 'create_confidential_transaction');
    const tx = privacy.buildConfidential({ inputs, outputs, fee, ...(params.ring_size === undefined ? {} : { ringSize: params.ring_size }) });
    const submitted = await mempool.submit(tx, params.mixnet_hops === undefined ? undefined : { mixnetHops: params.mixnet_hops });
    const kind = kindOf(tx);
    const spend = tx as Partial<SignedRingSpend> & { txPublicKey: Uint8Array; outputs: readonly { oneTimeKey: Uint8Array; viewTag: number }[] };
    return {
      hash: toHash0x(submitted.hash),
      status: submitted.status,
      kind: kind.name as 'shield' | 'confidential_transfer' | 'unshield',
      privacy_level: kind.privacyLevel?.(tx) ?? 'medium',
      fee: unitsToCoins(fee),
      fee_exact: formatUnits(fee),
      ring_size: spend.inputs?.[0]?.ring.length ?? null,
      key_images: (spend.inputs ?? []).map((input) => toHash0x(input.keyImage)),
      outputs: spend.outputs.map((o) => ({ one_time_key: toHash0x(o.oneTimeKey), view_tag: o.viewTag })),
      tx_public_key: toHash0x(spend.txPublicKey),
      privacy_proof: privacyProofSystem,
    };
  },
});
