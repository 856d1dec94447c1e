/**
 * A light chain and its store (src/light/light-store.ts): verified headers are written in verification order, after
 * the join if there is one; a reopened chain replays them (their PoW was checked before they were stored — the store
 * is the client's own), so a reloaded tab resumes at once.
 */
import { decodeHeader } from '../../codec/header.ts';
import { toHex } from '../../util/bytes.ts';
import { LightSyncError } from '../errors.ts';
import { reopenJoin, storedJoinOf, type CheckedJoin } from '../light-join.ts';
import { graphFromJoin, insertHeader } from './graph.ts';
import { workOfBits, type LightChainState } from './state.ts';

/** Writes the headers verified since the last flush to the store. */
export async function flushChain(state: LightChainState): Promise<void> {
  if (state.staged.length === 0) return;
  const batch = state.staged;
  state.staged = [];
  await state.store.append(batch);
}

/** Rebuilds the chain on `checked` and stores the join, dropping every header before; throws with nothing changed. */
export async function joinChain(state: LightChainState, checked: CheckedJoin): Promise<void> {
  const next = graphFromJoin(state.params, state.genesis, checked);
  await state.store.saveJoin(storedJoinOf(checked));
  state.graph = next;
  state.staged = [];
  state.nextStoredSeq = 1;
  state.deferred = 0;
}

/**
 * Replays the store into a chain at genesis: its join, then its headers. Returns how many headers it replayed, or
 * undefined when the store does not replay (not ours to repair: the caller clears it and starts over rather than
 * trust half of it).
 */
export async function resumeFromStore(state: LightChainState): Promise<number | undefined> {
  const { params, store } = state;
  const storedJoin = await store.loadJoin();
  if (storedJoin !== undefined) {
    const reopened = reopenJoin(params, storedJoin, state.clock.nowMs());
    try {
      if (reopened === undefined) throw new LightSyncError('trusted-invalid', 'the stored join does not read back');
      state.graph = graphFromJoin(params, state.genesis, reopened);
    } catch (error) {
      if (!(error instanceof LightSyncError)) throw error;
      return undefined;
    }
  }
  const stored = await store.load();
  for (const row of stored) {
    const header = decodeHeader(row.bytes);
    const id = toHex(row.hash);
    const parentIds = header.parents.map(toHex);
    if (!parentIds.every((p) => state.graph.index.has(p)) || state.graph.index.has(id)) return undefined;
    insertHeader(state.graph, id, row.hash, header, parentIds, workOfBits(header.bits));
  }
  state.nextStoredSeq = stored.length + 1;
  return stored.length;
}
