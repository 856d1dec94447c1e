/**
 * Asking a peer for fast-sync data (docs/p2p.md "Fast sync"): one request per peer at a time, matched to its
 * answer, with a timeout. Answers nobody asked for are protocol violations; `notfound` for our request is a refusal
 * (DataUnavailableError), not misbehaviour. The whole downloads (proof-fetch.ts, trusted-data-fetch.ts,
 * snapshot-fetch.ts) run on these requests, and a download that fails by the peer's fault disconnects it with the
 * error's ban score.
 */
import { AssertionError } from '../../errors.ts';
import type { TrustedData } from '../../chain/trusted-data.ts';
import type { SnapshotChunk } from '../../state/snapshot-codec.ts';
import { SnapshotError } from '../../state/snapshot-errors.ts';
import type { SnapshotImport } from '../../state/snapshot-import.ts';
import { equalBytes, toHex } from '../../util/bytes.ts';
import { P2pProtocolError, SessionClosedError } from '../errors.ts';
import { p2pRequestTimeoutMs } from '../limits.ts';
import type { Message } from '../messages.ts';
import { InvType, type InvItem } from '../messages/inventory.ts';
import type { Peer } from '../peer.ts';
import { DataUnavailableError, PeerTimeoutError, ProtocolViolationError, SnapshotChunkInvalidError } from '../protocol-errors.ts';
import type { ProofPage } from '../paged-fetch.ts';
import { fetchPruningProof, type FetchedPruningProof } from '../proof-fetch.ts';
import { fetchSnapshot, type SnapshotFetchOptions, type SnapshotFetchResult } from '../snapshot-fetch.ts';
import { fetchTrustedData } from '../trusted-data-fetch.ts';
import { paged, zeroHash, type Answer, type FastSyncState, type PagedKind, type Pending } from './state.ts';

/** Takes `peer`'s request in flight off the books (its timeout cancelled); undefined when there is none. */
export function settle(state: FastSyncState, peer: Peer): Pending | undefined {
  const p = state.pending.get(peer);
  if (p === undefined) return undefined;
  state.pending.delete(peer);
  p.cancelTimeout();
  return p;
}

function request(state: FastSyncState, peer: Peer, kind: Pending['kind'], subject: Uint8Array, message: Message, matches: Pending['matches']): Promise<Answer> {
  if (state.pending.has(peer)) throw new AssertionError(`a fast-sync request to ${peer.nodeIdHex.slice(0, 16)} is already in flight`);
  if (!peer.isReady()) return Promise.reject(new SessionClosedError(`peer ${peer.nodeIdHex.slice(0, 16)} is not connected`));
  return new Promise<Answer>((resolve, reject) => {
    const cancelTimeout = state.deps.timer.setTimeout(() => {
      const error = new PeerTimeoutError(message.type, p2pRequestTimeoutMs);
      settle(state, peer)?.reject(error);
      peer.disconnect(error);
    }, p2pRequestTimeoutMs);
    state.pending.set(peer, { kind, subject, matches, resolve, reject, cancelTimeout });
    peer.send(message);
  });
}

/** Asks `peer` for one page of its proof or trusted data; `pruningPoint` zeros = its current one. */
export async function requestPage(state: FastSyncState, peer: Peer, kind: PagedKind, pruningPoint: Uint8Array, offset: number): Promise<ProofPage> {
  const anyPoint = equalBytes(pruningPoint, zeroHash);
  const result = await request(state, peer, kind, pruningPoint, { type: paged[kind].ask, pruningPoint, offset }, (a) =>
    a.kind === kind && a.page.offset === offset && (anyPoint || equalBytes(a.page.pruningPoint, pruningPoint)),
  );
  if (result.kind !== kind) throw new AssertionError(`a ${paged[kind].ask} request answered with another kind`);
  return result.page;
}

