/**
 * Reading the pool (src/mempool/mempool.ts): block templates from the candidate set (no state read; the last answer
 * kept while nothing changed), a transaction's status, the pending lists and a sender's next nonce.
 */
import { toHex } from '../../util/bytes.ts';
import { compareForBlock, type PoolEntry } from '../entry.ts';
import type { PoolStatus } from '../pool-api.ts';
import { selectTransactions, type SelectRequest, type Selection } from '../select.ts';
import { indexOfNonce } from '../sender-queue.ts';
import type { MempoolState } from './state.ts';

export function selectForBlock(state: MempoolState, request: SelectRequest): Selection {
  const { candidates, lastSelection } = state;
  const rules = request.massRules;
  const key = `${request.maxBytes}|${request.maxCount}|${request.maxMass ?? ''}|${rules === undefined ? '' : `${rules.rulesV3}${rules.rulesV4 === true}`}`;
  if (lastSelection?.key === key && lastSelection.version === candidates.version) return lastSelection.selection;
  const selection = selectTransactions(candidates.runs(), request);
  state.lastSelection = { key, version: candidates.version, selection };
  return selection;
}

/** The candidate set: each sender's executable, state-checked run, by sender (hex payer). */
export function candidateRuns(state: MempoolState): Map<string, readonly PoolEntry[]> {
  const out = new Map<string, readonly PoolEntry[]>();
  for (const sender of state.bySender.keys()) {
    const run = state.candidates.run(sender);
    if (run.length > 0) out.set(sender, run);
  }
  return out;
}

export function statusOf(state: MempoolState, hash: Uint8Array): PoolStatus | undefined {
  const id = toHex(hash);
  const entry = state.byId.get(id) ?? state.carried.get(id);
  if (entry !== undefined) return { status: 'pending', entry };
  const gone = state.dropped.get(id);
  return gone === undefined ? undefined : { status: 'dropped', reason: gone.reason, entry: gone.entry };
}

/** Every pending transaction (carried ones too), best-paying first. */
export function pending(state: MempoolState): PoolEntry[] {
  return [...state.byId.values(), ...state.carried.values()].sort(compareForBlock);
}

export function pendingFor(state: MempoolState, address: Uint8Array): PoolEntry[] {
  return [...(state.bySender.get(toHex(address)) ?? [])];
}

/** The account's nonce, past its contiguous pending run. */
export function nextNonce(state: MempoolState, address: Uint8Array): bigint {
  const queue = state.bySender.get(toHex(address)) ?? [];
  let nonce = state.accounts.account(address).nonce;
  while (indexOfNonce(queue, nonce) >= 0) nonce += 1n;
  return nonce;
}
