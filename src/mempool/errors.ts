/**
 * Why the mempool refuses a transaction, as the seed's error codes (node-client-protocol.md, Errors):
 *   -40003 Transaction rejected — `details.reason` names the rule (below); -40001 Insufficient balance;
 *   -40002 Invalid address (an address field of unknown type, from src/crypto/address.ts); -32602 for bytes that
 *   are not a transaction at all (DecodeError from the codec). A transaction its kind's state rules refuse at the
 *   virtual state gets -40003 with acceptance's own reason (`ring_member_unknown`, `escrow_unknown`, …), or -40001
 *   when that reason is `balance` or `energy`.
 */
import { WeftError } from '../errors.ts';

/** A pool rule, or (`string`) the reason a kind's state rules give (`checkContext`: acceptance's "not accepted" reason). */
export type RejectReason = PoolRule | (string & {});

type PoolRule =
  | 'wrong_chain'
  | 'bad_signature'
  | 'already_known'
  | 'nonce_too_low'
  | 'nonce_too_high'
  | 'replacement_underpriced'
  | 'fee_rate_too_low'
  | 'too_large'
  | 'pool_full'
  | 'sender_queue_full'
  | 'conflict'
  | 'key_image_spent';

/** -40003: the transaction is well-formed but breaks a pool rule; `details.reason` says which. */
export class TransactionRejectedError extends WeftError {
  readonly reason: RejectReason;
  constructor(reason: RejectReason, message: string, details: Record<string, unknown> = {}) {
    super('transaction_rejected', `transaction rejected: ${message}`, { details: { reason, ...details } });
    this.reason = reason;
  }
}

/** -40001: the sender's balance does not cover this spend on top of its pending ones. */
export class InsufficientBalanceError extends WeftError {
  constructor(message: string, details: { balance: bigint; needed: bigint }) {
    super('insufficient_balance', `insufficient balance: ${message}`, {
      details: { balance: details.balance.toString(), needed: details.needed.toString() },
    });
  }
}