export async function requestSnapshotChunk(state: FastSyncState, peer: Peer, root: Uint8Array, from: Uint8Array, entriesMax: number): Promise<SnapshotChunk> {
  const result = await request(state, peer, 'snapshot', root, { type: 'getsnapshotchunk', root, from, entriesMax }, (a) =>
    a.kind === 'snapshot' && equalBytes(a.root, root) && equalBytes(a.from, from),
  );
  if (result.kind !== 'snapshot') throw new AssertionError('a snapshot request answered with a proof page');
  return result.chunk;
}

/** An answer from `peer`: it settles our request when it is the one asked for, else it is a protocol violation. */
export function takeAnswer(state: FastSyncState, peer: Peer, result: Answer, what: string): void {
  const p = state.pending.get(peer);
  if (p === undefined || p.kind !== result.kind || !p.matches(result)) throw new ProtocolViolationError(`${what} nobody asked for`);
  settle(state, peer)!.resolve(result);
}

const refusals = {
  snapshot: (hash: Uint8Array) => `peer does not hold state root ${toHex(hash)}`,
  proof: () => 'peer has no pruning proof to give (for that pruning point)',
  trusted: (hash: Uint8Array) => `peer has no trusted data at pruning point ${toHex(hash)}`,
} as const;

/** Takes the fast-sync items of a `notfound` (each refuses our request); returns the rest (blocks, transactions) for relay. */
export function takeNotFound(state: FastSyncState, peer: Peer, items: readonly InvItem[]): InvItem[] {
  const rest: InvItem[] = [];
  for (const item of items) {
    const kind = item.kind === InvType.stateRoot ? 'snapshot' : item.kind === InvType.pruningProof ? 'proof' : item.kind === InvType.trustedData ? 'trusted' : undefined;
    if (kind === undefined) {
      rest.push(item);
      continue;
    }
    const p = state.pending.get(peer);
    if (p === undefined || p.kind !== kind || !equalBytes(p.subject, item.hash)) {
      peer.anomaly('notfound for a fast-sync request we did not make');
      continue;
    }
    settle(state, peer)!.reject(new DataUnavailableError(refusals[kind](item.hash)));
  }
  return rest;
}

/** Disconnects `peer` with the error's ban score when the failure is its fault (the node's onClose bans); answers the error. */
function blame(peer: Peer, error: unknown): unknown {
  if (error instanceof SnapshotError && error.peerFault) peer.disconnect(new SnapshotChunkInvalidError(error.reason, error.message, error));
  else if (error instanceof P2pProtocolError && error.banScore > 0) peer.disconnect(error);
  return error;
}

async function blaming<T>(peer: Peer, download: () => Promise<T>): Promise<T> {
  try {
    return await download();
  } catch (error) {
    throw blame(peer, error);
  }
}

export const downloadSnapshot = (state: FastSyncState, peer: Peer, target: SnapshotImport, options: SnapshotFetchOptions & { entriesMax?: number }): Promise<SnapshotFetchResult> =>
  blaming(peer, () => fetchSnapshot({ chunk: (root, from) => requestSnapshotChunk(state, peer, root, from, options.entriesMax ?? 0) }, target, options));

export const downloadPruningProof = (state: FastSyncState, peer: Peer): Promise<FetchedPruningProof> =>
  blaming(peer, () => fetchPruningProof((pruningPoint, offset) => requestPage(state, peer, 'proof', pruningPoint, offset)));

export const downloadTrustedData = (state: FastSyncState, peer: Peer, pruningPoint: Uint8Array): Promise<TrustedData> =>
  blaming(peer, () => fetchTrustedData(pruningPoint, (point, offset) => requestPage(state, peer, 'trusted', point, offset)));

/** Rejects every request in flight: the node is closing. */
export function closeRequests(state: FastSyncState): void {
  state.closed = true;
  for (const peer of [...state.pending.keys()]) settle(state, peer)?.reject(new SessionClosedError('node is shutting down'));
}
