import { z } from 'zod';
import { encodeAddress } from '../../crypto/address.ts';
import { toHex } from '../../util/bytes.ts';
import { defineMethod, need } from '../method.ts';
import { addressResult } from '../result-schemas.ts';

export const createAddress = defineMethod({
  name: 'create_address',
  summary: 'A new address from the node wallet (wallet_name default "default").',
  params: z.strictObject({
    wallet_name: z.string().min(1).max(64).default('default'),
    address_type: z.enum(['standard', 'stealth', 'multisig']).default('standard'),
    privacy_level: z.enum(['low', 'medium', 'high']).default('medium'),
  }),
  scope: 'send_transactions',
  result: z.object({
    address: addressResult,
    public_key: z.string().nullable(),
    wallet_name: z.string(),
    address_type: z.enum(['standard', 'stealth', 'multisig']),
    privacy_level: z.string(),
  }),
  async run(params, ctx) {
    const wallet = need(ctx, 'wallet', 'create_address');
    const created = await wallet.createAddress({ walletName: params.wallet_name, addressType: params.address_type, privacyLevel: params.privacy_level });
    return {
      address: encodeAddress(ctx.services.chain.params.hrp, created.address),
      public_key: created.publicKey ? `0x${toHex(created.publicKey)}` : null,
      wallet_name: created.walletName,
      address_type: created.addressType,
      privacy_level: created.privacyLevel,
    };
  },
});
