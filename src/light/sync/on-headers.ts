/** A page of headers from the node: verified, the next asked for, stored in order, and caught up when it ends. */
import type { Message } from '../../p2p/messages.ts';
import { toHex } from '../../util/bytes.ts';
import { forEachInTimeSlices } from '../../util/time-slices.ts';
import { outgrown } from '../join-from-node.ts';
import { beginSync } from './join-at-point.ts';
import { flushInOrder, requestHeaders } from './request-headers.ts';
import { syncProgress, type LightSyncState } from './state.ts';

/**
 * Wall time a page's verification may hold the event loop before it yields. A page holds up to 2,000 headers
 * (p2pHeadersPerMessageMax); verified in one go it froze a phone's tab for about a second while the explorer opened,
 * and slices of 100 headers still took 50–250 ms each in a 4×-slowed trace (issue 32, docs/performance.md
 * "Lighthouse"). 8 ms on a desktop core stays under a long task's 50 ms on a phone 4× slower. Messages are handled
 * strictly in order (handle-message.ts's queue), so nothing else of the session runs in between.
 */
const verifySliceMsMax = 8;

/** Verifies a page in time slices; what it throws and returns is chain.addHeaders's for the whole page. */
async function addHeadersInSlices(state: LightSyncState, headers: Extract<Message, { type: 'headers' }>['headers']): Promise<number> {
  let added = 0;
  const { clock, timer } = state.options;
  await forEachInTimeSlices(headers, (header) => void (added += state.chain.addHeaders([header])), { clock, timer, sliceMsMax: verifySliceMsMax });
  return added;
}

export async function onHeaders(state: LightSyncState, message: Extract<Message, { type: 'headers' }>): Promise<void> {
  const { options } = state;
  state.cancelTimeout?.();
  state.verified += await addHeadersInSlices(state, message.headers);
  if (state.finished) return; // the session ended while the page was being verified
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
