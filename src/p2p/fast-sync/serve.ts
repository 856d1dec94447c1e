/**
 * Serving fast-sync requests (docs/p2p.md "Fast sync"): pages of our pruning-point proof and trusted data, and
 * chunks of our state. Rate-limited per peer (a token bucket): a request beyond the allowance waits for it, and a
 * peer with more than p2pFastSyncQueuedRequestsMax requests waiting has the excess dropped as anomalies (an honest
 * requester has one in flight).
 */
import type { SnapshotChunk } from '../../state/snapshot-codec.ts';
import { equalBytes, toHex } from '../../util/bytes.ts';
import { p2pFastSyncQueuedRequestsMax, p2pFastSyncRequestRefillMs, p2pFastSyncRequestsBurst, p2pPruningProofPageBytesMax } from '../limits.ts';
import { InvType } from '../messages/inventory.ts';
import type { Peer } from '../peer.ts';
import { createTokenBucket } from '../token-bucket.ts';
import { pagedAnswer, paged, zeroHash, type FastSyncState, type PagedKind } from './state.ts';

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Runs `task` for `peer` after the ones it queued before, once its allowance has a token. */
function serve(state: FastSyncState, peer: Peer, what: string, task: () => Promise<void>): void {
  const { clock, timer, log } = state.deps;
  let s = state.serving.get(peer);
  if (s === undefined) {
    s = { allowance: createTokenBucket(clock, p2pFastSyncRequestsBurst, p2pFastSyncRequestRefillMs), queued: 0, tail: Promise.resolve() };
    state.serving.set(peer, s);
  }
  if (s.queued >= p2pFastSyncQueuedRequestsMax) {
    peer.anomaly(`${what} while ${s.queued} requests wait`);
    return;
  }
  const served = s;
  served.queued++;
  served.tail = served.tail
    .then(async () => {
      while (!served.allowance.take()) await new Promise<void>((resolve) => timer.setTimeout(resolve, p2pFastSyncRequestRefillMs));
      if (!state.closed && peer.isReady()) await task();
    })
    .catch((error: unknown) => log.warn({ event: 'fast_sync_serve_failed', peer: peer.nodeIdHex.slice(0, 16), what, err: errorText(error) }, 'fast-sync request not served'))
    .finally(() => {
      served.queued--;
    });
}

/** Serves page `offset` of our proof or trusted data; `pruningPoint` zeros = our current one. */
export function servePage(state: FastSyncState, peer: Peer, kind: PagedKind, pruningPoint: Uint8Array, offset: number): void {
  const { ask, answer: type, inv } = paged[kind];
  serve(state, peer, ask, async () => {
    // A builder that fails, or an answer over the wire bounds, is one we cannot give: the peer hears so at once.
    const built = await pagedAnswer(state, kind).catch((error: unknown) => {
      state.deps.log.warn({ event: `${type}_unavailable`, err: errorText(error) }, `${type} not built`);
      return undefined;
    });
    const wanted = equalBytes(pruningPoint, zeroHash) ? undefined : pruningPoint;
    if (built === undefined || (wanted !== undefined && !equalBytes(wanted, built.point)) || offset >= built.bytes.length || offset % p2pPruningProofPageBytesMax !== 0) {
      return peer.send({ type: 'notfound', items: [{ kind: inv, hash: pruningPoint }] });
    }
    const page = built.bytes.subarray(offset, Math.min(built.bytes.length, offset + p2pPruningProofPageBytesMax));
    peer.send({ type, pruningPoint: built.point, total: built.bytes.length, offset, page });
  });
}

/** Serves the chunk of state `root` from `from`; a root we do not hold (or no longer can read) is `notfound`. */
export function serveSnapshotChunk(state: FastSyncState, peer: Peer, root: Uint8Array, from: Uint8Array, entriesMax: number): void {
  serve(state, peer, 'getsnapshotchunk', async () => {
    let chunk: SnapshotChunk | undefined;
    try {
      chunk = await state.deps.ports.snapshotChunk?.(root, from, entriesMax === 0 ? {} : { entriesMax });
    } catch (error) {
      // A root whose nodes went while we read (pruned under us) is one we no longer hold.
      state.deps.log.warn({ event: 'snapshot_chunk_unreadable', root: toHex(root), err: errorText(error) }, 'snapshot chunk not read');
    }
    if (chunk === undefined) return peer.send({ type: 'notfound', items: [{ kind: InvType.stateRoot, hash: root }] });
    peer.send({ type: 'snapshotchunk', root, from, chunk });
  });
}
