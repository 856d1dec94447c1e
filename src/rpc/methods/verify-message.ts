import { z } from 'zod';
import { defineMethod, need } from '../method.ts';
import { addressResult } from '../result-schemas.ts';
import { encodePoint } from '../../crypto/monero/point.ts';
import { decodeStealthAddress, looksLikeStealthAddress } from '../../crypto/stealth-address.ts';
import { decodeRingMessageSignature, verifyRingMessage } from '../../wallet/ring-message.ts';
import { anyAddressSchema, hexSchema, messageSchema, parseAddress, parseHex } from '../schemas.ts';
import { signatureTypeSchema } from './sign-message.ts';

export const verifyMessage = defineMethod({
  name: 'verify_message',
  summary: 'Check a sign_message signature against an address (Bitcoin Core verifymessage).',
  params: z.strictObject({ address: anyAddressSchema, message: messageSchema, signature: hexSchema, signature_type: signatureTypeSchema }),
  scope: 'public',
  result: z.object({
    valid: z.boolean(),
    address: addressResult,
    ring_size: z.int().nullable().describe('ring: how many keys the ring holds, one of which signed (null when it does not decode); null for schnorr and ecdsa'),
  }),
  run(params, ctx) {
    const hrp = ctx.services.chain.params.hrp;
    if (params.signature_type === 'ring') {
      // Ring signatures need no wallet: the ring, key image and proof travel in the signature (src/wallet/ring-message.ts).
      if (!looksLikeStealthAddress(params.address, hrp)) return { valid: false, address: params.address, ring_size: null };
      const { spendPublic } = decodeStealthAddress(params.address, hrp);
      const signature = parseHex(params.signature);
      const ringSize = decodeRingMessageSignature(signature)?.ring.length ?? null;
      return { valid: verifyRingMessage(encodePoint(spendPublic), params.message, signature), address: params.address, ring_size: ringSize };
    }
    const wallet = need(ctx, 'wallet', 'verify_message');
    const address = parseAddress(ctx, params.address);
    const valid = wallet.verifyMessage({ address, message: params.message, signature: parseHex(params.signature), signatureType: params.signature_type });
    return { valid, address: params.address, ring_size: null };
  },
});
