/**
 * Which way a transaction touches each address it names: out (it sends), in (it receives) or self (both). One rule
 * for the transaction index's address histories, address subscription events and wallet histories, derived from
 * the kind's `parties`.
 */
import { toHex } from '../util/bytes.ts';
import type { AnyTransaction } from './kind.ts';
import { kindOf } from './registry.ts';

export type Direction = 'out' | 'in' | 'self';

export interface AddressTouch {
  readonly address: Uint8Array;
  readonly direction: Direction;
}

/** Each address the transaction touches once, senders first, in the kind's order. */
export function addressTouches(tx: AnyTransaction): AddressTouch[] {
  const parties = kindOf(tx).parties(tx);
  const roles = new Map<string, { address: Uint8Array; sends: boolean; receives: boolean }>();
  for (const party of parties) {
    const key = toHex(party.address);
    const seen = roles.get(key) ?? { address: party.address, sends: false, receives: false };
    if (party.role === 'sender') seen.sends = true;
    else seen.receives = true;
    roles.set(key, seen);
  }
  return [...roles.values()].map(({ address, sends, receives }) => ({
    address,
    direction: sends && receives ? 'self' : sends ? 'out' : 'in',
  }));
}

/** Whether `address` is among the transaction's parties. */
export function touches(tx: AnyTransaction, address: Uint8Array): boolean {
  const key = toHex(address);
  return kindOf(tx).parties(tx).some((p) => toHex(p.address) === key);
}
