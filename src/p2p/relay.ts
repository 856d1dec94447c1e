/**
 * Relay of new blocks and transactions (docs/p2p.md "Relay"): a validated block is pushed as a compact block
 * (compact-relay.ts) to every ready peer that asked for them and has not declined pushes (push-selection.ts), and
 * announced with `inv` to the others; a peer that
 * lacks an announced item asks with `getdata` and gets `block` / `tx`, or `notfound` (transactions go by short id,
 * `txinv` → `gettx`, to peers that offer it). A relayed block whose parents are unknown waits in the chain's orphan pool and its
 * missing parents are asked from the same peer, level by level; one far ahead of us starts a headers-first sync
 * instead. Unsolicited blocks that do not connect draw on a small per-peer allowance — a flood of them is
 * misbehaviour. Transactions go through the mempool port; one marked for a Dandelion++ stem (dandelion.ts) goes to
 * a single outbound peer as `stemtx` instead of being announced.
 *
 * Relay's state is one RelayState (relay/state.ts); each operation is a free function over it in src/p2p/relay/
 * (blocks.ts, block-requests.ts, compact.ts, inventory.ts, transactions.ts, push-selection.ts, close.ts). This file is
 * the wiring.
 */
import type { Block } from '../codec/block.ts';
import type { CompactBlockMessage } from './messages/compact-block.ts';
import type { PrefilledBlockMessage } from './messages/prefilled-block.ts';
import type { InvItem } from './messages/inventory.ts';
import type { Peer } from './peer.ts';
import { requestPeerTips } from './relay/block-requests.ts';
import { announceBlock, onBlock } from './relay/blocks.ts';
import { closeRelay, onPeerClosed } from './relay/close.ts';
import { onBlockTxn, onCompactBlock, onGetBlockTxn } from './relay/compact.ts';
import { onGetData, onGetTx, onInv, onNotFound, onTxInv } from './relay/inventory.ts';
import { createRelayState, type RelayDeps } from './relay/state.ts';
import { onPushBlocks } from './relay/push-selection.ts';
import { admitFromPeer, onTxAdded } from './relay/transactions.ts';

export type { TxRelayPort } from './relay/state.ts';

export interface Relay {
  /** Tells peers of a new valid block; `body` when the caller has it (else it is read from the chain). */
  announceBlock(id: string, body?: Block): void;
  onInv(peer: Peer, items: readonly InvItem[]): void;
  onGetData(peer: Peer, items: readonly InvItem[]): void;
  onNotFound(peer: Peer, items: readonly InvItem[]): void;
  /** A `txinv` (transactions by short id): those we lack asked for with one `gettx`. */
  onTxInv(peer: Peer, shortIds: Uint8Array): void;
  onGetTx(peer: Peer, shortIds: Uint8Array): void;
  onBlock(peer: Peer, block: Block): void;
  /** A pushed compact block (`cmpctblock` or `prefilledblock`): rebuilt from what it carries and held transactions, the rest asked of its sender. */
  onCompactBlock(peer: Peer, message: CompactBlockMessage | PrefilledBlockMessage): void;
  onGetBlockTxn(peer: Peer, hash: Uint8Array, indexes: readonly number[]): void;
  /** A `pushblocks`: whether the peer wants our new blocks pushed or announced. */
  onPushBlocks(peer: Peer, push: boolean): void;
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
  const state = createRelayState(deps);
  state.unsubscribeTx = deps.txPort?.onAdded(({ hash, raw }) => onTxAdded(state, hash, raw));
  return {
    announceBlock: (id, body) => announceBlock(state, id, body),
    onInv: (peer, items) => onInv(state, peer, items),
    onGetData: (peer, items) => onGetData(state, peer, items),
    onNotFound: (peer, items) => onNotFound(state, peer, items),
    onTxInv: (peer, shortIds) => onTxInv(state, peer, shortIds),
    onGetTx: (peer, shortIds) => onGetTx(state, peer, shortIds),
    onBlock: (peer, block) => onBlock(state, peer, block),
    onCompactBlock: (peer, message) => onCompactBlock(state, peer, message),
    onGetBlockTxn: (peer, hash, indexes) => onGetBlockTxn(state, peer, hash, indexes),
    onPushBlocks: (peer, push) => onPushBlocks(state, peer, push),
    onBlockTxn: (peer, hash, transactions) => onBlockTxn(state, peer, hash, transactions),
    onTx: (peer, raw) => admitFromPeer(state, peer, raw, 'tx', undefined),
    onStemTx: (peer, hops, raw) => admitFromPeer(state, peer, raw, 'stemtx', hops),
    requestPeerTips: () => requestPeerTips(state),
    onPeerClosed: (peer) => onPeerClosed(state, peer),
    close: () => closeRelay(state),
  };
}
