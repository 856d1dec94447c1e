/**
 * The fast-sync messages of a p2p node (docs/p2p.md "Fast sync"): serving `getpruningproof`, `gettrusteddata` and
 * `getsnapshotchunk`
 * from the ports the host gives (a full node: its proof builder and its state trie), and asking a peer for them —
 * one request per peer at a time, matched to its answer, with a timeout. Answers nobody asked for are protocol
 * violations; `notfound` for our request is a refusal (DataUnavailableError), not misbehaviour.
 *
 * Serving is rate-limited per peer (a token bucket, docs/p2p.md): a request beyond the allowance waits for it, and a
 * peer with more than p2pFastSyncQueuedRequestsMax requests waiting has the excess dropped as anomalies (an honest
 * requester has one in flight).
 */
import { blockHash } from '../consensus/pow.ts';
import { AssertionError } from '../errors.ts';
import type { TrustedData } from '../chain/trusted-data.ts';
import type { PruningProof } from '../pruning-proof/pruning-proof.ts';
import type { SnapshotChunk } from '../state/snapshot-codec.ts';
import type { SnapshotReadLimits } from '../state/snapshot.ts';
import { SnapshotError } from '../state/snapshot-errors.ts';
import type { SnapshotImport } from '../state/snapshot-import.ts';
import { equalBytes, toHex } from '../util/bytes.ts';
import type { Clock } from '../util/clock.ts';
import { P2pProtocolError, SessionClosedError } from './errors.ts';
import {
  p2pFastSyncQueuedRequestsMax,
  p2pFastSyncRequestRefillMs,
  p2pFastSyncRequestsBurst,
  p2pPruningProofPageBytesMax,
  p2pRequestTimeoutMs,
} from './limits.ts';
import type { P2pLogger } from './logger.ts';
import type { Message } from './messages.ts';
import { InvType, type InvItem } from './messages/inventory.ts';
import type { Peer } from './peer.ts';
import { DataUnavailableError, PeerTimeoutError, ProtocolViolationError, SnapshotChunkInvalidError } from './protocol-errors.ts';
import type { ProofPage } from './paged-fetch.ts';
import { fetchPruningProof, type FetchedPruningProof } from './proof-fetch.ts';
import { fetchSnapshot, type SnapshotFetchOptions, type SnapshotFetchResult } from './snapshot-fetch.ts';
import { encodePruningProof, proofPruningPoint } from './pruning-proof-codec.ts';
import { encodeTrustedData } from './trusted-data-codec.ts';
import { fetchTrustedData } from './trusted-data-fetch.ts';
import { createTokenBucket, type TokenBucket } from './token-bucket.ts';
import type { Timer } from './transport.ts';

/** What a node serves; a port left out is answered with `notfound`. Both are given by the host (src/ stays isomorphic). */
export interface FastSyncPorts {
  /** The proof of our current pruning point, or undefined when we cannot build one. */
  readonly pruningProof?: () => Promise<PruningProof | undefined>;
  /** The trusted data at our current pruning point (src/chain/trusted-data.ts), or undefined when we cannot build it. */
  readonly trustedData?: () => Promise<TrustedData | undefined>;
  /** The chunk of state `root` from `from`, or undefined when we do not hold (or no longer keep) that root. */
  readonly snapshotChunk?: (root: Uint8Array, from: Uint8Array, limits: SnapshotReadLimits) => Promise<SnapshotChunk | undefined>;
}

