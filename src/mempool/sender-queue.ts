/**
 * One sender's pending transactions, kept sorted by nonce (at most `txPerAddressMax`, so arrays and linear scans
 * are the simplest fast structure). A transaction is *executable* when it belongs to the contiguous run of nonces
 * starting at the account's nonce and the balance covers it and everything before it; the rest wait.
 *
 * Spending rule — the ledger's (src/state/acceptance.ts, docs/state.md): walking the queue in nonce order, each
 * transaction spends its amount from the balance, and its fee from the energy when `use_energy` is set (the energy
 * left must cover the whole fee: there is no fallback to the balance, the ledger would skip it) or from the balance
 * otherwise — except that an agent or escrow transaction (`feeFromAgentPool`) whose payer is an agent account pays
 * its `use_energy` fee from the account's energy pool (docs/settlement.md "Fees and the energy pool"), as acceptance
 * does. Every pending transaction of the sender counts, waiting ones too, so the pool never holds a set of spends the
 * account cannot pay.
 */
import type { Account } from '../state/account.ts';
import { balanceCost, energyCost, type Spend } from '../kinds/kind.ts';
import type { PoolEntry } from './entry.ts';

export type SenderQueue = readonly PoolEntry[];

/** Index of the entry with `nonce`, or -1. */
export function indexOfNonce(queue: SenderQueue, nonce: bigint): number {
  for (let i = 0; i < queue.length; i++) {
    const at = queue[i]!.spend.nonce;
    if (at === nonce) return i;
    if (at > nonce) return -1;
  }
  return -1;
}

/** The queue with `entry` in its nonce's place, replacing the entry already there (returned as `replaced`). */
export function withEntry(queue: SenderQueue, entry: PoolEntry): { queue: PoolEntry[]; replaced: PoolEntry | undefined } {
  const nonce = entry.spend.nonce;
  const at = queue.findIndex((e) => e.spend.nonce >= nonce);
  if (at < 0) return { queue: [...queue, entry], replaced: undefined };
  const replaced = queue[at]!.spend.nonce === nonce ? queue[at] : undefined;
  const next = [...queue];
  next.splice(at, replaced === undefined ? 0 : 1, entry);
  return { queue: next, replaced };
}

/** A running budget: what the account has left after the spends walked so far. */
interface Budget {
  balance: bigint;
  energy: bigint;
  /** The payer's agent-account energy pool; undefined when the payer is no agent account. */
  pool: bigint | undefined;
}

/** `pool`: the payer's agent energy pool, when it is an agent account. */
function budgetOf(account: Account, pool?: bigint): Budget {
  return { balance: account.balance, energy: account.energy, pool };
}

/** Spends `spend` from `budget` if it can pay; returns false (budget unchanged) if the balance, energy or pool falls short. */
function trySpend(spend: Spend, budget: Budget): boolean {
  const cost = balanceCost(spend);
  const fromPool = spend.feeFromAgentPool === true && budget.pool !== undefined;
  const energy = fromPool ? 0n : energyCost(spend);
  const pooled = fromPool ? energyCost(spend) : 0n;
  if (cost > budget.balance || energy > budget.energy || pooled > (budget.pool ?? 0n)) return false;
  budget.balance -= cost;
  budget.energy -= energy;
  if (fromPool) budget.pool = budget.pool! - pooled;
  return true;
}

/** The first live entry (nonce ≥ the account's) the account cannot pay on top of those before it, with the total. */
export function firstOverspend(queue: SenderQueue, account: Account, pool?: bigint): { entry: PoolEntry; needed: bigint } | undefined {
  const budget = budgetOf(account, pool);
  let needed = 0n;
  for (const entry of queue) {
    if (entry.spend.nonce < account.nonce) continue;
    needed += balanceCost(entry.spend);
    if (!trySpend(entry.spend, budget)) return { entry, needed };
  }
  return undefined;
}

/** The executable run: contiguous nonces from the account's, each paid for on top of the ones before it. */
export function executableRun(queue: SenderQueue, account: Account, pool?: bigint): PoolEntry[] {
  const budget = budgetOf(account, pool);
  const run: PoolEntry[] = [];
  let expected = account.nonce;
  for (const entry of queue) {
    if (entry.spend.nonce < expected) continue;
    if (entry.spend.nonce !== expected || !trySpend(entry.spend, budget)) break;
    run.push(entry);
    expected += 1n;
  }
  return run;
}
