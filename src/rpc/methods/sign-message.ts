import { z } from 'zod';
import { toHex } from '../../util/bytes.ts';
import { defineMethod, need } from '../method.ts';
import { addressResult } from '../result-schemas.ts';
import { addressSchema, messageSchema, parseAddress } from '../schemas.ts';

export const signatureTypeSchema = z.enum(['ecdsa', 'schnorr', 'ring']).default('schnorr');

export const signMessage = defineMethod({
  name: 'sign_message',
  summary: 'Sign a text message with the key of one of the node wallet\'s addresses (Schnorr by default, or ECDSA).',
  params: z.strictObject({ address: addressSchema, message: messageSchema, signature_type: signatureTypeSchema }),
  scope: 'send_transactions',
  result: z.object({
    address: addressResult,
    message: z.string(),
    signature: z.string().describe('0x-hex, 64 bytes'),
    signature_type: z.enum(['ecdsa', 'schnorr', 'ring']),
    public_key: z.string().describe('0x-hex'),
  }),
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