export interface FastSync {
  onGetPruningProof(peer: Peer, pruningPoint: Uint8Array, offset: number): void;
  onGetSnapshotChunk(peer: Peer, root: Uint8Array, from: Uint8Array, entriesMax: number): void;
  onGetTrustedData(peer: Peer, pruningPoint: Uint8Array, offset: number): void;
  onPruningProof(peer: Peer, page: ProofPage): void;
  onTrustedData(peer: Peer, page: ProofPage): void;
  onSnapshotChunk(peer: Peer, root: Uint8Array, from: Uint8Array, chunk: SnapshotChunk): void;
  /** Takes the fast-sync items of a `notfound`; answers the rest (blocks, transactions) for relay. */
  onNotFound(peer: Peer, items: readonly InvItem[]): InvItem[];
  /** Asks `peer` for one proof page; `pruningPoint` zeros = its current proof. */
  requestProofPage(peer: Peer, pruningPoint: Uint8Array, offset: number): Promise<ProofPage>;
  /** Asks `peer` for one page of its trusted data at `pruningPoint`. */
  requestTrustedDataPage(peer: Peer, pruningPoint: Uint8Array, offset: number): Promise<ProofPage>;
  requestSnapshotChunk(peer: Peer, root: Uint8Array, from: Uint8Array, entriesMax?: number): Promise<SnapshotChunk>;
  /** Downloads the state into `target` from `peer` (snapshot-fetch.ts); a chunk that fails verification bans it. */
  fetchSnapshot(peer: Peer, target: SnapshotImport, options?: SnapshotFetchOptions & { entriesMax?: number }): Promise<SnapshotFetchResult>;
  /** Downloads `peer`'s pruning-point proof (proof-fetch.ts); one that does not decode bans it. */
  fetchPruningProof(peer: Peer): Promise<FetchedPruningProof>;
  /** Downloads `peer`'s trusted data at `pruningPoint` (trusted-data-fetch.ts), unchecked; data that does not decode bans it. */
  fetchTrustedData(peer: Peer, pruningPoint: Uint8Array): Promise<TrustedData>;
  onPeerClosed(peer: Peer): void;
  close(): void;
}

export interface FastSyncDeps {
  readonly ports: FastSyncPorts;
  readonly clock: Clock;
  readonly timer: Timer;
  readonly log: P2pLogger;
  /** Our pruning point's hash now: the proof cache is rebuilt when it moves. */
  readonly pruningPoint: () => Uint8Array;
}

interface Serving {
  readonly allowance: TokenBucket;
  queued: number;
  tail: Promise<void>;
}

type PagedKind = 'proof' | 'trusted';
type Answer = { kind: PagedKind; page: ProofPage } | { kind: 'snapshot'; root: Uint8Array; from: Uint8Array; chunk: SnapshotChunk };

/** A paged answer encoded once per pruning point of ours (building a proof or trusted data walks thousands of blocks). */
interface PagedCache {
  get(): Promise<{ forPoint: string; point: Uint8Array; bytes: Uint8Array } | undefined>;
}

/** Per paged kind: its request and answer messages and the `notfound` inventory kind. */
const paged = {
  proof: { ask: 'getpruningproof', answer: 'pruningproof', inv: InvType.pruningProof },
  trusted: { ask: 'gettrusteddata', answer: 'trusteddata', inv: InvType.trustedData },
} as const;

interface Pending {
  readonly kind: Answer['kind'];
  /** The hash a `notfound` for this request names: the state root, or the pruning point asked for. */
  readonly subject: Uint8Array;
  readonly matches: (answer: Answer) => boolean;
  readonly resolve: (answer: Answer) => void;
  readonly reject: (error: unknown) => void;
  readonly cancelTimeout: () => void;
}

const zeroHash = new Uint8Array(32);

/** Disconnects `peer` with the error's ban score when the failure is its fault (the node's onClose bans); answers the error. */
function blame(peer: Peer, error: unknown): unknown {
  if (error instanceof SnapshotError && error.peerFault) peer.disconnect(new SnapshotChunkInvalidError(error.reason, error.message, error));
  else if (error instanceof P2pProtocolError && error.banScore > 0) peer.disconnect(error);
  return error;
}

function createPagedCache(pruningPoint: () => Uint8Array, build: () => Promise<{ point: Uint8Array; bytes: Uint8Array } | undefined>): PagedCache {
  type Entry = { forPoint: string; point: Uint8Array; bytes: Uint8Array };
  let cache: Entry | undefined;
  let building: Promise<Entry | undefined> | undefined;
  return {
    async get() {
      const forPoint = toHex(pruningPoint());
      if (cache?.forPoint === forPoint) return cache;
      building ??= (async () => {
        const built = await build();
        cache = built === undefined ? undefined : { forPoint, ...built };
        return cache;
      })().finally(() => {
        building = undefined;
      });
      return building;
    },
  };
}

