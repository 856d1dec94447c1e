/** A page of headers from the node: verified, the next asked for, stored in order, and caught up when it ends. */
import type { Message } from '../../p2p/messages.ts';
import { toHex } from '../../util/bytes.ts';
import { outgrown } from '../join-from-node.ts';
import { beginSync } from './join-at-point.ts';
import { flushInOrder, requestHeaders } from './request-headers.ts';
import { syncProgress, type LightSyncState } from './state.ts';

export async function onHeaders(state: LightSyncState, message: Extract<Message, { type: 'headers' }>): Promise<void> {
  const { chain, options } = state;
  state.cancelTimeout?.();
  state.verified += chain.addHeaders(message.headers);
  const last = message.headers.at(-1);
  if (last) state.peerBlueScore = Math.max(state.peerBlueScore, last.blueScore);
  state.inFlight = false;
  // Ask for the next page before writing this one, and do not wait for the write: the node builds the next page
  // and the bytes travel while the store writes and this page's successor is verified. Writes stay in order
  // (each flush takes what was staged when it was called); the last one is awaited before "caught up".
  if (message.more || state.again) {
    requestHeaders(state);
    flushInOrder(state);
    return options.onPage?.(message.headers.length);
  }
  flushInOrder(state);
  await state.flushing;
  options.onPage?.(message.headers.length);
  if (!state.caught) {
    state.caught = true;
    state.resolveCaught(syncProgress(state));
  }
  options.onProgress?.(syncProgress(state));
  rejoinIfOutgrown(state);
}

/**
 * A tab left open follows the node live; once its tip's pruning point is a window above its root it joins again
 * there (outside the queue: the proof pages come through it). Tried once per committed point: a node whose own
 * point is not far enough up yet is asked again when it moves.
 */
function rejoinIfOutgrown(state: LightSyncState): void {
  const committed = state.chain.selectedTip().header.pruningPoint;
  if (state.joining || state.options.fromGenesis || committed === undefined) return;
  if (toHex(committed) === state.rejoinTriedAt || !outgrown(state.chain)) return;
  state.rejoinTriedAt = toHex(committed);
  void beginSync(state);
}
