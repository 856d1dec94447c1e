/**
 * Relay of new blocks and transactions (docs/p2p.md "Relay"): an accepted block is pushed as a compact block
 * (compact-relay.ts) to every ready peer that asked for them and announced with `inv` to the others; a peer that
 * lacks an announced item asks with `getdata` and gets `block` / `tx`, or `notfound`. A relayed block whose parents are unknown waits in the chain's orphan pool and its
 * missing parents are asked from the same peer, level by level; one far ahead of us starts a headers-first sync
 * instead. Unsolicited blocks that do not connect draw on a small per-peer allowance — a flood of them is
 * misbehaviour. Transactions go through the mempool port; one marked for a Dandelion++ stem (dandelion.ts) goes to
 * a single outbound peer as `stemtx` instead of being announced.
 */
import type { Block } from '../codec/block.ts';
import { BlockRuleError } from '../chain/errors.ts';
import { decodeTransaction, txHash } from '../kinds/transaction-codec.ts';
import type { Chain } from '../chain/chain.ts';
import { blockHash } from '../consensus/pow.ts';
import { createBoundedSet } from '../util/bounded-set.ts';
import type { Clock } from '../util/clock.ts';
import { fromHex, toHex } from '../util/bytes.ts';
import type { Ibd } from './ibd.ts';
import { p2pInvItemsMax, p2pKnownInventoryMax, p2pOrphanParentRequestsMax, p2pRequestTimeoutMs } from './limits.ts';
import { InvType, type InvItem } from './messages/inventory.ts';
import { Services } from './messages/version.ts';
import type { CompactBlockMessage } from './messages/compact-block.ts';
import {
  compactBlockOf, compactBlockTxnDepthMax, compactCompletionTimeoutMs, completeCompact, createCompactRelayState, expireCompact, forgetTransaction,
  meetsOwnTarget, rebuildCompact, rememberTransaction, type RebuildResult,
} from './compact-relay.ts';
import type { Peer } from './peer.ts';
import { MessageMalformedError, UnsolicitedFloodError } from './protocol-errors.ts';
import type { StemRoutes } from './dandelion.ts';
import type { Timer } from './transport.ts';

/** The mempool as relay sees it. `submitRaw` rejects with an error carrying `banScore` when the tx is invalid. */
export interface TxRelayPort {
  submitRaw(bytes: Uint8Array): Promise<unknown>;
  /** Every transaction admitted (from RPC or from peers): relay announces it. */
  onAdded(callback: (tx: { readonly hash: Uint8Array; readonly raw: Uint8Array }) => void): () => void;
}


/** A relayed orphan more than this many blue blocks above our tip starts a headers-first sync with its peer. */
const orphanResolutionBlueScoreRange = 64;
/**
 * Transactions kept to answer getdata after they were announced (Bitcoin's mapRelay) and to rebuild compact blocks
 * from: as many as the pool holds (mempoolTxCountMax), so a block of pooled transactions is rebuilt without asking.
 */
const relayedTxCacheMax = 50_000;

export interface RelayDeps {
  readonly chain: Chain;
  readonly clock: Clock;
  readonly ibd: Ibd;
  readonly readyPeers: () => readonly Peer[];
  readonly onBlockRejected: (peer: Peer, error: unknown) => void;
  readonly txPort?: TxRelayPort;
  readonly stems: StemRoutes;
  readonly randomInt: (n: number) => number;
  /** Runs the batched transaction announcements at the end of the current turn. */
  readonly timer: Timer;
}

export interface Relay {
  announceBlock(id: string): void;
  onInv(peer: Peer, items: readonly InvItem[]): void;
  onGetData(peer: Peer, items: readonly InvItem[]): void;
  onNotFound(peer: Peer, items: readonly InvItem[]): void;
  onBlock(peer: Peer, block: Block): void;
  /** A pushed compact block: rebuilt from held transactions, the rest asked of its sender. */
  onCompactBlock(peer: Peer, message: Extract<CompactBlockMessage, { type: 'cmpctblock' }>): void;
  onGetBlockTxn(peer: Peer, hash: Uint8Array, indexes: readonly number[]): void;
  onBlockTxn(peer: Peer, hash: Uint8Array, transactions: readonly Uint8Array[]): void;
  onTx(peer: Peer, raw: Uint8Array): void;
  /** A Dandelion++ stem transaction: admitted, then forwarded along the stem or fluffed. */
  onStemTx(peer: Peer, hops: number, raw: Uint8Array): void;
  /** After a sync round: ask each peer for its tip if we still lack it (blocks mined during the sync). */
  requestPeerTips(): void;
  onPeerClosed(peer: Peer): void;
  close(): void;
}

