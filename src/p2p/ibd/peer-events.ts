/**
 * What a peer's answers and departure do to a round (docs/p2p.md "Initial sync (headers first)", step 4): a body it
 * was asked for joins the queue, a `notfound` gives its entries back (and, from the sync peer, aborts the round), a
 * close gives its batches to others.
 */
import type { Block } from '../../codec/block.ts';
import { toHex } from '../../util/bytes.ts';
import type { InvItem } from '../messages/inventory.ts';
import type { Peer } from '../peer.ts';
import { drain, dropBatch } from './bodies.ts';
import { abortRound } from './round.ts';
import type { IbdState } from './state.ts';

/** True when the block is one this sync asked `peer` for (it takes it). */
export function takeBlock(state: IbdState, peer: Peer, block: Block, id: string): boolean {
  const entry = state.queued.get(id);
  if (!entry || entry.block || entry.batch?.peer !== peer) return false;
  const batch = entry.batch;
  entry.block = block;
  entry.from = peer;
  entry.batch = undefined;
  if (--batch.remaining === 0) dropBatch(state, batch);
  drain(state);
  return true;
}

/** Items this sync asked for that the peer does not have; returns how many were ours. */
export function takeNotFound(state: IbdState, peer: Peer, items: readonly InvItem[]): number {
  let ours = 0;
  for (const item of items) {
    const entry = state.queued.get(toHex(item.hash));
    if (!entry || entry.batch?.peer !== peer) continue;
    ours++;
    const batch = entry.batch;
    entry.batch = undefined;
    if (--batch.remaining === 0) dropBatch(state, batch);
    state.retry.push(entry);
  }
  // The sync peer sent us these headers, so it must have the bodies: a round that cannot finish is restarted.
  if (ours > 0 && peer === state.syncPeer) abortRound(state, 'the sync peer does not have blocks it announced');
  else if (ours > 0) {
    state.lacking.add(peer);
    drain(state);
  }
  return ours;
}

export function peerClosed(state: IbdState, peer: Peer): void {
  const set = state.batches.get(peer);
  state.batches.delete(peer);
  state.lacking.delete(peer);
  for (const batch of set ?? []) {
    batch.cancelTimeout();
    for (const e of batch.entries) {
      if (e.block || e.batch !== batch) continue;
      e.batch = undefined;
      state.retry.push(e);
    }
  }
  if (peer === state.syncPeer) abortRound(state, 'the sync peer disconnected');
  else if (set && state.syncPeer) drain(state);
}
