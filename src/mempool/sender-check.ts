/**
 * What the state refuses in one sender's queue, and how a state rule's refusal reads as the seed's error code
 * (node-client-protocol.md, Errors). Pure: the pool (mempool.ts) decides what to remove.
 */
import type { WeftError } from '../errors.ts';
import type { PoolEntry } from './entry.ts';
import { InsufficientBalanceError, TransactionRejectedError } from './errors.ts';
import type { SenderRun } from './pool-state.ts';
import { firstOverspend, type SenderQueue } from './sender-queue.ts';

/**
 * The entries of `queue` the state refuses: stale nonces, the run's first failing state rule, and — walking every
 * pending spend of the sender, waiting ones too (sender-queue.ts) — each one the balance cannot pay on top of those
 * before it. `pool`: the payer's agent energy pool when a fee may come from it.
 */
export function refusedEntries(queue: SenderQueue, result: SenderRun, pool: bigint | undefined): Set<PoolEntry> {
  const refused = new Set<PoolEntry>(result.stale);
  if (result.failed !== undefined) refused.add(result.failed.entry);
  const live = queue.filter((e) => !refused.has(e));
  for (let over = firstOverspend(live, result.account, pool); over !== undefined; over = firstOverspend(live, result.account, pool)) {
    refused.add(over.entry);
    live.splice(live.indexOf(over.entry), 1);
  }
  return refused;
}

/** The run cut before its first refused entry (what follows it waits behind a gap). */
export function withoutRefused(result: SenderRun, refused: ReadonlySet<PoolEntry>): SenderRun {
  const cutAt = result.run.findIndex((e) => refused.has(e));
  return cutAt < 0 ? result : { ...result, run: result.run.slice(0, cutAt) };
}

/** Reasons that mean "cannot pay": -40001, as the RPC's own pre-checks answer them (src/rpc/settlement/agent-submit.ts). */
const cannotPay: ReadonlySet<string> = new Set(['balance', 'energy', 'energy_pool']);

/** A state rule's refusal as the seed's code: -40001 for what the balance or energy cannot pay, else -40003 with acceptance's reason. */
export function stateRuleError(entry: PoolEntry, reason: string, balance: bigint): WeftError {
  if (cannotPay.has(reason)) {
    const needed = entry.spend.amount + (entry.spend.useEnergy ? 0n : entry.spend.fee);
    return new InsufficientBalanceError(`the state rules refuse ${entry.id} (${reason})`, { balance, needed });
  }
  return new TransactionRejectedError(reason, `acceptance would refuse it at the current state (${reason})`, { rule: 'state' });
}
