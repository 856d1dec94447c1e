/**
 * Admission (src/mempool/mempool.ts, docs/mempool.md): a batch's shape and state checks (admit-checks.ts), then every
 * proof its survivors ask for in one call to the witness-check port, then stage 4 — the state check again,
 * authoritative, room, and the indexes — which never awaits, so concurrent batches cannot interleave inside it.
 */
import { WeftError } from '../../errors.ts';
import type { ParsedTransaction, PoolEntry } from '../entry.ts';
import { TransactionRejectedError } from '../errors.ts';
import { chooseVictims } from '../eviction.ts';
import type { AdmitResult } from '../pool-api.ts';
import { withoutRefused } from '../sender-check.ts';
import type { SenderQueue } from '../sender-queue.ts';
import { checkPoolIndexes, shapeCheck, stateCheck, type StateChecked } from './admit-checks.ts';
import { refusedBy } from './recheck.ts';
import { emit, removeEntry } from './remove.ts';
import type { MempoolState } from './state.ts';

/**
 * What stages 1 and 2 found for one item: its entry (its admission seq reserved), its state check, and what that
 * check depended on besides the entry — the sender's queue (queues are replaced, never changed in place) and the
 * state's version — so stage 4 can take the check as it is when neither moved while the proofs were verified.
 */
interface Prechecked {
  readonly parsed: ParsedTransaction;
  readonly entry: PoolEntry;
  readonly checked: StateChecked;
  readonly queue: SenderQueue | undefined;
  readonly version: number | undefined;
}

/** Admits many with one verifier call; one result per item, in order. */
export async function admitBatch(state: MempoolState, items: readonly Uint8Array[]): Promise<AdmitResult[]> {
  const { limits } = state;
  if (!Array.isArray(items) || items.length > limits.batchTxMax) {
    throw new WeftError('invalid_params', `transaction batch: expected an array of at most ${limits.batchTxMax}`);
  }
  const results: AdmitResult[] = new Array(items.length);
  // Shape and state first: what the state refuses costs no proof verification.
  const prechecked: (Prechecked | undefined)[] = items.map((bytes, i) =>
    attempt(results, i, () => {
      const parsed = shapeCheck(state, bytes);
      const entry = toEntry(state, parsed, state.nextSeq);
      const checked = stateCheck(state, entry);
      state.nextSeq++;
      return { parsed, entry, checked, queue: state.bySender.get(entry.sender), version: state.virtualState.version?.() };
    }),
  );
  const checks = prechecked.flatMap((p) => p?.parsed.checks ?? []);
  const verdicts = checks.length === 0 ? [] : await state.verifier.verifyWitnesses(checks);
  let at = 0;
  prechecked.forEach((p, i) => {
    if (p === undefined) return;
    const owed = p.parsed.checks!.length;
    const ok = p.parsed.checks!.every((_, k) => verdicts[at + k] === true);
    at += owed;
    attempt(results, i, () => {
      if (!ok) throw new TransactionRejectedError('bad_signature', 'a signature does not verify');
      results[i] = admitVerified(state, p);
    });
  });
  return results;
}

/** Admits one transaction or throws its typed rejection. */
export async function admitOne(state: MempoolState, bytes: Uint8Array): Promise<PoolEntry> {
  const [result] = await admitBatch(state, [bytes]);
  if (!result!.ok) throw result!.error;
  return result!.entry;
}

function toEntry(state: MempoolState, parsed: ParsedTransaction, seq: number): PoolEntry {
  return {
    tx: parsed.tx, bytes: parsed.bytes, hash: parsed.hash, id: parsed.id, spend: parsed.spend, sender: parsed.sender,
    conflicts: parsed.conflicts, mass: parsed.mass, massRules: parsed.massRules, rate: parsed.rate, size: parsed.bytes.length, addedMs: state.clock.nowMs(), seq,
  };
}

/**
 * Stage 2 again, authoritative: the precheck as it was when the sender's queue and the state have not moved since
 * (only the pool-wide indexes it read are looked at again), else the whole check anew.
 */
function recheckState(state: MempoolState, p: Prechecked): StateChecked {
  const unmoved = p.version !== undefined && p.version === state.virtualState.version?.() && state.bySender.get(p.entry.sender) === p.queue;
  if (!unmoved) return stateCheck(state, p.entry);
  checkPoolIndexes(state, p.entry, p.checked.replaced);
  return p.checked;
}

/** Stage 4: stage 2 again, authoritative, then room and the indexes. Synchronous. */
function admitVerified(state: MempoolState, p: Prechecked): AdmitResult {
  const { entry } = p;
  const { queue, replaced, result } = recheckState(state, p);
  const victims = makeRoom(state, entry, queue, replaced);
  for (const stale of (state.bySender.get(entry.sender) ?? []).filter((e) => !queue.includes(e) && e !== replaced)) {
    removeEntry(state, stale, 'invalidated');
  }
  if (replaced !== undefined) removeEntry(state, replaced, 'replaced', true);
  state.bySender.set(entry.sender, queue);
  state.byId.set(entry.id, entry);
  for (const key of entry.conflicts) state.byConflict.set(key, entry);
  state.totalBytes += entry.size;
  state.dropped.delete(entry.id);
  const refused = refusedBy(state, queue, result);
  state.candidates.set(entry.sender, withoutRefused(result, refused));
  for (const gone of refused) removeEntry(state, gone, 'invalidated');
  for (const victim of victims) removeEntry(state, victim, 'evicted');
  emit(state, { type: 'added', entry });
  return { ok: true, entry, replaced };
}

/** The victims that make room for `entry` (queue = its sender's queue with it in place); throws pool_full. */
function makeRoom(state: MempoolState, entry: PoolEntry, queue: SenderQueue, replaced: PoolEntry | undefined): PoolEntry[] {
  const { limits, bySender } = state;
  const count = state.byId.size + (replaced === undefined ? 1 : 0) - limits.txCountMax;
  const bytes = state.totalBytes + entry.size - (replaced?.size ?? 0) - limits.bytesMax;
  if (count <= 0 && bytes <= 0) return [];
  const previous = bySender.get(entry.sender);
  bySender.set(entry.sender, queue);
  const victims = chooseVictims({ queues: bySender, newcomer: entry, count, bytes });
  if (previous === undefined) bySender.delete(entry.sender);
  else bySender.set(entry.sender, previous);
  if (victims === undefined) {
    throw new TransactionRejectedError('pool_full', 'the pool is full and every evictable transaction pays at least this fee rate');
  }
  return victims;
}

/** Runs one item's stage; a WeftError becomes its failed result, anything else is a bug and propagates. */
function attempt<T>(results: AdmitResult[], i: number, stage: () => T): T | undefined {
  try {
    return stage();
  } catch (error) {
    if (!(error instanceof WeftError)) throw error;
    results[i] = { ok: false, error };
    return undefined;
  }
}
