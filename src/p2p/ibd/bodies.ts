/**
 * The bodies of a round's queued headers (docs/p2p.md "Initial sync (headers first)", step 3): asked for in getdata
 * batches from every ready peer far enough ahead, several batches in flight each, and handed to the chain strictly in
 * queue order as soon as the front has arrived, a turn's worth at a time.
 */
import { InvType } from '../messages/inventory.ts';
import {
  p2pRequestTimeoutMs,
  p2pSyncBatchBlocks,
  p2pSyncBatchesPerPeerMax,
  p2pSyncBlocksPerTurnMax,
  p2pSyncHeadersAheadMax,
  p2pSyncLogIntervalMs,
  p2pSyncUnsettledBlocksMax,
} from '../limits.ts';
import type { Peer } from '../peer.ts';
import { PeerTimeoutError } from '../protocol-errors.ts';
import { finishRound, requestHeaders } from './round.ts';
import { ibdStatus, tipBlueScore, type Batch, type Entry, type IbdState } from './state.ts';

/**
 * Hands the arrived front of the queue to the chain, then asks for more headers and bodies as room allows; ends the
 * round when nothing is left. Called on every arriving block and page.
 */
export function drain(state: IbdState): void {
  // At most a turn's worth of blocks per macrotask, so RPC and the other peers are served during a sync.
  while (state.head < state.queue.length && state.queue[state.head]!.block && state.unsettled < p2pSyncUnsettledBlocksMax) {
    state.cancelNextTurn ??= state.timer.setTimeout(() => {
      state.cancelNextTurn = undefined;
      state.handedThisTurn = 0;
      if (state.syncPeer) drain(state);
    }, 0);
    if (state.handedThisTurn++ >= p2pSyncBlocksPerTurnMax) break;
    const entry = state.queue[state.head++]!;
    state.queued.delete(entry.id);
    submit(state, entry);
  }
  if (state.head > 4096 && state.head * 2 > state.queue.length) {
    state.queue = state.queue.slice(state.head);
    state.nextToRequest = Math.max(0, state.nextToRequest - state.head);
    state.head = 0;
  }
  if (!state.syncPeer) return;
  logProgress(state);
  if (state.headersMore && !state.headersOutstanding && state.queue.length - state.head < p2pSyncHeadersAheadMax) requestHeaders(state);
  if (!state.headersMore && !state.headersOutstanding && state.head === state.queue.length) return finishRound(state);
  requestBodies(state);
}

/** A batch whose last entry was answered (or given back): its timeout goes. */
export function dropBatch(state: IbdState, batch: Batch): void {
  batch.cancelTimeout();
  state.batches.get(batch.peer)?.delete(batch);
}

function submit(state: IbdState, entry: Entry): void {
  const from = entry.from!;
  state.unsettled++;
  // Registered before the block is handed over: whatever the chain reports of it from then on is this sync's.
  let answered!: () => void;
  state.applying.set(entry.id, new Promise<void>((resolve) => (answered = resolve)));
  void state.chain.addBlock(entry.block!).then(
    () => {
      state.progress.applied(tipBlueScore(state));
      settled(state, entry.id);
    },
    (error: unknown) => {
      settled(state, entry.id);
      state.onBlockRejected(from, error);
    },
  ).finally(answered);
}

/** A handed-over block's store write settled: room for more once half the bound is free. */
function settled(state: IbdState, id: string): void {
  state.applying.delete(id);
  if (--state.unsettled === p2pSyncUnsettledBlocksMax / 2 && state.syncPeer) drain(state);
}

/** Takes up to a batch of entries `peer` can serve: retries first, then the queue in order. */
function takeFor(state: IbdState, peer: Peer): Entry[] {
  const out: Entry[] = [];
  const isSyncPeer = peer === state.syncPeer;
  state.retry = state.retry.filter((e) => !e.block && !e.batch);
  const retry = state.retry;
  while (retry.length > 0 && out.length < p2pSyncBatchBlocks) {
    const e = retry[0]!;
    if (!isSyncPeer && e.blueScore > peer.best.blueScore) break;
    out.push(retry.shift()!);
  }
  while (state.nextToRequest < state.queue.length && out.length < p2pSyncBatchBlocks) {
    const e = state.queue[state.nextToRequest]!;
    if (!isSyncPeer && e.blueScore > peer.best.blueScore) break;
    state.nextToRequest++;
    if (!e.block && !e.batch) out.push(e);
  }
  return out;
}

function requestBodies(state: IbdState): void {
  const peers = state.peers().filter((p) => p.isReady() && (p === state.syncPeer || !state.lacking.has(p)));
  let progressed = true;
  while (progressed) {
    progressed = false;
    for (const peer of peers) {
      const set = state.batches.get(peer) ?? new Set<Batch>();
      if (set.size >= p2pSyncBatchesPerPeerMax) continue;
      const entries = takeFor(state, peer);
      if (entries.length === 0) continue;
      const batch: Batch = { peer, entries, remaining: entries.length, cancelTimeout: () => undefined };
      batch.cancelTimeout = state.timer.setTimeout(() => peer.disconnect(new PeerTimeoutError('requested blocks', p2pRequestTimeoutMs)), p2pRequestTimeoutMs);
      for (const e of entries) e.batch = batch;
      set.add(batch);
      state.batches.set(peer, set);
      peer.send({ type: 'getdata', items: entries.map((e) => ({ kind: InvType.block, hash: e.hash })) });
      progressed = true;
    }
  }
}

function logProgress(state: IbdState): void {
  const now = state.clock.nowMs();
  if (now - state.lastLogMs < p2pSyncLogIntervalMs) return;
  state.lastLogMs = now;
  const s = ibdStatus(state);
  state.log.info(
    { event: 'sync_progress', percent: s.percent, blocksPerSecond: s.blocksPerSecond, etaSeconds: s.etaSeconds, blueScore: s.currentBlueScore, target: s.targetBlueScore, applied: s.blocksApplied },
    'sync progress',
  );
}