export function createFastSync(deps: FastSyncDeps): FastSync {
  const { ports, clock, timer, log } = deps;
  const serving = new WeakMap<Peer, Serving>();
  const pending = new Map<Peer, Pending>();
  let closed = false;

  const sleep = (ms: number): Promise<void> => new Promise((resolve) => timer.setTimeout(resolve, ms));

  /** Runs `task` for `peer` after the ones it queued before, once its allowance has a token. */
  const serve = (peer: Peer, what: string, task: () => Promise<void>): void => {
    let state = serving.get(peer);
    if (state === undefined) {
      state = { allowance: createTokenBucket(clock, p2pFastSyncRequestsBurst, p2pFastSyncRequestRefillMs), queued: 0, tail: Promise.resolve() };
      serving.set(peer, state);
    }
    if (state.queued >= p2pFastSyncQueuedRequestsMax) {
      peer.anomaly(`${what} while ${state.queued} requests wait`);
      return;
    }
    const s = state;
    s.queued++;
    s.tail = s.tail
      .then(async () => {
        while (!s.allowance.take()) await sleep(p2pFastSyncRequestRefillMs);
        if (!closed && peer.isReady()) await task();
      })
      .catch((error: unknown) => log.warn({ event: 'fast_sync_serve_failed', peer: peer.nodeIdHex.slice(0, 16), what, err: error instanceof Error ? error.message : String(error) }, 'fast-sync request not served'))
      .finally(() => {
        s.queued--;
      });
  };

  const caches: Record<PagedKind, PagedCache> = {
    proof: createPagedCache(deps.pruningPoint, async () => {
      const proof = await ports.pruningProof?.();
      const point = proof === undefined ? undefined : proofPruningPoint(proof);
      return proof === undefined || point === undefined ? undefined : { point: blockHash(point), bytes: encodePruningProof(proof) };
    }),
    trusted: createPagedCache(deps.pruningPoint, async () => {
      const data = await ports.trustedData?.();
      return data === undefined ? undefined : { point: data.pruningPoint, bytes: encodeTrustedData(data) };
    }),
  };

  /** Serves page `offset` of our proof or trusted data; `pruningPoint` zeros = our current one. */
  const servePage = (peer: Peer, kind: PagedKind, pruningPoint: Uint8Array, offset: number): void => {
    const { ask, answer: type, inv } = paged[kind];
    serve(peer, ask, async () => {
      // A builder that fails, or an answer over the wire bounds, is one we cannot give: the peer hears so at once.
      const built = await caches[kind].get().catch((error: unknown) => {
        log.warn({ event: `${type}_unavailable`, err: error instanceof Error ? error.message : String(error) }, `${type} not built`);
        return undefined;
      });
      const wanted = equalBytes(pruningPoint, zeroHash) ? undefined : pruningPoint;
      if (built === undefined || (wanted !== undefined && !equalBytes(wanted, built.point)) || offset >= built.bytes.length || offset % p2pPruningProofPageBytesMax !== 0) {
        return peer.send({ type: 'notfound', items: [{ kind: inv, hash: pruningPoint }] });
      }
      const page = built.bytes.subarray(offset, Math.min(built.bytes.length, offset + p2pPruningProofPageBytesMax));
      peer.send({ type, pruningPoint: built.point, total: built.bytes.length, offset, page });
    });
  };

  const requestPage = async (peer: Peer, kind: PagedKind, pruningPoint: Uint8Array, offset: number): Promise<ProofPage> => {
    const anyPoint = equalBytes(pruningPoint, zeroHash);
    const result = await request(peer, kind, pruningPoint, { type: paged[kind].ask, pruningPoint, offset }, (a) =>
      a.kind === kind && a.page.offset === offset && (anyPoint || equalBytes(a.page.pruningPoint, pruningPoint)),
    );
    if (result.kind !== kind) throw new AssertionError(`a ${paged[kind].ask} request answered with another kind`);
    return result.page;
  };

  const request = (peer: Peer, kind: Pending['kind'], subject: Uint8Array, message: Message, matches: Pending['matches']): Promise<Answer> => {
    if (pending.has(peer)) throw new AssertionError(`a fast-sync request to ${peer.nodeIdHex.slice(0, 16)} is already in flight`);
    if (!peer.isReady()) return Promise.reject(new SessionClosedError(`peer ${peer.nodeIdHex.slice(0, 16)} is not connected`));
    return new Promise<Answer>((resolve, reject) => {
      const cancelTimeout = timer.setTimeout(() => {
        const error = new PeerTimeoutError(message.type, p2pRequestTimeoutMs);
        settle(peer)?.reject(error);
        peer.disconnect(error);
      }, p2pRequestTimeoutMs);
      pending.set(peer, { kind, subject, matches, resolve, reject, cancelTimeout });
      peer.send(message);
    });
  };

  const settle = (peer: Peer): Pending | undefined => {
    const p = pending.get(peer);
    if (p === undefined) return undefined;
    pending.delete(peer);
    p.cancelTimeout();
    return p;
  };

  const answer = (peer: Peer, result: Answer, what: string): void => {
    const p = pending.get(peer);
    if (p === undefined || p.kind !== result.kind || !p.matches(result)) throw new ProtocolViolationError(`${what} nobody asked for`);
    settle(peer)!.resolve(result);
  };

  const api: FastSync = {
    onGetPruningProof(peer, pruningPoint, offset) {
      servePage(peer, 'proof', pruningPoint, offset);
    },
    onGetTrustedData(peer, pruningPoint, offset) {
      servePage(peer, 'trusted', pruningPoint, offset);
    },
    onGetSnapshotChunk(peer, root, from, entriesMax) {
      serve(peer, 'getsnapshotchunk', async () => {
        let chunk: SnapshotChunk | undefined;
        try {
          chunk = await ports.snapshotChunk?.(root, from, entriesMax === 0 ? {} : { entriesMax });
        } catch (error) {
          // A root whose nodes went while we read (pruned under us) is one we no longer hold.
          log.warn({ event: 'snapshot_chunk_unreadable', root: toHex(root), err: error instanceof Error ? error.message : String(error) }, 'snapshot chunk not read');
        }
        if (chunk === undefined) return peer.send({ type: 'notfound', items: [{ kind: InvType.stateRoot, hash: root }] });
        peer.send({ type: 'snapshotchunk', root, from, chunk });
      });
    },
    onPruningProof(peer, page) {
      answer(peer, { kind: 'proof', page }, 'pruningproof');
    },
    onTrustedData(peer, page) {
      answer(peer, { kind: 'trusted', page }, 'trusteddata');
    },
    onSnapshotChunk(peer, root, from, chunk) {
      answer(peer, { kind: 'snapshot', root, from, chunk }, 'snapshotchunk');
    },
    onNotFound(peer, items) {
      const rest: InvItem[] = [];
      for (const item of items) {
        const kind = item.kind === InvType.stateRoot ? 'snapshot' : item.kind === InvType.pruningProof ? 'proof' : item.kind === InvType.trustedData ? 'trusted' : undefined;
        if (kind === undefined) {
          rest.push(item);
          continue;
        }
        const p = pending.get(peer);
        if (p === undefined || p.kind !== kind || !equalBytes(p.subject, item.hash)) {
          peer.anomaly('notfound for a fast-sync request we did not make');
          continue;
        }
        const refused = {
          snapshot: `peer does not hold state root ${toHex(item.hash)}`,
          proof: 'peer has no pruning proof to give (for that pruning point)',
          trusted: `peer has no trusted data at pruning point ${toHex(item.hash)}`,
        };
        settle(peer)!.reject(new DataUnavailableError(refused[kind]));
      }
      return rest;
    },
    requestProofPage: (peer, pruningPoint, offset) => requestPage(peer, 'proof', pruningPoint, offset),
    requestTrustedDataPage: (peer, pruningPoint, offset) => requestPage(peer, 'trusted', pruningPoint, offset),
    async requestSnapshotChunk(peer, root, from, entriesMax = 0) {
      const result = await request(peer, 'snapshot', root, { type: 'getsnapshotchunk', root, from, entriesMax }, (a) =>
        a.kind === 'snapshot' && equalBytes(a.root, root) && equalBytes(a.from, from),
      );
      if (result.kind !== 'snapshot') throw new AssertionError('a snapshot request answered with a proof page');
      return result.chunk;
    },
    async fetchSnapshot(peer, target, options = {}) {
      const source = { chunk: (root: Uint8Array, from: Uint8Array) => api.requestSnapshotChunk(peer, root, from, options.entriesMax ?? 0) };
      try {
        return await fetchSnapshot(source, target, options);
      } catch (error) {
        throw blame(peer, error);
      }
    },
    async fetchPruningProof(peer) {
      try {
        return await fetchPruningProof((pruningPoint, offset) => api.requestProofPage(peer, pruningPoint, offset));
      } catch (error) {
        throw blame(peer, error);
      }
    },
    async fetchTrustedData(peer, pruningPoint) {
      try {
        return await fetchTrustedData(pruningPoint, (point, offset) => api.requestTrustedDataPage(peer, point, offset));
      } catch (error) {
        throw blame(peer, error);
      }
    },
    onPeerClosed(peer) {
      settle(peer)?.reject(new SessionClosedError(`peer ${peer.nodeIdHex.slice(0, 16)} disconnected`));
    },
    close() {
      closed = true;
      for (const peer of [...pending.keys()]) settle(peer)?.reject(new SessionClosedError('node is shutting down'));
    },
  };
  return api;
}