export function createRelay(deps: RelayDeps): Relay {
  const { chain, ibd } = deps;
  // Block requests in flight: who was asked and when (an unanswered one may be asked of another peer later).
  const requested = new Map<string, { peer: Peer; atMs: number }>();
  const txCache = new Map<string, Uint8Array>();
  const txRequested = createBoundedSet<string>(p2pKnownInventoryMax);
  const txSources = new Map<string, Peer>();
  // Block announcements that arrived during a sync round; fetched after it (unmerged tips are in no header page).
  const deferred = new Map<string, Peer>();
  const compact = createCompactRelayState();

  const expireRequests = (now: number): void => {
    for (const [id, r] of requested) if (now - r.atMs >= p2pRequestTimeoutMs) requested.delete(id);
    expireCompact(compact, now, p2pRequestTimeoutMs);
  };

  const defer = (id: string, peer: Peer): void => {
    deferred.set(id, peer);
    while (deferred.size > p2pOrphanParentRequestsMax) deferred.delete(deferred.keys().next().value as string);
  };

  // A parent we hold, or a compact block waiting for its transactions (at most compactPendingMax of them): a pushed
  // child of it is the normal race of a block a second, not an unsolicited orphan to count against the peer. A
  // parent merely asked for does not count: a flood of orphans would make its own parents "coming".
  const knownOrComing = (id: string): boolean => chain.has(id) || compact.pending.has(id);

  const wantsCompact = (peer: Peer): boolean => ((peer.version()?.services ?? 0n) & Services.compactBlocks) !== 0n;

  /** A relayed block, whole: into the chain; an orphan fetches its parents, a heavier one raises the peer's best. */
  const acceptRelayed = (peer: Peer, block: Block, id: string): void => {
    chain.addBlock(block).then(
      (result) => {
        const h = block.header;
        if (result.status === 'orphan') onOrphan(peer, block, id, result.missing);
        else if (h.blueWork > peer.best.blueWork) peer.best = { blueWork: h.blueWork, blueScore: h.blueScore, tip: id };
      },
      (error: unknown) => deps.onBlockRejected(peer, error),
    );
  };

  const onRebuilt = (peer: Peer, id: string, result: RebuildResult): void => {
    if (result.kind === 'block') acceptRelayed(peer, result.block, id);
    else if (result.kind === 'missing') {
      peer.send({ type: 'getblocktxn', hash: fromHex(id), indexes: result.indexes });
      awaitCompletion(peer, id);
    } else requestBlocks(peer, [id]); // a short-id collision: the full block decides
  };

  // A compact block whose transactions do not come in time (or whose sender closes or answers notfound) is
  // fetched whole: from its sender while it is connected, else from another peer that announced it.
  const completionTimers = new Map<string, () => void>();
  const fetchWhole = (id: string, sender: Peer): void => {
    if (chain.has(id) || chain.isInvalid(id)) return;
    const from = sender.isReady() ? sender : deps.readyPeers().find((p) => p !== sender && p.known.has(id));
    if (from) requestBlocks(from, [id]);
  };
  const awaitCompletion = (peer: Peer, id: string): void => {
    const entry = compact.pending.get(id);
    completionTimers.get(id)?.();
    completionTimers.set(id, deps.timer.setTimeout(() => {
      completionTimers.delete(id);
      if (entry === undefined || compact.pending.get(id) !== entry) return; // completed, refused or displaced
      compact.pending.delete(id);
      fetchWhole(id, peer);
    }, compactCompletionTimeoutMs));
  };

  const remember = (id: string, raw: Uint8Array): void => {
    txCache.set(id, raw);
    rememberTransaction(compact, id);
    while (txCache.size > relayedTxCacheMax) {
      const oldest = txCache.keys().next().value as string;
      txCache.delete(oldest);
      forgetTransaction(compact, oldest);
    }
  };

  const requestBlocks = (peer: Peer, ids: readonly string[]): void => {
    const items: InvItem[] = [];
    const now = deps.clock.nowMs();
    if (requested.size >= p2pOrphanParentRequestsMax / 2) expireRequests(now);
    for (const id of ids) {
      const pending = requested.get(id);
      if (chain.has(id) || chain.isInvalid(id) || (pending && now - pending.atMs < p2pRequestTimeoutMs) || requested.size >= p2pOrphanParentRequestsMax) continue;
      requested.set(id, { peer, atMs: now });
      items.push({ kind: InvType.block, hash: fromHex(id) });
    }
    if (items.length > 0) peer.send({ type: 'getdata', items });
  };

  // How many orphan levels below a relayed block a requested parent is: a parent that is itself an orphan means a
  // gap of unknown depth, fetched headers-first in one round trip instead of one level per round trip.
  const orphanLevel = new Map<string, number>();

  const onOrphan = (peer: Peer, block: Block, id: string, missing: readonly string[]): void => {
    const header = block.header;
    if (header.blueScore > chain.selectedTip().header.blueScore + orphanResolutionBlueScoreRange) {
      if (header.blueWork > peer.best.blueWork) peer.best = { blueWork: header.blueWork, blueScore: header.blueScore, tip: id };
      ibd.consider(peer);
      return;
    }
    const level = orphanLevel.get(id) ?? 0;
    orphanLevel.delete(id);
    if (level >= 1) ibd.fetchAncestors(peer);
    for (const parent of missing) orphanLevel.set(parent, level + 1);
    while (orphanLevel.size > p2pOrphanParentRequestsMax) orphanLevel.delete(orphanLevel.keys().next().value as string);
    requestBlocks(peer, missing);
  };

  const relaying = (source: Peer | undefined) => deps.readyPeers().filter((p) => p !== source && p.version()?.relay !== false);

  // Transaction announcements wait for the end of the current turn and leave as one inv a peer: a batch the pool
  // admits at once (a block's worth from RPC or a peer) costs each peer one message, not one per transaction.
  const txInvQueue = new Map<Peer, InvItem[]>();
  let flushScheduled = false;
  const flushTxInvs = (): void => {
    flushScheduled = false;
    for (const [peer, items] of txInvQueue) {
      for (let at = 0; at < items.length; at += p2pInvItemsMax) peer.send({ type: 'inv', items: items.slice(at, at + p2pInvItemsMax) });
    }
    txInvQueue.clear();
  };

  /** Announces a transaction to every relaying peer but its source (the fluff). */
  const diffuse = (id: string, hash: Uint8Array, source: Peer | undefined) => {
    for (const peer of relaying(source)) {
      if (peer.known.has(id)) continue;
      peer.known.add(id);
      const queued = txInvQueue.get(peer);
      if (queued) queued.push({ kind: InvType.tx, hash });
      else txInvQueue.set(peer, [{ kind: InvType.tx, hash }]);
    }
    if (!flushScheduled && txInvQueue.size > 0) {
      flushScheduled = true;
      deps.timer.setTimeout(flushTxInvs, 0);
    }
  };

  /** Sends the transaction on to one outbound peer; false when there is none (the caller fluffs). */
  const forwardStem = (id: string, raw: Uint8Array, hops: number, source: Peer | undefined): boolean => {
    const outbound = relaying(source).filter((p) => p.direction === 'outbound');
    if (outbound.length === 0) return false;
    const next = outbound[deps.randomInt(outbound.length)]!;
    next.known.add(id);
    next.send({ type: 'stemtx', hops, tx: raw });
    return true;
  };

  const admitFromPeer = (peer: Peer, raw: Uint8Array, what: 'tx' | 'stemtx', stemHops: number | undefined): void => {
    let id: string;
    try {
      id = toHex(txHash(decodeTransaction(raw)));
    } catch (cause) {
      throw new MessageMalformedError(`${what}: does not decode`, cause);
    }
    peer.known.add(id);
    if (!deps.txPort) return;
    txSources.set(id, peer);
    if (stemHops !== undefined) deps.stems.markReceived(id, stemHops);
    deps.txPort.submitRaw(raw).catch((error: unknown) => {
      txSources.delete(id);
      const score = (error as { banScore?: unknown }).banScore;
      if (typeof score === 'number' && score > 0) deps.onBlockRejected(peer, error);
      else peer.anomaly('transaction refused by mempool policy');
    });
  };

  const unsubscribeTx = deps.txPort?.onAdded(({ hash, raw }) => {
    const id = toHex(hash);
    remember(id, raw);
    const source = txSources.get(id);
    txSources.delete(id);
    const decision = deps.stems.decide(id, source === undefined);
    if (decision !== undefined && decision !== 'fluff' && forwardStem(id, raw, decision.forward, source)) {
      deps.stems.embargo(id, () => diffuse(id, hash, undefined));
      return;
    }
    diffuse(id, hash, source);
  });

  return {
    announceBlock(id) {
      const hash = fromHex(id);
      let pushed: CompactBlockMessage | null | undefined;
      for (const peer of deps.readyPeers()) {
        if (peer.known.has(id)) continue;
        peer.known.add(id);
        if (wantsCompact(peer)) {
          if (pushed === undefined) {
            const block = chain.getBlock(id);
            pushed = block ? compactBlockOf(block) : null;
          }
          if (pushed !== null) {
            peer.send(pushed);
            continue;
          }
        }
        peer.send({ type: 'inv', items: [{ kind: InvType.block, hash }] });
      }
    },
    onInv(peer, items) {
      const blocks: string[] = [];
      const txs: InvItem[] = [];
      for (const item of items) {
        const id = toHex(item.hash);
        peer.known.add(id);
        if (item.kind === InvType.tx) deps.stems.seenAnnounced(id);
        if (item.kind === InvType.block) {
          if (!chain.has(id) && !chain.isInvalid(id)) blocks.push(id);
        } else if (deps.txPort && !txCache.has(id) && !txRequested.has(id)) {
          txRequested.add(id);
          txs.push(item);
        }
      }
      // During a sync round the round fetches blocks; announcements are picked up by requestPeerTips after it.
      if (blocks.length > 0 && !ibd.running()) requestBlocks(peer, blocks);
      else for (const id of blocks) defer(id, peer);
      if (txs.length > 0) peer.send({ type: 'getdata', items: txs });
    },
    onGetData(peer, items) {
      const missing: InvItem[] = [];
      for (const item of items) {
        const id = toHex(item.hash);
        if (item.kind === InvType.block) {
          const block = chain.getBlock(id);
          if (block) peer.send({ type: 'block', block });
          else missing.push(item);
        } else {
          const raw = txCache.get(id);
          if (raw) peer.send({ type: 'tx', tx: raw });
          else missing.push(item);
        }
      }
      if (missing.length > 0) peer.send({ type: 'notfound', items: missing });
    },
    onNotFound(peer, items) {
      const ours = ibd.onNotFound(peer, items);
      let relayed = 0;
      for (const item of items) {
        const id = toHex(item.hash);
        if (requested.get(id)?.peer === peer) {
          requested.delete(id);
          relayed++;
        } else if (compact.pending.get(id)?.peer === peer) {
          compact.pending.delete(id);
          fetchWhole(id, peer);
          relayed++;
        }
      }
      if (ours + relayed < items.length) peer.anomaly('notfound for items we did not ask for');
    },
    onBlock(peer, block) {
      const id = toHex(blockHash(block.header));
      peer.known.add(id);
      if (ibd.onBlock(peer, block, id)) return;
      const solicited = requested.get(id)?.peer === peer;
      requested.delete(id);
      if (!solicited && !block.header.parents.every((p) => knownOrComing(toHex(p))) && !peer.orphanAllowance.take()) {
        throw new UnsolicitedFloodError('too many unsolicited blocks whose parents are unknown');
      }
      acceptRelayed(peer, block, id);
    },
    onCompactBlock(peer, message) {
      const hash = blockHash(message.header);
      const id = toHex(hash);
      peer.known.add(id);
      if (chain.has(id) || chain.isInvalid(id)) return;
      const pending = compact.pending.get(id);
      if (pending !== undefined) {
        // Already being completed from another peer, which may never answer (a pushed header with ids nobody
        // holds costs nothing to make): this announcer is asked for the full block, so a stalled claim delays
        // the block by one round trip instead of until a child arrives.
        if (pending.peer !== peer) requestBlocks(peer, [id]);
        return;
      }
      // One hash before any lookup: a pushed header that does not meet its own target is refused as a bad block.
      if (!meetsOwnTarget(message.header, hash)) {
        return deps.onBlockRejected(peer, new BlockRuleError('pow.insufficient', 'compact block: hash above the target its bits encode'));
      }
      if (ibd.running()) return defer(id, peer);
      if (!message.header.parents.every((p) => knownOrComing(toHex(p))) && !peer.orphanAllowance.take()) {
        throw new UnsolicitedFloodError('too many pushed blocks whose parents are unknown');
      }
      onRebuilt(peer, id, rebuildCompact(compact, message, hash, peer, deps.clock.nowMs(), (txId) => txCache.get(txId)));
    },
    onGetBlockTxn(peer, hash, indexes) {
      // The index lookup (memory) and the depth bound before the block is read from the store.
      const id = toHex(hash);
      const indexed = chain.get(id);
      const deep = indexed !== undefined && chain.selectedTip().header.blueScore - indexed.header.blueScore > compactBlockTxnDepthMax;
      const block = indexed === undefined || deep ? undefined : chain.getBlock(id);
      if (!block) return peer.send({ type: 'notfound', items: [{ kind: InvType.block, hash }] });
      const last = indexes.at(-1);
      if (last !== undefined && last >= block.transactions.length) {
        throw new MessageMalformedError(`getblocktxn: index ${last} past the block's ${block.transactions.length} transactions`);
      }
      peer.send({ type: 'blocktxn', hash, transactions: indexes.map((i) => block.transactions[i]!) });
    },
    onBlockTxn(peer, hash, transactions) {
      const id = toHex(hash);
      const result = completeCompact(compact, id, peer, transactions);
      if (result.kind === 'unrequested') return void peer.anomaly('blocktxn for a block we did not ask about');
      if (result.kind === 'wrong-count') throw new MessageMalformedError(`blocktxn: ${transactions.length} transactions, asked for ${result.expected}`);
      onRebuilt(peer, id, result);
    },
    onTx(peer, raw) {
      admitFromPeer(peer, raw, 'tx', undefined);
    },
    onStemTx(peer, hops, raw) {
      admitFromPeer(peer, raw, 'stemtx', hops);
    },
    requestPeerTips() {
      for (const [id, peer] of deferred) if (peer.isReady()) requestBlocks(peer, [id]);
      deferred.clear();
      for (const peer of deps.readyPeers()) {
        if (peer.best.tip !== '' && !chain.has(peer.best.tip)) requestBlocks(peer, [peer.best.tip]);
      }
    },
    onPeerClosed(peer) {
      for (const [id, r] of requested) if (r.peer === peer) requested.delete(id);
      for (const [id, p] of txSources) if (p === peer) txSources.delete(id);
      for (const [id, p] of deferred) if (p === peer) deferred.delete(id);
      txInvQueue.delete(peer);
      const stranded = [...compact.pending].filter(([, p]) => p.peer === peer).map(([id]) => id);
      expireCompact(compact, deps.clock.nowMs(), p2pRequestTimeoutMs, peer);
      for (const id of stranded) fetchWhole(id, peer);
    },
    close() {
      for (const cancel of completionTimers.values()) cancel();
      completionTimers.clear();
      unsubscribeTx?.();
      deps.stems.close();
    },
  };
}
