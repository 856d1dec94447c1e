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
    public_spend_key: z.string().optional().describe('stealth: 0x-hex ed25519 B'),
    public_view_key: z.string().optional().describe('stealth: 0x-hex ed25519 A'),
  }),
  async run(params, ctx) {
    if (params.address_type === 'stealth') {
      // A stealth address is a key pair, not a 33-byte chain address (docs/privacy.md "Stealth addresses").
      const created = need(ctx, 'privacy', 'create_address').createStealthAccount(params.wallet_name);
      return {
        address: created.text,
        public_key: null,
        wallet_name: params.wallet_name,
        address_type: 'stealth' as const,
        privacy_level: params.privacy_level,
        public_spend_key: `0x${toHex(created.spendPublic)}`,
        public_view_key: `0x${toHex(created.viewPublic)}`,
      };
    }
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
