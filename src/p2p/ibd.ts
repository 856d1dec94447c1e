/**
 * Headers-first initial block download (docs/p2p.md "Initial sync"). One sync peer at a time serves header pages
 * (getheaders with a locator over our selected chain → headers, ≤ 2000, in topological order, checked in isolation
 * and for PoW as they arrive and required to connect); the bodies of the queued headers are fetched with getdata in
 * batches from every ready peer that is far enough ahead, several batches in flight each, and handed to the chain in
 * header order as soon as the front of the queue has arrived — so blocks from several peers are applied in a
 * topological order without an orphan pool. Header pages stay at most `p2pSyncHeadersAheadMax` ahead of the bodies.
 * A peer that stalls or disconnects gives its batches back; losing the sync peer aborts the round, and the next
 * peer that is ahead starts a new one from our (now longer) chain — which is also how a restarted node resumes.
 */
import type { Block } from '../codec/block.ts';
import type { BlockHeader } from '../codec/header.ts';
import type { Chain } from '../chain/chain.ts';
import { BlockRuleError } from '../chain/errors.ts';
import { validateHeaderInIsolation, validatePow } from '../chain/validate-header.ts';
import { blockHash } from '../consensus/pow.ts';
import { toHex } from '../util/bytes.ts';
import type { Clock } from '../util/clock.ts';
import {
  p2pLocatorHashesMax,
  p2pRequestTimeoutMs,
  p2pSyncBatchBlocks,
  p2pSyncBatchesPerPeerMax,
  p2pSyncHeadersAheadMax,
  p2pSyncLogIntervalMs,
  p2pSyncBlocksPerTurnMax,
  p2pSyncUnsettledBlocksMax,
} from './limits.ts';
import { buildLocator } from './locator.ts';
import type { P2pLogger } from './logger.ts';
import { InvType, type InvItem } from './messages/inventory.ts';
import type { Peer } from './peer.ts';
import { InvalidBlockRelayedError, PeerTimeoutError, ProtocolViolationError } from './protocol-errors.ts';
import { createSyncProgress, type SyncStatus } from './sync-progress.ts';
import type { Timer } from './transport.ts';

export interface IbdDeps {
  readonly chain: Chain;
  readonly clock: Clock;
  readonly timer: Timer;
  readonly log: P2pLogger;
  /** Ready peers, the candidates for headers and bodies. */
  readonly peers: () => readonly Peer[];
  /** A block `peer` served failed validation (or the store failed). */
  readonly onBlockRejected: (peer: Peer, error: unknown) => void;
  /** Called after a round applied its last block: relay asks peers for tips it still lacks. */
  readonly onFinished: () => void;
}

export interface Ibd {
  running(): boolean;
  syncPeer(): Peer | undefined;
  /** Whether the block being accepted is one this sync applies (history the network has), not a new one. */
  applies(id: string): boolean;
  /** Starts a round from `peer` when it is ahead of us and no round runs. */
  consider(peer: Peer): void;
  /**
   * Starts a round from `peer` whether or not it is ahead, to fetch in one headers round trip the ancestors of a
   * relayed orphan it sent (past(its selected tip) \ past(the fork point)); no-op while a round runs.
   */
  fetchAncestors(peer: Peer): void;
  onHeaders(peer: Peer, headers: readonly BlockHeader[], more: boolean): void;
  /** True when the block is one this sync asked `peer` for (it takes it). */
  onBlock(peer: Peer, block: Block, id: string): boolean;
  /** Items this sync asked for that the peer does not have; returns how many were ours. */
  onNotFound(peer: Peer, items: readonly InvItem[]): number;
  onPeerClosed(peer: Peer): void;
  status(): SyncStatus;
  close(): void;
}

interface Entry {
  readonly id: string;
  readonly hash: Uint8Array;
  readonly blueScore: number;
  block?: Block;
  from?: Peer;
  batch?: Batch;
}

interface Batch {
  readonly peer: Peer;
  readonly entries: Entry[];
  remaining: number;
  cancelTimeout: () => void;
}

/** Whether `peer` is ahead of our selected tip: the sync trigger. */
export function isAhead(chain: Chain, peer: Peer): boolean {
  // A tip this node already refused is no reason to sync: its chain ends in an invalid block.
  return peer.best.blueWork > chain.selectedTip().header.blueWork && peer.best.tip !== '' && !chain.has(peer.best.tip) && !chain.isInvalid(peer.best.tip);
}

