/**
 * Param building blocks shared by the method schemas: every external input is shaped and bounded here, then turned
 * into bytes/units by the helpers below (which raise the seed's codes: -40002 for addresses, -32602 for amounts).
 */
import { z } from 'zod';
import { addressCharsMax, decodeAddress } from '../crypto/address.ts';
import { stealthAddressCharsMax } from '../crypto/stealth-address.ts';
import { coinsToUnits } from '../crypto/amount.ts';
import { rpcHistoryLimitDefault, rpcHistoryLimitMax, rpcMessageCharsMax } from '../limits.ts';
import { fromHex, strip0x } from '../util/bytes.ts';
import type { RpcCallContext } from './method.ts';

export const addressSchema = z.string().min(1).max(addressCharsMax).describe('bech32m address of this network');
/** A standard, multisig or contract address, or a stealth address (src/crypto/stealth-address.ts). */
export const anyAddressSchema = z.string().min(1).max(stealthAddressCharsMax).describe('bech32m address or stealth address of this network');
export const hashSchema = z
  .string()
  .regex(/^(0x)?[0-9a-fA-F]{64}$/, 'expected 0x followed by 64 hex digits')
  .describe('0x-prefixed 32-byte hash');
// Non-capturing: a capture group repeated over a 300 KB block costs ~5 ns a character, eight times this.
export const hexSchema = z.string().regex(/^(?:0x)?(?:[0-9a-fA-F]{2})*$/, 'expected 0x-prefixed hex bytes');
export const amountSchema = z.number().nonnegative().describe('coins, at most 8 decimals');
export const heightSchema = z.number().int().nonnegative().describe('selected-chain height');
export const limitSchema = z.number().int().min(1).max(rpcHistoryLimitMax).default(rpcHistoryLimitDefault);
export const offsetSchema = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).default(0);
export const messageSchema = z.string().max(rpcMessageCharsMax);

export function parseAddress(ctx: RpcCallContext, text: string): Uint8Array {
  return decodeAddress(text, ctx.services.chain.params.hrp);
}

/** Hex text of any case, `0x` or not (a hash, a key, raw bytes; its schema already checked the shape) → bytes. */
export function parseHex(text: string): Uint8Array {
  return fromHex(strip0x(text)); // fromHex reads either case
}

export function parseCoins(coins: number): bigint {
  return coinsToUnits(coins);
}
