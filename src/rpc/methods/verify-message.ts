import { z } from 'zod';
import { defineMethod, need } from '../method.ts';
import { addressResult } from '../result-schemas.ts';
import { addressSchema, hexSchema, messageSchema, parseAddress, parseHex } from '../schemas.ts';
import { signatureTypeSchema } from './sign-message.ts';

export const verifyMessage = defineMethod({
  name: 'verify_message',
  summary: 'Check a sign_message signature against an address (Bitcoin Core verifymessage).',
  params: z.strictObject({ address: addressSchema, message: messageSchema, signature: hexSchema, signature_type: signatureTypeSchema }),
  scope: 'public',
  result: z.object({ valid: z.boolean(), address: addressResult }),
  run(params, ctx) {
    const wallet = need(ctx, 'wallet', 'verify_message');
    const address = parseAddress(ctx, params.address);
    const valid = wallet.verifyMessage({ address, message: params.message, signature: parseHex(params.signature), signatureType: params.signature_type });
    return { valid, address: params.address };
  },
});
