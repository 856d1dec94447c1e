/** A peer's departure from relay, and relay's own close. */
import { expireCompact } from '../compact-relay.ts';
import { p2pRequestTimeoutMs } from '../limits.ts';
import type { Peer } from '../peer.ts';
import { fetchWhole } from './compact.ts';
import { forgetPushes } from './push-selection.ts';
import type { RelayState } from './state.ts';

/** Forgets what `peer` was asked or sent; compact blocks it left half-rebuilt are fetched whole from others. */
export function onPeerClosed(state: RelayState, peer: Peer): void {
  for (const [id, r] of state.requested) if (r.peer === peer) state.requested.delete(id);
  for (const [id, p] of state.txSources) if (p === peer) state.txSources.delete(id);
  for (const [id, p] of state.deferred) if (p === peer) state.deferred.delete(id);
  state.txInvQueue.delete(peer);
  forgetPushes(state, peer);
  const stranded = [...state.compact.pending].filter(([, p]) => p.peer === peer).map(([id]) => id);
  expireCompact(state.compact, state.clock.nowMs(), p2pRequestTimeoutMs, peer);
  for (const id of stranded) fetchWhole(state, id, peer);
}

export function closeRelay(state: RelayState): void {
  for (const timers of [state.completionTimers, state.backupTimers]) {
    for (const cancel of timers.values()) cancel();
    timers.clear();
  }
  state.cancelTxInvFlush?.();
  state.cancelTxInvFlush = undefined;
  state.txInvQueue.clear();
  state.unsubscribeTx?.();
  state.stems.close();
}
