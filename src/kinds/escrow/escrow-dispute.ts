/**
 * Kind 0x33, escrow dispute: the client or the agent stops a locked escrow from being claimed or reclaimed and hands
 * it to its arbiter (docs/settlement.md "Disputes"). Only while locked, before the timeout (after it the client's
 * reclaim cannot be blocked), and only when the escrow names an arbiter — with none, no one could ever release it.
 *
 *   payload = escrow_id [32]
 */
import { TxKind } from '../../codec/transaction-kinds.ts';
import { equalBytes } from '../../util/bytes.ts';
import { defineAgentKind } from '../agent/envelope.ts';
import { EscrowStatus } from './escrow-record.ts';
import { escrowIdPayload, escrowIdView, type EscrowIdPayload } from './escrow-id-payload.ts';
import { mustReadEscrow, readEscrow, writeEscrow } from './escrow-state.ts';


export const escrowDisputeKind = defineAgentKind<typeof TxKind.EscrowDispute, EscrowIdPayload>({
  tag: TxKind.EscrowDispute,
  name: 'escrow_dispute',
  controllerMay: true,
  payload: escrowIdPayload,
  amount: () => 0n,
  check(state, tx, { now }) {
    const escrow = readEscrow(state, tx.payload.escrowId);
    if (escrow === undefined) return 'escrow_unknown';
    if (!equalBytes(escrow.client, tx.payer) && !equalBytes(escrow.agent, tx.payer)) return 'escrow_not_party';
    if (escrow.status !== EscrowStatus.EscrowLocked) return 'escrow_not_locked';
    if (escrow.arbiter === undefined) return 'escrow_no_arbiter';
    return now >= escrow.timeoutDaaScore ? 'escrow_timed_out' : undefined;
  },
  apply(state, tx) {
    const escrow = mustReadEscrow(state, tx.payload.escrowId);
    writeEscrow(state, tx.payload.escrowId, { ...escrow, status: EscrowStatus.Disputed, disputedDaaScore: BigInt(state.daaScore) });
  },
  counterparty: (tx) => tx.payer,
  view: escrowIdView,
});
