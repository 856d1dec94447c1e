/**
 * The escrow rules of rules v2 (docs/settlement.md "Funds never locked for good", src/consensus/activation.ts): no
 * escrow can hold its coins for ever.
 *
 * - An arbiter must be able to sign `escrow_resolve`. Every agent and escrow transaction is paid and signed by a
 *   standard address (src/kinds/agent/envelope.ts), so a multisig or contract arbiter could never resolve a dispute:
 *   `escrow_create` naming one is refused (`escrow_arbiter_cannot_sign`).
 * - A dispute that no one resolves ends: from the escrow's dispute deadline (its timeout plus
 *   `escrowDisputeGraceDaa`) the arbiter may no longer resolve it and the client reclaims it whole, as after a timeout.
 *   The deadline is fixed at creation (the timeout is), so the arbiter always has at least the grace to act after the
 *   last possible dispute (disputes end at the timeout), and resolve and reclaim never overlap.
 */
import { AddressType } from '../../crypto/address.ts';
import type { EscrowRecord } from './escrow-record.ts';

/** One day of DAA scores at one block a second: how long an arbiter has after the timeout to resolve a dispute. */
export const escrowDisputeGraceDaa = 86_400n;

/** Whether `arbiter` can send `escrow_resolve`: only a standard address pays and signs agent and escrow kinds. */
export function arbiterCanSign(arbiter: Uint8Array): boolean {
  return arbiter[0] === AddressType.Standard;
}

/** The DAA score from which a disputed escrow is the client's to reclaim (rules v2). */
export function disputeDeadline(escrow: Pick<EscrowRecord, 'timeoutDaaScore'>): bigint {
  return escrow.timeoutDaaScore + escrowDisputeGraceDaa;
}
