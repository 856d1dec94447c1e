/**
 * Inventory in relay (docs/p2p.md "Relay"): `inv` → `getdata` for the blocks and transactions we lack, `getdata`
 * answered with `block` / `tx` or `notfound`, and a `notfound` for what we asked releases its request; `txinv` →
 * `gettx` → `tx` is the same for transactions by short id.
 */
import { toHex } from '../../util/bytes.ts';
import { InvType, type InvItem } from '../messages/inventory.ts';
import { txShortIdBytes, txShortKey } from '../messages/tx-inventory.ts';
import { Services } from '../messages/version.ts';
import { compactFormOf } from '../compact-relay.ts';
import { compactMessageFor } from './blocks.ts';
import type { Peer } from '../peer.ts';
import { defer, requestBlocks } from './block-requests.ts';
import { noteFirstDelivery } from './push-selection.ts';
import { fetchWhole } from './compact.ts';
import { wants, type RelayState } from './state.ts';

export function onInv(state: RelayState, peer: Peer, items: readonly InvItem[]): void {
  const { chain } = state;
  const blocks: string[] = [];
  const txs: InvItem[] = [];
  for (const item of items) {
    const id = toHex(item.hash);
    if (item.kind === InvType.block) {
      peer.known.add(id);
      if (!chain.has(id) && !chain.isInvalid(id)) blocks.push(id);
      continue;
    }
    const key = txShortKey(id);
    peer.known.add(key);
    state.stems.seenAnnounced(id);
    if (state.txPort && !state.txCache.has(id) && !state.txConfirmedRecently.has(key) && !state.txRequested.has(key)) {
      state.txRequested.add(key);
      txs.push(item);
    }
  }
  // During a sync round the round fetches blocks; announcements are picked up by requestPeerTips after it.
  if (blocks.length > 0 && !state.ibd.running()) {
    // The first to tell us of a new block becomes a pusher; a pushSelection peer sends it in compact form.
    if (blocks.some((id) => !state.requested.has(id) && !state.compact.pending.has(id))) noteFirstDelivery(state, peer);
    requestBlocks(state, peer, blocks, wants(peer, Services.pushSelection) ? InvType.compactBlock : InvType.block);
  } else for (const id of blocks) defer(state, id, peer);
  if (txs.length > 0) peer.send({ type: 'getdata', items: txs });
}

/** A `txinv`: what we neither hold, nor saw confirmed lately, nor have asked for is asked of this peer in one `gettx`. */
export function onTxInv(state: RelayState, peer: Peer, shortIds: Uint8Array): void {
  const wanted: Uint8Array[] = [];
  for (let at = 0; at < shortIds.length; at += txShortIdBytes) {
    const shortId = shortIds.subarray(at, at + txShortIdBytes);
    const key = toHex(shortId);
    peer.known.add(key);
    const held = state.txIdByShortKey.get(key);
    if (held !== undefined) state.stems.seenAnnounced(held);
    else if (state.txPort && !state.txConfirmedRecently.has(key) && !state.txRequested.has(key)) {
      state.txRequested.add(key);
      wanted.push(shortId);
    }
  }
  if (wanted.length === 0) return;
  const asked = new Uint8Array(wanted.length * txShortIdBytes);
  wanted.forEach((shortId, i) => asked.set(shortId, i * txShortIdBytes));
  peer.send({ type: 'gettx', shortIds: asked });
}

/**
 * A `gettx`: each held transaction sent as `tx`. One no longer held (evicted, mined) is skipped without a
 * `notfound`: the asker has another announcer, or the block that mined it.
 */
export function onGetTx(state: RelayState, peer: Peer, shortIds: Uint8Array): void {
  for (let at = 0; at < shortIds.length; at += txShortIdBytes) {
    const id = state.txIdByShortKey.get(toHex(shortIds.subarray(at, at + txShortIdBytes)));
    const raw = id === undefined ? undefined : state.txCache.get(id);
    if (raw) peer.send({ type: 'tx', tx: raw });
  }
}

export function onGetData(state: RelayState, peer: Peer, items: readonly InvItem[]): void {
  const missing: InvItem[] = [];
  for (const item of items) {
    const id = toHex(item.hash);
    if (item.kind === InvType.block) {
      const block = state.chain.getBlock(id);
      if (block) peer.send({ type: 'block', block });
      else missing.push(item);
    } else if (item.kind === InvType.compactBlock) {
      const block = state.chain.getBlock(id);
      const form = block ? compactFormOf(block) : undefined;
      if (form) peer.send(compactMessageFor(form, peer));
      else missing.push({ kind: InvType.block, hash: item.hash });
    } else {
      const raw = state.txCache.get(id);
      if (raw) peer.send({ type: 'tx', tx: raw });
      else missing.push(item);
    }
  }
  if (missing.length > 0) peer.send({ type: 'notfound', items: missing });
}

/** A notfound for the sync round's bodies, a block relay asked for or a compact block's transactions; else an anomaly. */
export function onNotFound(state: RelayState, peer: Peer, items: readonly InvItem[]): void {
  const ours = state.ibd.onNotFound(peer, items);
  let relayed = 0;
  for (const item of items) {
    const id = toHex(item.hash);
    if (state.requested.get(id)?.peer === peer) {
      state.requested.delete(id);
      relayed++;
    } else if (state.compact.pending.get(id)?.peer === peer) {
      state.compact.pending.delete(id);
      fetchWhole(state, id, peer);
      relayed++;
    }
  }
  if (ours + relayed < items.length) peer.anomaly('notfound for items we did not ask for');
}
