/**
 * Starting, ending and aborting a sync round (docs/p2p.md "Initial sync (headers first)"): one round at a time, from
 * one sync peer, whose header pages are asked for with a locator over our selected chain.
 */
import type { Peer } from '../peer.ts';
import { p2pLocatorHashesMax, p2pRequestTimeoutMs } from '../limits.ts';
import { buildLocator } from '../locator.ts';
import { PeerTimeoutError } from '../protocol-errors.ts';
import { isAhead, tipBlueScore, type IbdState } from './state.ts';

/** A peer may start one orphan-ancestors round (fetchAncestors) this often. */
const ancestorRoundCooldownMs = 30_000;

/** Asks the sync peer for the next header page, continuing from the last header it sent. */
export function requestHeaders(state: IbdState): void {
  const peer = state.syncPeer!;
  const locator = [...(state.lastHeaderHash ? [state.lastHeaderHash] : []), ...buildLocator(state.chain)].slice(0, p2pLocatorHashesMax);
  state.headersOutstanding = true;
  peer.send({ type: 'getheaders', locator, stop: new Uint8Array(32) });
  state.cancelHeadersTimeout = state.timer.setTimeout(() => peer.disconnect(new PeerTimeoutError('headers', p2pRequestTimeoutMs)), p2pRequestTimeoutMs);
}

/** Starts a round from `peer` when it is ahead of us and no round runs; while one runs, raises its target. */
export function considerPeer(state: IbdState, peer: Peer): void {
  if (!peer.isReady() || !isAhead(state.chain, peer) || state.offChain.has(peer)) return;
  if (state.syncPeer) {
    state.progress.raiseTarget(peer.best.blueScore);
    return;
  }
  state.syncPeer = peer;
  const from = tipBlueScore(state);
  state.progress.begin(from, peer.best.blueScore);
  state.log.info({ event: 'sync_started', peer: peer.nodeIdHex.slice(0, 16), from, target: peer.best.blueScore }, 'sync started');
  requestHeaders(state);
}

/**
 * Starts a round from `peer` whether or not it is ahead, to fetch in one headers round trip the ancestors of a
 * relayed orphan it sent (past(its selected tip) \ past(the fork point)); no-op while a round runs.
 */
export function fetchAncestors(state: IbdState, peer: Peer): void {
  // At most one such round a peer per cooldown: a peer that feeds us orphans whose parents are orphans cannot
  // keep the node in back-to-back rounds (during which relay defers what honest peers announce).
  const now = state.clock.nowMs();
  if (!peer.isReady() || state.syncPeer || now - (state.ancestorRoundAt.get(peer) ?? Number.NEGATIVE_INFINITY) < ancestorRoundCooldownMs) return;
  state.ancestorRoundAt.set(peer, now);
  state.syncPeer = peer;
  const from = tipBlueScore(state);
  state.progress.begin(from, Math.max(from, peer.best.blueScore));
  state.log.info({ event: 'sync_started', peer: peer.nodeIdHex.slice(0, 16), from, reason: 'orphan ancestors' }, 'fetching an orphan\'s ancestors headers-first');
  requestHeaders(state);
}

/** Drops the round (its batches and queue); the next peer that is ahead starts a new one from our longer chain. */
export function abortRound(state: IbdState, reason: string): void {
  const syncPeer = state.syncPeer;
  if (!syncPeer) return;
  state.cancelNextTurn?.();
  state.cancelNextTurn = undefined;
  state.handedThisTurn = 0;
  state.log.info({ event: 'sync_aborted', reason, peer: syncPeer.nodeIdHex.slice(0, 16), applied: state.progress.status(tipBlueScore(state), null).blocksApplied }, 'sync aborted');
  state.cancelHeadersTimeout?.();
  cancelBatches(state);
  state.queue = [];
  state.queued.clear();
  state.retry = [];
  state.lacking.clear();
  state.head = state.nextToRequest = 0;
  state.headersOutstanding = state.headersMore = false;
  state.lastHeaderHash = undefined;
  state.syncPeer = undefined;
  state.progress.finish();
  for (const peer of state.peers()) considerPeer(state, peer);
}

/** The round handed over its last block: relay asks for the tips it still lacks, and another round may start. */
export function finishRound(state: IbdState): void {
  const { chain, log, progress } = state;
  // Logged once the round's blocks are applied and durable, so the figures are final: the last ones handed over may
  // still be in their preverify, with nothing of theirs written yet for chain.settled() to wait on.
  void Promise.allSettled([...state.applying.values()]).then(() => chain.settled()).then(() => {
    const status = progress.status(tipBlueScore(state), null);
    log.info({ event: 'sync_complete', blocks: status.blocksApplied, headers: status.headersReceived, blueScore: tipBlueScore(state), tip: chain.selectedTip().id }, 'sync complete');
  });
  state.syncPeer = undefined;
  progress.finish();
  state.queue = [];
  state.lacking.clear();
  state.head = state.nextToRequest = 0;
  state.lastHeaderHash = undefined;
  state.onFinished();
  for (const peer of state.peers()) considerPeer(state, peer);
}

export function closeIbd(state: IbdState): void {
  state.cancelNextTurn?.();
  state.cancelHeadersTimeout?.();
  cancelBatches(state);
  state.syncPeer = undefined;
}

function cancelBatches(state: IbdState): void {
  for (const set of state.batches.values()) for (const batch of set) batch.cancelTimeout();
  state.batches.clear();
}
