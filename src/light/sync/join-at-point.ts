/**
 * Joining at the node's proven pruning point over the sync session (docs/web.md "Joining at a pruning point"): the
 * proof by `getpruningproof` pages (src/p2p/proof-fetch.ts), the trusted data by `gettrusteddata` pages
 * (src/p2p/trusted-data-fetch.ts) or the caller's port, then light-join.ts decides and joins. A node that answers
 * `notfound` leaves the tab syncing from its own tip.
 */
import type { TrustedData } from '../../chain/trusted-data.ts';
import type { ProofPage } from '../../p2p/paged-fetch.ts';
import { fetchPruningProof } from '../../p2p/proof-fetch.ts';
import { MessageMalformedError, ProtocolViolationError } from '../../p2p/protocol-errors.ts';
import { fetchTrustedData } from '../../p2p/trusted-data-fetch.ts';
import { toHash0x } from '../../util/bytes.ts';
import { LightSyncError } from '../errors.ts';
import { joinFromNode } from '../join-from-node.ts';
import { lightHeadersTimeoutMs } from '../limits.ts';
import { requestHeaders } from './request-headers.ts';
import { armTimeout, finishSync, ProofNotServed, sendMessage, syncProgress, type LightSyncState } from './state.ts';

/** After the handshake: join if the tab should and can, then the first getheaders. Runs beside the message queue. */
export async function beginSync(state: LightSyncState): Promise<void> {
  // Only version 2 headers carry what a proof is built from: a version 1 network's tab syncs from its own tip.
  if (state.chain.params.headerVersion === 2 && !state.options.fromGenesis) await joinAtPoint(state);
  if (state.finished) return;
  state.options.onProgress?.(syncProgress(state));
  requestHeaders(state);
}

async function joinAtPoint(state: LightSyncState): Promise<void> {
  const remote = state.handshake.remote!;
  state.joining = true;
  try {
    const source = { pruningProof: () => pruningProof(state), trustedData: state.options.trustedData ?? ((point: Uint8Array) => sessionTrustedData(state, point)) };
    const outcome = await joinFromNode(state.chain, source, { blueScore: remote.bestBlueScore, blueWork: remote.bestBlueWork }, state.options.clock.nowMs());
    if (outcome === 'joined') state.options.onJoin?.(toHash0x(state.chain.selectedTip().hash));
  } catch (error) {
    // A node with a proof but no trusted data for it (its point moved meanwhile): follow from our own tip.
    if (!(error instanceof ProofNotServed)) {
      return finishSync(state, error instanceof LightSyncError ? error : new LightSyncError('protocol', `joining failed: ${String((error as Error)?.message ?? error)}`, { cause: error }));
    }
  } finally {
    state.joining = false;
  }
}

/** A page the node did not decode or sent out of order is its fault: `protocol`, naming what was asked for. */
function pageRefused(what: string, error: unknown): unknown {
  if (error instanceof MessageMalformedError || error instanceof ProtocolViolationError) return new LightSyncError('protocol', `the node's ${what}: ${error.message}`, { cause: error });
  return error;
}

/** The proof half of the join source: one `getpruningproof` page at a time; `notfound` means the node has none. */
async function pruningProof(state: LightSyncState) {
  const requestPage = (pruningPoint: Uint8Array, offset: number): Promise<ProofPage> =>
    new Promise<ProofPage>((resolve, reject) => {
      state.pendingProof = { resolve, reject };
      sendMessage(state, { type: 'getpruningproof', pruningPoint, offset });
      armTimeout(state, lightHeadersTimeoutMs, 'pruning-proof page');
    });
  try {
    return (await fetchPruningProof(requestPage)).proof;
  } catch (error) {
    if (error instanceof ProofNotServed) return undefined;
    throw pageRefused('pruning-point proof', error);
  } finally {
    state.pendingProof = undefined;
    state.cancelTimeout?.();
  }
}

/** The trusted-data half over this session: `gettrusteddata` pages by the proven point. */
async function sessionTrustedData(state: LightSyncState, pruningPoint: Uint8Array): Promise<TrustedData> {
  const requestPage = (point: Uint8Array, offset: number): Promise<ProofPage> =>
    new Promise<ProofPage>((resolve, reject) => {
      state.pendingTrusted = { resolve, reject };
      sendMessage(state, { type: 'gettrusteddata', pruningPoint: point, offset });
      armTimeout(state, lightHeadersTimeoutMs, 'trusted-data page');
    });
  try {
    return await fetchTrustedData(pruningPoint, requestPage);
  } catch (error) {
    throw pageRefused('trusted data', error);
  } finally {
    state.pendingTrusted = undefined;
    state.cancelTimeout?.();
  }
}
