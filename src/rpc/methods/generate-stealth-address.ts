import { z } from 'zod';
import { cryptPaymentId, paymentIdBytes } from '../../crypto/monero/payment-id.ts';
import { decodePublicPoint, encodePoint, mulBase } from '../../crypto/monero/point.ts';
import { encodeScalar, randomScalar } from '../../crypto/monero/scalar.ts';
import { derivePublicKey, deriveViewTag, generateKeyDerivation } from '../../crypto/monero/stealth.ts';
import { encodeStealthAddress } from '../../crypto/stealth-address.ts';
import { toHash0x, toHex } from '../../util/bytes.ts';
import { PrivacyError } from '../errors.ts';
import { defineMethod, need } from '../method.ts';
import { hashResult } from '../result-schemas.ts';
import { hexSchema, parseHex } from '../schemas.ts';

const keySchema = z.string().regex(/^(0x)?[0-9a-fA-F]{64}$/, 'expected 0x followed by 64 hex digits (a 32-byte ed25519 point)');

/**
 * A one-time destination for the recipient (B, A), derived exactly as Monero derives output 0 of a transaction
 * with a fresh secret r (docs/api.md "Privacy"): R = r·G, D = 8·r·A, P = Hs(D ‖ 0)·G + B and the view tag. Any
 * wallet holding the view key finds P. The result carries r: the payer's, to build the output and to prove the
 * payment later (Monero's tx key) — whoever holds it can link P to the recipient.
 */
export const generateStealthAddress = defineMethod({
  name: 'generate_stealth_address',
  summary: 'A one-time output key (with tx public key and view tag) paying a public spend/view key pair; an integrated address with a payment id.',
  params: z.strictObject({ public_spend_key: keySchema, public_view_key: keySchema, payment_id: hexSchema.optional() }),
  scope: 'public',
  result: z.object({
    one_time_key: hashResult,
    tx_public_key: hashResult,
    tx_secret_key: hashResult,
    view_tag: z.int().min(0).max(255),
    output_index: z.literal(0),
    stealth_address: z.string(),
    integrated_address: z.string().optional(),
    encrypted_payment_id: z.string().optional().describe('0x-hex, 8 bytes: pid ⊕ keccak(D ‖ 0x8d)'),
  }),
  run(params, ctx) {
    const spendPublic = decodePublicPoint(parseHex(params.public_spend_key), 'public spend key');
    const viewPublic = decodePublicPoint(parseHex(params.public_view_key), 'public view key');
    const paymentId = params.payment_id === undefined ? undefined : parseHex(params.payment_id);
    if (paymentId !== undefined && paymentId.length !== paymentIdBytes) {
      throw new PrivacyError(`payment_id: got ${paymentId.length} bytes, expected ${paymentIdBytes}`, 'bad_payment_id');
    }
    const r = randomScalar(need(ctx, 'privacy', 'generate_stealth_address').randomBytes);
    const derivation = generateKeyDerivation(viewPublic, r);
    const hrp = ctx.services.chain.params.hrp;
    return {
      one_time_key: toHash0x(encodePoint(derivePublicKey(derivation, 0, spendPublic))),
      tx_public_key: toHash0x(encodePoint(mulBase(r))),
      tx_secret_key: toHash0x(encodeScalar(r)),
      view_tag: deriveViewTag(derivation, 0),
      output_index: 0 as const,
      stealth_address: encodeStealthAddress(hrp, { spendPublic, viewPublic }),
      ...(paymentId === undefined
        ? {}
        : { integrated_address: encodeStealthAddress(hrp, { spendPublic, viewPublic, paymentId }), encrypted_payment_id: `0x${toHex(cryptPaymentId(paymentId, derivation))}` }),
    };
  },
});
