/** The getheaders round and the ordered store writes behind it (docs/web.md "Light node"). */
import { LightSyncError } from '../errors.ts';
import { lightHeadersTimeoutMs } from '../limits.ts';
import { armTimeout, finishSync, sendMessage, type LightSyncState } from './state.ts';

/** Asks for the headers above the tab's locator; while one round (or a join) is out, marks another as due. */
export function requestHeaders(state: LightSyncState): void {
  if (state.inFlight || state.joining) {
    state.again = true;
    return;
  }
  state.inFlight = true;
  state.again = false;
  sendMessage(state, { type: 'getheaders', locator: state.chain.locator(), stop: new Uint8Array(32) });
  armTimeout(state, lightHeadersTimeoutMs, 'headers');
}

/** Writes what was verified so far after the writes before it; a failed write ends the session. */
export function flushInOrder(state: LightSyncState): void {
  state.flushing = state.flushing.then(() => state.chain.flush());
  state.flushing.catch((cause: unknown) =>
    finishSync(state, new LightSyncError('store-failed', `storing verified headers failed: ${String((cause as Error)?.message ?? cause)}`, { cause })),
  );
}
