/**
 * Admission's checks that change nothing (src/mempool/mempool.ts, stages 1 and 2): the shape of the bytes, then every
 * pool and state rule a transaction must pass with its sender's queue as it is now.
 */
import { DecodeError } from '../../errors.ts';
import { compareFeeRate, parseTransaction, type ParsedTransaction, type PoolEntry } from '../entry.ts';
import { InsufficientBalanceError, TransactionRejectedError } from '../errors.ts';
import { simulateRun, type SenderRun } from '../pool-state.ts';
import { stateRuleError } from '../sender-check.ts';
import { firstOverspend, withEntry, type SenderQueue } from '../sender-queue.ts';
import type { MempoolState } from './state.ts';

/** Stage 1: size bound, decode (canonical), chain id, minimum fee rate, already known, a multisig script's hash. */
export function shapeCheck(state: MempoolState, bytes: Uint8Array): ParsedTransaction {
  const { limits } = state;
  if (!(bytes instanceof Uint8Array)) throw new DecodeError('transaction: expected bytes');
  if (bytes.length > limits.txBytesMax) {
    throw new TransactionRejectedError('too_large', `got ${bytes.length} bytes, at most ${limits.txBytesMax} relayed`);
  }
  const parsed = parseTransaction(bytes, state.virtualState.massRules?.());
  if (parsed.tx.chainId !== state.chainId) {
    throw new TransactionRejectedError('wrong_chain', `chain id ${parsed.tx.chainId}, this network is ${state.chainId}`);
  }
  const feeMin = limits.feeRateMinUnitsPerByte * BigInt(bytes.length);
  if (parsed.spend.fee < feeMin) {
    throw new TransactionRejectedError('fee_rate_too_low', `fee ${parsed.spend.fee} for ${bytes.length} bytes, at least ${feeMin}`);
  }
  if (state.byId.has(parsed.id)) throw new TransactionRejectedError('already_known', `${parsed.id} is already pending`);
  if (parsed.checks === undefined) throw new TransactionRejectedError('bad_signature', 'multisig script does not hash to from');
  return parsed;
}

export interface StateChecked {
  /** The sender's queue with the entry in place (stale nonces left out). */
  readonly queue: SenderQueue;
  readonly replaced: PoolEntry | undefined;
  /** The sender's run simulated on the state. */
  readonly result: SenderRun;
}

/**
 * Stage 2, changing nothing: every pool and state rule `entry` must pass with its sender's queue as it is now.
 * Returns the queue with it in place, what it replaces, and the sender's run simulated on the state.
 */
export function stateCheck(state: MempoolState, entry: PoolEntry): StateChecked {
  const { limits } = state;
  if (state.byId.has(entry.id)) throw new TransactionRejectedError('already_known', `${entry.id} is already pending`);
  const { spend } = entry;
  const account = state.accounts.account(spend.payer);
  if (spend.nonce < account.nonce) {
    throw new TransactionRejectedError('nonce_too_low', `nonce ${spend.nonce}, account is at ${account.nonce}`);
  }
  if (spend.nonce > account.nonce + limits.nonceAheadMax) {
    throw new TransactionRejectedError('nonce_too_high', `nonce ${spend.nonce}, at most ${limits.nonceAheadMax} past ${account.nonce}`);
  }
  const current = (state.bySender.get(entry.sender) ?? []).filter((e) => e.spend.nonce >= account.nonce);
  const { queue, replaced } = withEntry(current, entry);
  checkPoolIndexes(state, entry, replaced);
  if (replaced !== undefined) checkReplacement(state, entry, replaced);
  else if (current.length >= limits.txPerAddressMax) {
    throw new TransactionRejectedError('sender_queue_full', `sender has ${current.length} pending, at most ${limits.txPerAddressMax}`);
  }
  const overspend = firstOverspend(queue, account, spend.feeFromAgentPool === true ? state.agentPool?.(spend.payer) : undefined);
  if (overspend !== undefined) {
    const message = `balance ${account.balance} does not cover ${overspend.needed} of pending spends up to nonce ${overspend.entry.spend.nonce}`;
    throw new InsufficientBalanceError(message, { balance: account.balance, needed: overspend.needed });
  }
  const result = simulateRun(queue, state.virtualState);
  if (result.failed?.entry === entry) throw stateRuleError(entry, result.failed.reason, account.balance);
  return { queue, replaced, result };
}

/** What other senders can change under an entry's state check: its id pending already, a conflict key taken. */
export function checkPoolIndexes(state: MempoolState, entry: PoolEntry, replaced: PoolEntry | undefined): void {
  if (state.byId.has(entry.id)) throw new TransactionRejectedError('already_known', `${entry.id} is already pending`);
  for (const key of entry.conflicts) {
    const holder = state.byConflict.get(key);
    if (holder !== undefined && holder !== replaced) {
      throw new TransactionRejectedError('conflict', `conflicts with pending ${holder.id} on ${key}`, { conflictsWith: holder.id });
    }
  }
}

/** A replacement pays at least `replaceBumpPercentMin` more in fee, and no lower fee rate. */
function checkReplacement(state: MempoolState, entry: PoolEntry, replaced: PoolEntry): void {
  const bumpPercent = state.limits.replaceBumpPercentMin;
  const bumped = (replaced.spend.fee * (100n + bumpPercent) + 99n) / 100n;
  if (entry.spend.fee <= replaced.spend.fee || entry.spend.fee < bumped || compareFeeRate(entry, replaced) < 0) {
    throw new TransactionRejectedError(
      'replacement_underpriced',
      `fee ${entry.spend.fee} replaces ${replaced.spend.fee} at nonce ${entry.spend.nonce}; needs at least ${bumped} (+${bumpPercent}%) and no lower fee rate`,
      { replaces: replaced.id, feeMin: bumped.toString() },
    );
  }
}
