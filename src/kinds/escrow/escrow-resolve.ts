/**
 * Kind 0x34, escrow resolve: the arbiter of a disputed escrow splits its amount — `agent_share` to the agent
 * account, the rest back to the client (docs/settlement.md "Disputes"). The status becomes Claimed when the agent
 * got anything and Refunded when not; the agent's `resolved` counter records that a dispute happened. Under rules v2
 * only before the dispute deadline, from which the client reclaims instead (escrow-rules-v2.ts).
 *
 *   payload = escrow_id [32] | agent_share u64
 */
import { TxKind } from '../../codec/transaction-kinds.ts';
import { formatUnits } from '../../crypto/amount.ts';
import { equalBytes, toHex } from '../../util/bytes.ts';
import { defineAgentKind } from '../agent/envelope.ts';
import { escrowIdBytes, EscrowStatus } from './escrow-record.ts';
import { disputeDeadline } from './escrow-rules-v2.ts';
import { readEscrow, settleEscrow } from './escrow-state.ts';

export interface EscrowResolvePayload {
  readonly escrowId: Uint8Array;
  readonly agentShare: bigint;
}

export const escrowResolveKind = defineAgentKind<typeof TxKind.EscrowResolve, EscrowResolvePayload>({
  tag: TxKind.EscrowResolve,
  name: 'escrow_resolve',
  controllerMay: true,
  payload: {
    bytes: () => escrowIdBytes + 8,
    write(w, p) {
      w.bytes(p.escrowId, escrowIdBytes, 'escrow_id');
      w.u64(p.agentShare, 'agent_share');
    },
    read: (r) => ({ escrowId: r.bytes(escrowIdBytes, 'transaction escrow_id'), agentShare: r.u64('transaction agent_share') }),
  },
  amount: () => 0n,
  check(state, tx, { now }) {
    const escrow = readEscrow(state, tx.payload.escrowId);
    if (escrow === undefined) return 'escrow_unknown';
    if (escrow.arbiter === undefined || !equalBytes(escrow.arbiter, tx.payer)) return 'escrow_not_arbiter';
    if (escrow.status !== EscrowStatus.Disputed) return 'escrow_not_disputed';
    if (state.rulesV2 === true && now >= disputeDeadline(escrow)) return 'escrow_dispute_expired';
    return tx.payload.agentShare > escrow.amount ? 'escrow_share_exceeds_amount' : undefined;
  },
  apply: (state, tx) => settleEscrow(state, tx.payload.escrowId, tx.payload.agentShare, 'resolved'),
  counterparty: (tx) => tx.payer,
  view: (p) => ({ escrow_id: toHex(p.escrowId), agent_share_exact: formatUnits(p.agentShare) }),
});