/** A peer may start one orphan-ancestors round (fetchAncestors) this often. */
const ancestorRoundCooldownMs = 30_000;

export function createIbd(deps: IbdDeps): Ibd {
  const { chain, clock, timer, log } = deps;
  const progress = createSyncProgress(clock);
  let syncPeer: Peer | undefined;
  let queue: Entry[] = [];
  let head = 0;
  let nextToRequest = 0;
  const queued = new Map<string, Entry>();
  let retry: Entry[] = [];
  const batches = new Map<Peer, Set<Batch>>();
  // Peers other than the sync peer that answered `notfound` for a body of this round: on another fork (a blue score
  // as high as our entries' says nothing about which chain), so they are asked for no more of this round's bodies.
  const lacking = new Set<Peer>();
  // Peers whose headers do not connect to a joined chain (off our pruning point): not synced from again.
  const offChain = new WeakSet<Peer>();
  let headersOutstanding = false;
  let cancelHeadersTimeout: (() => void) | undefined;
  let headersMore = false;
  let lastHeaderHash: Uint8Array | undefined;
  let lastLogMs = 0;
  // Blocks handed to the chain whose store write has not settled: bounded, so a slow disk slows the download
  // instead of piling up memory (and so a kill -9 loses at most this many accepted-but-unwritten blocks).
  let unsettled = 0;
  let cancelNextTurn: (() => void) | undefined;
  // Blocks handed over since the last yield, across drain calls (every arriving block calls drain).
  let handedThisTurn = 0;

  const blueScore = (): number => chain.selectedTip().header.blueScore;

  const requestHeaders = (): void => {
    const peer = syncPeer!;
    const locator = [...(lastHeaderHash ? [lastHeaderHash] : []), ...buildLocator(chain)].slice(0, p2pLocatorHashesMax);
    headersOutstanding = true;
    peer.send({ type: 'getheaders', locator, stop: new Uint8Array(32) });
    cancelHeadersTimeout = timer.setTimeout(() => peer.disconnect(new PeerTimeoutError('headers', p2pRequestTimeoutMs)), p2pRequestTimeoutMs);
  };

  const dropBatch = (batch: Batch): void => {
    batch.cancelTimeout();
    batches.get(batch.peer)?.delete(batch);
  };

  const abort = (reason: string): void => {
    if (!syncPeer) return;
    cancelNextTurn?.();
    cancelNextTurn = undefined;
    handedThisTurn = 0;
    log.info({ event: 'sync_aborted', reason, peer: syncPeer.nodeIdHex.slice(0, 16), applied: progress.status(blueScore(), null).blocksApplied }, 'sync aborted');
    cancelHeadersTimeout?.();
    for (const set of batches.values()) for (const batch of set) batch.cancelTimeout();
    batches.clear();
    queue = [];
    queued.clear();
    retry = [];
    lacking.clear();
    head = nextToRequest = 0;
    headersOutstanding = headersMore = false;
    lastHeaderHash = undefined;
    syncPeer = undefined;
    progress.finish();
    for (const peer of deps.peers()) ibd.consider(peer);
  };

  const finish = (): void => {
    // Logged once the round's blocks are durable, so the figures are final.
    void chain.settled().then(() => {
      const status = progress.status(blueScore(), null);
      log.info({ event: 'sync_complete', blocks: status.blocksApplied, headers: status.headersReceived, blueScore: blueScore(), tip: chain.selectedTip().id }, 'sync complete');
    });
    syncPeer = undefined;
    progress.finish();
    queue = [];
    lacking.clear();
    head = nextToRequest = 0;
    lastHeaderHash = undefined;
    deps.onFinished();
    for (const peer of deps.peers()) ibd.consider(peer);
  };

  // When each peer last started an ancestors round (fetchAncestors).
  const ancestorRoundAt = new WeakMap<Peer, number>();
  // Blocks handed to the chain by this sync and not yet settled: their acceptance is not news to announce.
  const applying = new Set<string>();
  const submit = (entry: Entry): void => {
    const from = entry.from!;
    unsettled++;
    applying.add(entry.id);
    const settled = (): void => {
      applying.delete(entry.id);
      if (--unsettled === p2pSyncUnsettledBlocksMax / 2 && syncPeer) drain();
    };
    chain.addBlock(entry.block!).then(
      () => {
        progress.applied(blueScore());
        settled();
      },
      (error: unknown) => {
        settled();
        deps.onBlockRejected(from, error);
      },
    );
  };

  /** Takes up to a batch of entries `peer` can serve: retries first, then the queue in order. */
  const takeFor = (peer: Peer): Entry[] => {
    const out: Entry[] = [];
    const isSyncPeer = peer === syncPeer;
    retry = retry.filter((e) => !e.block && !e.batch);
    while (retry.length > 0 && out.length < p2pSyncBatchBlocks) {
      const e = retry[0]!;
      if (!isSyncPeer && e.blueScore > peer.best.blueScore) break;
      out.push(retry.shift()!);
    }
    while (nextToRequest < queue.length && out.length < p2pSyncBatchBlocks) {
      const e = queue[nextToRequest]!;
      if (!isSyncPeer && e.blueScore > peer.best.blueScore) break;
      nextToRequest++;
      if (!e.block && !e.batch) out.push(e);
    }
    return out;
  };

  const requestBodies = (): void => {
    const peers = deps.peers().filter((p) => p.isReady() && (p === syncPeer || !lacking.has(p)));
    let progressed = true;
    while (progressed) {
      progressed = false;
      for (const peer of peers) {
        const set = batches.get(peer) ?? new Set<Batch>();
        if (set.size >= p2pSyncBatchesPerPeerMax) continue;
        const entries = takeFor(peer);
        if (entries.length === 0) continue;
        const batch: Batch = { peer, entries, remaining: entries.length, cancelTimeout: () => undefined };
        batch.cancelTimeout = timer.setTimeout(() => peer.disconnect(new PeerTimeoutError('requested blocks', p2pRequestTimeoutMs)), p2pRequestTimeoutMs);
        for (const e of entries) e.batch = batch;
        set.add(batch);
        batches.set(peer, set);
        peer.send({ type: 'getdata', items: entries.map((e) => ({ kind: InvType.block, hash: e.hash })) });
        progressed = true;
      }
    }
  };

  const logProgress = (): void => {
    const now = clock.nowMs();
    if (now - lastLogMs < p2pSyncLogIntervalMs) return;
    lastLogMs = now;
    const s = ibd.status();
    log.info(
      { event: 'sync_progress', percent: s.percent, blocksPerSecond: s.blocksPerSecond, etaSeconds: s.etaSeconds, blueScore: s.currentBlueScore, target: s.targetBlueScore, applied: s.blocksApplied },
      'sync progress',
    );
  };

  const drain = (): void => {
    // At most a turn's worth of blocks per macrotask, so RPC and the other peers are served during a sync.
    while (head < queue.length && queue[head]!.block && unsettled < p2pSyncUnsettledBlocksMax) {
      cancelNextTurn ??= timer.setTimeout(() => {
        cancelNextTurn = undefined;
        handedThisTurn = 0;
        if (syncPeer) drain();
      }, 0);
      if (handedThisTurn++ >= p2pSyncBlocksPerTurnMax) break;
      const entry = queue[head++]!;
      queued.delete(entry.id);
      submit(entry);
    }
    if (head > 4096 && head * 2 > queue.length) {
      queue = queue.slice(head);
      nextToRequest = Math.max(0, nextToRequest - head);
      head = 0;
    }
    if (!syncPeer) return;
    logProgress();
    if (headersMore && !headersOutstanding && queue.length - head < p2pSyncHeadersAheadMax) requestHeaders();
    if (!headersMore && !headersOutstanding && head === queue.length) return finish();
    requestBodies();
  };

  const checkHeader = (header: BlockHeader, now: number): { id: string; hash: Uint8Array } => {
    const hash = blockHash(header);
    try {
      validatePow(hash, validateHeaderInIsolation(header, chain.params, now));
    } catch (error) {
      if (error instanceof BlockRuleError) throw new InvalidBlockRelayedError(error.rule, error.banScore, error.message);
      throw error;
    }
    const id = toHex(hash);
    for (const parent of header.parents) {
      const pid = toHex(parent);
      if (chain.has(pid) || queued.has(pid)) continue;
      // A joined chain knows nothing below its trusted set: a peer whose headers do not connect is on a chain that does
      // not run through our pruning point (ban score 0; a joined node weighs its proof, join-guard.ts).
      if (chain.joinedAt !== undefined) {
        throw new BlockRuleError('context.pruning-point.violated', `header ${id}'s parent ${pid} is unknown to a chain joined at ${chain.joinedAt.id}`);
      }
      throw new ProtocolViolationError(`header ${id} does not connect: parent ${pid} unknown`);
    }
    return { id, hash };
  };

  const ibd: Ibd = {
    running: () => syncPeer !== undefined,
    syncPeer: () => syncPeer,
    applies: (id) => applying.has(id),
    consider(peer) {
      if (!peer.isReady() || !isAhead(chain, peer) || offChain.has(peer)) return;
      if (syncPeer) {
        progress.raiseTarget(peer.best.blueScore);
        return;
      }
      syncPeer = peer;
      progress.begin(blueScore(), peer.best.blueScore);
      log.info({ event: 'sync_started', peer: peer.nodeIdHex.slice(0, 16), from: blueScore(), target: peer.best.blueScore }, 'sync started');
      requestHeaders();
    },
    fetchAncestors(peer) {
      // At most one such round a peer per cooldown: a peer that feeds us orphans whose parents are orphans cannot
      // keep the node in back-to-back rounds (during which relay defers what honest peers announce).
      const now = clock.nowMs();
      if (!peer.isReady() || syncPeer || now - (ancestorRoundAt.get(peer) ?? Number.NEGATIVE_INFINITY) < ancestorRoundCooldownMs) return;
      ancestorRoundAt.set(peer, now);
      syncPeer = peer;
      progress.begin(blueScore(), Math.max(blueScore(), peer.best.blueScore));
      log.info({ event: 'sync_started', peer: peer.nodeIdHex.slice(0, 16), from: blueScore(), reason: 'orphan ancestors' }, 'fetching an orphan\'s ancestors headers-first');
      requestHeaders();
    },
    onHeaders(peer, headers, more) {
      if (peer !== syncPeer || !headersOutstanding) throw new ProtocolViolationError('headers nobody asked for');
      headersOutstanding = false;
      cancelHeadersTimeout?.();
      const now = clock.nowMs();
      for (const header of headers) {
        let checked: { id: string; hash: Uint8Array };
        try {
          checked = checkHeader(header, now);
        } catch (error) {
          if (!(error instanceof BlockRuleError) || error.rule !== 'context.pruning-point.violated') throw error;
          offChain.add(peer);
          abort('the peer is off our pruning point');
          deps.onBlockRejected(peer, error);
          return;
        }
        const { id, hash } = checked;
        if (chain.has(id) || queued.has(id)) continue;
        const entry: Entry = { id, hash, blueScore: header.blueScore };
        queue.push(entry);
        queued.set(id, entry);
      }
      progress.headers(headers.length);
      const last = headers.at(-1);
      if (last) {
        progress.raiseTarget(last.blueScore);
        if (last.blueScore > peer.best.blueScore) peer.best = { blueWork: last.blueWork, blueScore: last.blueScore, tip: toHex(blockHash(last)) };
        lastHeaderHash = blockHash(last);
      }
      headersMore = more && headers.length > 0;
      drain();
    },
    onBlock(peer, block, id) {
      const entry = queued.get(id);
      if (!entry || entry.block || entry.batch?.peer !== peer) return false;
      const batch = entry.batch;
      entry.block = block;
      entry.from = peer;
      entry.batch = undefined;
      if (--batch.remaining === 0) dropBatch(batch);
      drain();
      return true;
    },
    onNotFound(peer, items) {
      let ours = 0;
      for (const item of items) {
        const entry = queued.get(toHex(item.hash));
        if (!entry || entry.batch?.peer !== peer) continue;
        ours++;
        const batch = entry.batch;
        entry.batch = undefined;
        if (--batch.remaining === 0) dropBatch(batch);
        retry.push(entry);
      }
      // The sync peer sent us these headers, so it must have the bodies: a round that cannot finish is restarted.
      if (ours > 0 && peer === syncPeer) abort('the sync peer does not have blocks it announced');
      else if (ours > 0) {
        lacking.add(peer);
        drain();
      }
      return ours;
    },
    onPeerClosed(peer) {
      const set = batches.get(peer);
      batches.delete(peer);
      lacking.delete(peer);
      for (const batch of set ?? []) {
        batch.cancelTimeout();
        for (const e of batch.entries) {
          if (e.block || e.batch !== batch) continue;
          e.batch = undefined;
          retry.push(e);
        }
      }
      if (peer === syncPeer) abort('the sync peer disconnected');
      else if (set && syncPeer) drain();
    },
    status: () => progress.status(blueScore(), syncPeer?.nodeIdHex ?? null),
    close() {
      cancelNextTurn?.();
      cancelHeadersTimeout?.();
      for (const set of batches.values()) for (const batch of set) batch.cancelTimeout();
      batches.clear();
      syncPeer = undefined;
    },
  };
  return ibd;
}
