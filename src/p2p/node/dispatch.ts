/**
 * A ready peer's messages, each routed to the part that handles it (docs/architecture.md "Adding a P2P message",
 * step 3): headers to sync (ibd.ts), inventory, blocks and transactions to relay (relay.ts), the fast-sync requests
 * and answers to fast-sync.ts, addresses to the address book. A message no part expects is an anomaly.
 */
import { fromHex, toHex } from '../../util/bytes.ts';
import { p2pAddrEntriesMax } from '../limits.ts';
import { collectHeaders } from '../locator.ts';
import type { Message } from '../messages.ts';
import { Services } from '../messages/version.ts';
import type { Peer } from '../peer.ts';
import type { P2pNodeState } from './state.ts';

export function dispatchMessage(state: P2pNodeState, peer: Peer, message: Message): void {
  const { fastSync, relay } = state;
  switch (message.type) {
    case 'getheaders': {
      const page = collectHeaders(state.chain, message.locator, message.stop);
      return peer.send({ type: 'headers', headers: page.headers, more: page.more });
    }
    case 'headers':
      return state.ibd.onHeaders(peer, message.headers, message.more);
    case 'inv':
      return state.blockSync ? relay.onInv(peer, message.items) : undefined;
    case 'getdata':
      return relay.onGetData(peer, message.items);
    case 'txinv':
      return state.blockSync ? relay.onTxInv(peer, message.shortIds) : undefined;
    case 'gettx':
      return relay.onGetTx(peer, message.shortIds);
    case 'notfound': {
      const rest = fastSync.onNotFound(peer, message.items);
      return rest.length > 0 ? relay.onNotFound(peer, rest) : undefined;
    }
    case 'getpruningproof':
      return fastSync.onGetPruningProof(peer, message.pruningPoint, message.offset);
    case 'pruningproof':
      return fastSync.onPruningProof(peer, message);
    case 'getsnapshotchunk':
      return fastSync.onGetSnapshotChunk(peer, message.root, message.from, message.entriesMax);
    case 'gettrusteddata':
      return fastSync.onGetTrustedData(peer, message.pruningPoint, message.offset);
    case 'trusteddata':
      return fastSync.onTrustedData(peer, message);
    case 'snapshotchunk':
      return fastSync.onSnapshotChunk(peer, message.root, message.from, message.chunk);
    case 'block':
      return relay.onBlock(peer, message.block);
    case 'cmpctblock':
    case 'prefilledblock':
      return state.blockSync ? relay.onCompactBlock(peer, message) : undefined;
    case 'pushblocks':
      return relay.onPushBlocks(peer, message.push);
    case 'getblocktxn':
      return relay.onGetBlockTxn(peer, message.hash, message.indexes);
    case 'blocktxn':
      return relay.onBlockTxn(peer, message.hash, message.transactions);
    case 'tx':
      return relay.onTx(peer, message.tx);
    case 'stemtx':
      return relay.onStemTx(peer, message.hops, message.tx);
    case 'getaddr':
      return answerGetaddr(state, peer);
    case 'addr':
      return takeAddr(state, peer, message.entries);
    case 'reject':
      state.log.info({ event: 'peer_reject', peer: peer.nodeIdHex.slice(0, 16), code: message.code, banScore: message.banScore, reason: message.text }, 'peer sent reject');
      return;
    default:
      peer.anomaly(`unexpected ${message.type}`);
  }
}

/** A sample of the address book, once per connection. */
function answerGetaddr(state: P2pNodeState, peer: Peer): void {
  if (peer.answeredGetaddr) return void peer.anomaly('repeated getaddr');
  peer.answeredGetaddr = true;
  const entries = state.book.sample(p2pAddrEntriesMax, state.randomInt).map((e) => ({
    timestampMs: e.lastSeenMs, services: Services.full, nodeId: e.nodeId ? fromHex(e.nodeId) : new Uint8Array(32), host: e.host, port: e.port,
  }));
  peer.send({ type: 'addr', entries });
}

/** Addresses into the book, as many as the peer's addr allowance lets through. */
function takeAddr(state: P2pNodeState, peer: Peer, entries: Extract<Message, { type: 'addr' }>['entries']): void {
  for (const e of entries) {
    if (!peer.addrAllowance.take()) break;
    state.book.add(e.host, e.port, Math.min(e.timestampMs, state.clock.nowMs()), e.nodeId.every((b) => b === 0) ? undefined : toHex(e.nodeId));
  }
}
