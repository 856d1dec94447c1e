/**
 * Which way a transaction touches each address it names: out (it sends), in (it receives) or self (both). One rule
 * for the transaction index's address histories, address subscription events and wallet histories, derived from
 * the kind's `parties`.
 */
import { equalBytes } from '../util/bytes.ts';
import type { AnyTransaction } from './kind.ts';
import { kindOf } from './registry.ts';

type Direction = 'out' | 'in' | 'self';

export interface AddressTouch {
  readonly address: Uint8Array;
  readonly direction: Direction;
}

/** Each address the transaction touches once, senders first, in the kind's order. */
export function addressTouches(tx: AnyTransaction): AddressTouch[] {
  const touches: { address: Uint8Array; sends: boolean; receives: boolean }[] = [];
  // Parties are a handful: a linear scan with byte comparison beats building hex keys.
  for (const party of kindOf(tx).parties(tx)) {
    let seen = touches.find((t) => equalBytes(t.address, party.address));
    if (seen === undefined) touches.push((seen = { address: party.address, sends: false, receives: false }));
    if (party.role === 'sender') seen.sends = true;
    else seen.receives = true;
  }
  return touches.map(({ address, sends, receives }) => ({ address, direction: sends && receives ? 'self' : sends ? 'out' : 'in' }));
}

/** Whether `address` is among the transaction's parties. */
export function touches(tx: AnyTransaction, address: Uint8Array): boolean {
  return kindOf(tx).parties(tx).some((p) => equalBytes(p.address, address));
}
