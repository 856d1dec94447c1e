import { z } from 'zod';
import { defineMethod, need } from '../method.ts';
import { addressResult } from '../result-schemas.ts';
import { encodePoint } from '../../crypto/monero/point.ts';
import { decodeStealthAddress, looksLikeStealthAddress } from '../../crypto/stealth-address.ts';
import { verifyRingMessage } from '../../wallet/ring-message.ts';
import { anyAddressSchema, hexSchema, messageSchema, parseAddress, parseHex } from '../schemas.ts';
import { signatureTypeSchema } from './sign-message.ts';

export const verifyMessage = defineMethod({
  name: 'verify_message',
  summary: 'Check a sign_message signature against an address (Bitcoin Core verifymessage).',
  params: z.strictObject({ address: anyAddressSchema, message: messageSchema, signature: hexSchema, signature_type: signatureTypeSchema }),
  scope: 'public',
  result: z.object({ valid: z.boolean(), address: addressResult }),
  run(params, ctx) {
    const hrp = ctx.services.chain.params.hrp;
    if (params.signature_type === 'ring') {
      // Ring signatures need no wallet: the ring, key image and proof travel in the signature (src/wallet/ring-message.ts).
      if (!looksLikeStealthAddress(params.address, hrp)) return { valid: false, address: params.address };
      const { spendPublic } = decodeStealthAddress(params.address, hrp);
      return { valid: verifyRingMessage(encodePoint(spendPublic), params.message, parseHex(params.signature)), address: params.address };
    }
    const wallet = need(ctx, 'wallet', 'verify_message');
    const address = parseAddress(ctx, params.address);
    const valid = wallet.verifyMessage({ address, message: params.message, signature: parseHex(params.signature), signatureType: params.signature_type });
    return { valid, address: params.address };
  },
});
