/**
 * The state of a node's fast-sync messages (src/p2p/fast-sync.ts): per peer, what it may still ask of us (serving)
 * and the one request we have in flight to it (pending), and our paged answers encoded once per pruning point. The
 * operations are free functions beside it: serve.ts answers requests, request.ts makes them and takes the answers.
 */
import { blockHash } from '../../consensus/pow.ts';
import type { TrustedData } from '../../chain/trusted-data.ts';
import type { PruningProof } from '../../pruning-proof/pruning-proof.ts';
import type { SnapshotChunk } from '../../state/snapshot-codec.ts';
import type { SnapshotReadLimits } from '../../state/snapshot.ts';
import { toHex } from '../../util/bytes.ts';
import type { Clock } from '../../util/clock.ts';
import type { P2pLogger } from '../logger.ts';
import { InvType } from '../messages/inventory.ts';
import type { Peer } from '../peer.ts';
import type { ProofPage } from '../paged-fetch.ts';
import { encodePruningProof, proofPruningPoint } from '../pruning-proof-codec.ts';
import { encodeTrustedData } from '../trusted-data-codec.ts';
import type { TokenBucket } from '../token-bucket.ts';
import type { Timer } from '../transport.ts';

/** What a node serves; a port left out is answered with `notfound`. Both are given by the host (src/ stays isomorphic). */
export interface FastSyncPorts {
  /** The proof of our current pruning point, or undefined when we cannot build one. */
  readonly pruningProof?: () => Promise<PruningProof | undefined>;
  /** The trusted data at our current pruning point (src/chain/trusted-data.ts), or undefined when we cannot build it. */
  readonly trustedData?: () => Promise<TrustedData | undefined>;
  /** The chunk of state `root` from `from`, or undefined when we do not hold (or no longer keep) that root. */
  readonly snapshotChunk?: (root: Uint8Array, from: Uint8Array, limits: SnapshotReadLimits) => Promise<SnapshotChunk | undefined>;
}

export interface FastSyncDeps {
  readonly ports: FastSyncPorts;
  readonly clock: Clock;
  readonly timer: Timer;
  readonly log: P2pLogger;
  /** Our pruning point's hash now: the proof cache is rebuilt when it moves. */
  readonly pruningPoint: () => Uint8Array;
}

/** What one peer may still ask of us: its allowance, and the requests it queued (served one after another). */
interface Serving {
  readonly allowance: TokenBucket;
  queued: number;
  tail: Promise<void>;
}

export type PagedKind = 'proof' | 'trusted';
export type Answer = { kind: PagedKind; page: ProofPage } | { kind: 'snapshot'; root: Uint8Array; from: Uint8Array; chunk: SnapshotChunk };

/** A pruning point of all zeros asks for the peer's current one. */
export const zeroHash = new Uint8Array(32);

/** Per paged kind: its request and answer messages and the `notfound` inventory kind. */
export const paged = {
  proof: { ask: 'getpruningproof', answer: 'pruningproof', inv: InvType.pruningProof },
  trusted: { ask: 'gettrusteddata', answer: 'trusteddata', inv: InvType.trustedData },
} as const;

/** Our one request in flight to a peer. */
export interface Pending {
  readonly kind: Answer['kind'];
  /** The hash a `notfound` for this request names: the state root, or the pruning point asked for. */
  readonly subject: Uint8Array;
  readonly matches: (answer: Answer) => boolean;
  readonly resolve: (answer: Answer) => void;
  readonly reject: (error: unknown) => void;
  readonly cancelTimeout: () => void;
}

type PagedEntry = { forPoint: string; point: Uint8Array; bytes: Uint8Array };

/** A paged answer encoded once per pruning point of ours (building a proof or trusted data walks thousands of blocks). */
interface PagedCache {
  readonly build: () => Promise<{ point: Uint8Array; bytes: Uint8Array } | undefined>;
  entry: PagedEntry | undefined;
  building: Promise<PagedEntry | undefined> | undefined;
}

export interface FastSyncState {
  readonly deps: FastSyncDeps;
  readonly serving: WeakMap<Peer, Serving>;
  readonly pending: Map<Peer, Pending>;
  readonly caches: Record<PagedKind, PagedCache>;
  closed: boolean;
}

export function createFastSyncState(deps: FastSyncDeps): FastSyncState {
  const { ports } = deps;
  const cache = (build: PagedCache['build']): PagedCache => ({ build, entry: undefined, building: undefined });
  return {
    deps, serving: new WeakMap(), pending: new Map(), closed: false,
    caches: {
      proof: cache(async () => {
        const proof = await ports.pruningProof?.();
        const point = proof === undefined ? undefined : proofPruningPoint(proof);
        return proof === undefined || point === undefined ? undefined : { point: blockHash(point), bytes: encodePruningProof(proof) };
      }),
      trusted: cache(async () => {
        const data = await ports.trustedData?.();
        return data === undefined ? undefined : { point: data.pruningPoint, bytes: encodeTrustedData(data) };
      }),
    },
  };
}

/** The encoded answer at our pruning point now, built once per point (callers asking while it builds share it). */
export async function pagedAnswer(state: FastSyncState, kind: PagedKind): Promise<PagedEntry | undefined> {
  const cache = state.caches[kind];
  const forPoint = toHex(state.deps.pruningPoint());
  if (cache.entry?.forPoint === forPoint) return cache.entry;
  cache.building ??= (async () => {
    const built = await cache.build();
    cache.entry = built === undefined ? undefined : { forPoint, ...built };
    return cache.entry;
  })().finally(() => {
    cache.building = undefined;
  });
  return cache.building;
}
