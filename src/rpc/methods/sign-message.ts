import { z } from 'zod';
import { toHex } from '../../util/bytes.ts';
import { defineMethod, need } from '../method.ts';
import { addressSchema, messageSchema, parseAddress } from '../schemas.ts';

export const signatureTypeSchema = z.enum(['ecdsa', 'schnorr', 'ring']).default('schnorr');

export const signMessage = defineMethod({
  name: 'sign_message',
  summary: 'Sign a text message with the key of one of the node wallet\'s addresses (Schnorr by default, or ECDSA).',
  params: z.strictObject({ address: addressSchema, message: messageSchema, signature_type: signatureTypeSchema }),
  scope: 'send_transactions',
  result: {
    type: 'object',
    required: ['address', 'message', 'signature', 'signature_type', 'public_key'],
    properties: {
      address: { type: 'string' },
      message: { type: 'string' },
      signature: { type: 'string' },
      signature_type: { type: 'string' },
      public_key: { type: 'string' },
    },
  },
  async run(params, ctx) {
    const wallet = need(ctx, 'wallet', 'sign_message');
    const address = parseAddress(ctx, params.address);
    const signed = await wallet.signMessage({ address, message: params.message, signatureType: params.signature_type });
    return {
      address: params.address,
      message: params.message,
      signature: `0x${toHex(signed.signature)}`,
      signature_type: params.signature_type,
      public_key: `0x${toHex(signed.publicKey)}`,
    };
  },
});
