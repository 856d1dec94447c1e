/**
 * Kind 0x32, escrow reclaim (the seed's ReclaimEscrowTimeout): the client takes a still-locked escrow's amount back
 * once its timeout DAA score is reached (docs/settlement.md "Escrows"), and under rules v2 a disputed one no arbiter
 * resolved once its dispute deadline is reached (escrow-rules-v2.ts). Paid and signed by the client.
 *
 *   payload = escrow_id [32]
 */
import { TxKind } from '../../codec/transaction-kinds.ts';
import { equalBytes } from '../../util/bytes.ts';
import { defineAgentKind } from '../agent/envelope.ts';
import { EscrowStatus } from './escrow-record.ts';
import { escrowIdPayload, escrowIdView, type EscrowIdPayload } from './escrow-id-payload.ts';
import { disputeDeadline } from './escrow-rules-v2.ts';
import { readEscrow, settleEscrow } from './escrow-state.ts';


export const escrowReclaimKind = defineAgentKind<typeof TxKind.EscrowReclaim, EscrowIdPayload>({
  tag: TxKind.EscrowReclaim,
  name: 'escrow_reclaim',
  controllerMay: true,
  payload: escrowIdPayload,
  amount: () => 0n,
  check(state, tx, { now }) {
    const escrow = readEscrow(state, tx.payload.escrowId);
    if (escrow === undefined) return 'escrow_unknown';
    if (!equalBytes(escrow.client, tx.payer)) return 'escrow_not_client';
    if (escrow.status === EscrowStatus.Disputed && state.rulesV2 === true) {
      return now < disputeDeadline(escrow) ? 'escrow_dispute_open' : undefined;
    }
    if (escrow.status !== EscrowStatus.EscrowLocked) return 'escrow_not_locked';
    return now < escrow.timeoutDaaScore ? 'escrow_not_timed_out' : undefined;
  },
  apply: (state, tx) => settleEscrow(state, tx.payload.escrowId, 0n, 'refunded'),
  counterparty: (tx) => tx.payer,
  view: escrowIdView,
});
