/** Param schemas and parsers the settlement methods share: keys, escrow ids, scope names. */
import { z } from 'zod';
import { txKindName } from '../../codec/transaction-kinds.ts';
import { sessionScopeBit } from '../../kinds/agent/agent-record.ts';
import { InvalidParamsError } from '../errors.ts';
import { hashSchema, parseHex } from '../schemas.ts';

export const publicKeySchema = z.string().regex(/^(0x)?[0-9a-fA-F]{64}$/, 'expected a 32-byte x-only public key as hex');
export const escrowIdSchema = hashSchema.describe('the 32-byte escrow id (A2A escrowHash)');

export function parseKey(text: string, path: string): Uint8Array {
  const bytes = parseHex(text);
  if (bytes.length !== 32) throw new InvalidParamsError(`${path}: expected 32 bytes`, [{ path, message: 'expected 32 bytes' }]);
  return bytes;
}

/** Kind names a session key may be scoped for (docs/settlement.md "Signers"). */
export const scopeKindNames = [...sessionScopeBit.keys()].map((kind) => txKindName(kind)!) as [string, ...string[]];

export function scopeBits(names: readonly string[]): number {
  let bits = 0;
  for (const name of names) {
    const entry = [...sessionScopeBit].find(([kind]) => txKindName(kind) === name);
    if (entry === undefined) throw new InvalidParamsError(`allowed_kinds: ${name} is not a kind a session key may sign`, [{ path: 'allowed_kinds', message: `one of ${scopeKindNames.join(', ')}` }]);
    bits |= entry[1];
  }
  return bits;
}
