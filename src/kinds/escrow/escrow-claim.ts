/**
 * Kind 0x31, escrow claim (the seed's ClaimTaskReward): the agent account takes a locked escrow's amount into its
 * balance (docs/settlement.md "Claims"). Signed with the agent's authority (owner, controller, or a session key
 * scoped for claims), paid by the agent account, before the timeout, and with either the client's completion
 * receipt or — when the escrow has a dispute window — once that window after creation has elapsed undisputed.
 *
 *   payload = escrow_id [32] | has_receipt u8 | client_key [32] | receipt_signature [64]   (the last two if has_receipt)
 */
import { TxKind } from '../../codec/transaction-kinds.ts';
import { AddressType } from '../../crypto/address.ts';
import { publicKeyBytes, signatureBytes } from '../../crypto/keys.ts';
import { equalBytes, toHex } from '../../util/bytes.ts';
import { defineAgentKind, readFlag } from '../agent/envelope.ts';
import { completionReceiptHash } from './completion-receipt.ts';
import { escrowIdBytes, EscrowStatus } from './escrow-record.ts';
import { mustReadEscrow, readEscrow, settleEscrow } from './escrow-state.ts';

interface CompletionReceipt {
  /** The client's x-only key: its standard address must be the escrow's client. */
  readonly clientKey: Uint8Array;
  readonly signature: Uint8Array;
}
export interface EscrowClaimPayload {
  readonly escrowId: Uint8Array;
  readonly receipt: CompletionReceipt | undefined;
}

export const escrowClaimKind = defineAgentKind<typeof TxKind.EscrowClaim, EscrowClaimPayload>({
  tag: TxKind.EscrowClaim,
  name: 'escrow_claim',
  controllerMay: true,
  payload: {
    bytes: (p) => escrowIdBytes + 1 + (p.receipt === undefined ? 0 : publicKeyBytes + signatureBytes),
    write(w, p) {
      w.bytes(p.escrowId, escrowIdBytes, 'escrow_id');
      w.u8(p.receipt === undefined ? 0 : 1);
      if (p.receipt === undefined) return;
      w.bytes(p.receipt.clientKey, publicKeyBytes, 'client_key');
      w.bytes(p.receipt.signature, signatureBytes, 'receipt_signature');
    },
    read(r) {
      const escrowId = r.bytes(escrowIdBytes, 'transaction escrow_id');
      if (!readFlag(r, 'has_receipt')) return { escrowId, receipt: undefined };
      return { escrowId, receipt: { clientKey: r.bytes(publicKeyBytes, 'transaction client_key'), signature: r.bytes(signatureBytes, 'transaction receipt_signature') } };
    },
  },
  amount: () => 0n,
  stateSigOpsV3: 1,
  extraProofs: ({ chainId, payload: { escrowId, receipt } }) =>
    receipt === undefined
      ? []
      : [{ scheme: 'bip340', signature: receipt.signature, message: completionReceiptHash(chainId, escrowId), publicKey: receipt.clientKey }],
  check(state, tx, { now }) {
    const escrow = readEscrow(state, tx.payload.escrowId);
    if (escrow === undefined) return 'escrow_unknown';
    if (!equalBytes(escrow.agent, tx.payer)) return 'escrow_not_agent';
    if (escrow.status !== EscrowStatus.EscrowLocked) return 'escrow_not_locked';
    if (now >= escrow.timeoutDaaScore) return 'escrow_timed_out';
    const receipt = tx.payload.receipt;
    if (receipt !== undefined) {
      const client = escrow.client;
      return client[0] === AddressType.Standard && equalBytes(client.subarray(1), receipt.clientKey) ? undefined : 'receipt_not_client';
    }
    if (escrow.disputeWindow === 0n) return 'escrow_receipt_required';
    return now < escrow.createdDaaScore + escrow.disputeWindow ? 'escrow_window_open' : undefined;
  },
  apply: (state, tx) => settleEscrow(state, tx.payload.escrowId, mustReadEscrow(state, tx.payload.escrowId).amount, 'claimed'),
  counterparty: (tx) => tx.payer,
  view: (p) => ({ escrow_id: toHex(p.escrowId), with_receipt: p.receipt !== undefined }),
});
