import { z } from 'zod';
import { toHex } from '../../util/bytes.ts';
import { defineMethod, need } from '../method.ts';
import { addressResult } from '../result-schemas.ts';
import { encodePoint } from '../../crypto/monero/point.ts';
import { decodeStealthAddress, looksLikeStealthAddress } from '../../crypto/stealth-address.ts';
import { PrivacyError } from '../errors.ts';
import { anyAddressSchema, messageSchema, parseAddress } from '../schemas.ts';
import { decodeRingMessageSignature } from '../../wallet/ring-message.ts';

export const signatureTypeSchema = z.enum(['ecdsa', 'schnorr', 'ring']).default('schnorr');

export const signMessage = defineMethod({
  name: 'sign_message',
  summary: 'Sign a text message with the key of one of the node wallet\'s addresses (Schnorr by default, or ECDSA; ring with a stealth address).',
  params: z.strictObject({ address: anyAddressSchema, message: messageSchema, signature_type: signatureTypeSchema }),
  scope: 'send_transactions',
  result: z.object({
    address: addressResult,
    message: z.string(),
    signature: z.string().describe('0x-hex: 64 bytes, or a ring signature (src/wallet/ring-message.ts)'),
    signature_type: z.enum(['ecdsa', 'schnorr', 'ring']),
    public_key: z.string().describe('0x-hex'),
    ring_size: z.int().nullable().describe('ring: how many keys the ring holds (the signer is one of them, 2..16); null for schnorr and ecdsa'),
  }),
  async run(params, ctx) {
    const hrp = ctx.services.chain.params.hrp;
    if (params.signature_type === 'ring' || looksLikeStealthAddress(params.address, hrp)) {
      if (params.signature_type !== 'ring') throw new PrivacyError('a stealth address signs with signature_type ring', 'ring_needs_stealth');
      if (!looksLikeStealthAddress(params.address, hrp)) throw new PrivacyError('signature_type ring needs a stealth address of the node wallet (its spend key signs)', 'ring_needs_stealth');
      const signature = need(ctx, 'privacy', 'sign_message').signRingMessage(params.address, params.message);
      const { spendPublic } = decodeStealthAddress(params.address, hrp);
      const ringSize = decodeRingMessageSignature(signature)!.ring.length;
      return { address: params.address, message: params.message, signature: `0x${toHex(signature)}`, signature_type: 'ring' as const, public_key: `0x${toHex(encodePoint(spendPublic))}`, ring_size: ringSize };
    }
    const wallet = need(ctx, 'wallet', 'sign_message');
    const address = parseAddress(ctx, params.address);
    const signed = await wallet.signMessage({ address, message: params.message, signatureType: params.signature_type });
    return {
      address: params.address,
      message: params.message,
      signature: `0x${toHex(signed.signature)}`,
      signature_type: params.signature_type,
      public_key: `0x${toHex(signed.publicKey)}`,
      ring_size: null,
    };
  },
});
