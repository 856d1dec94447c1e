/**
 * Transactions in relay (docs/p2p.md "Relay" and "Dandelion++ (`mixnet_hops`)"): a peer's transaction goes to the
 * mempool port; every admitted one is kept for getdata and compact blocks, then either sent along a Dandelion++ stem
 * to one outbound peer or announced to every relaying peer, a window's announcements in one message a peer.
 */
import { decodeTransaction, txHash } from '../../kinds/transaction-codec.ts';
import { toHex } from '../../util/bytes.ts';
import { rememberTransaction } from '../compact-relay.ts';
import { p2pInvItemsMax, p2pTxAnnounceDelayMs } from '../limits.ts';
import { InvType, type InvItem } from '../messages/inventory.ts';
import { txShortIdBytes, txShortKey } from '../messages/tx-inventory.ts';
import { Services } from '../messages/version.ts';
import type { Peer } from '../peer.ts';
import { MessageMalformedError } from '../protocol-errors.ts';
import { wants, type RelayState } from './state.ts';

/** A `tx` or `stemtx` from a peer: decoded for its id, then handed to the mempool (stemHops: it came on a stem). */
export function admitFromPeer(state: RelayState, peer: Peer, raw: Uint8Array, what: 'tx' | 'stemtx', stemHops: number | undefined): void {
  let id: string;
  try {
    id = toHex(txHash(decodeTransaction(raw)));
  } catch (cause) {
    throw new MessageMalformedError(`${what}: does not decode`, cause);
  }
  peer.known.add(txShortKey(id));
  if (!state.txPort) return;
  state.txSources.set(id, peer);
  if (stemHops !== undefined) state.stems.markReceived(id, stemHops);
  state.txPort.submitRaw(raw).catch((error: unknown) => {
    state.txSources.delete(id);
    const score = (error as { banScore?: unknown }).banScore;
    if (typeof score === 'number' && score > 0) state.onBlockRejected(peer, error);
    else peer.anomaly('transaction refused by mempool policy');
  });
}

/** The mempool admitted a transaction (from RPC or a peer): kept, then stemmed or announced. */
export function onTxAdded(state: RelayState, hash: Uint8Array, raw: Uint8Array): void {
  const id = toHex(hash);
  remember(state, id, raw);
  const source = state.txSources.get(id);
  state.txSources.delete(id);
  const decision = state.stems.decide(id, source === undefined);
  if (decision !== undefined && decision !== 'fluff' && forwardStem(state, id, raw, decision.forward, source)) {
    state.stems.embargo(id, () => diffuse(state, id, hash, undefined));
    return;
  }
  diffuse(state, id, hash, source);
}

function remember(state: RelayState, id: string, raw: Uint8Array): void {
  state.txCache.set(id, raw);
  state.txIdByShortKey.set(txShortKey(id), id);
  rememberTransaction(state.compact, id);
}


function relaying(state: RelayState, source: Peer | undefined): Peer[] {
  return state.readyPeers().filter((p) => p !== source && p.version()?.relay !== false);
}

/**
 * Announces a transaction to every relaying peer but its source (the fluff). Announcements wait p2pTxAnnounceDelayMs
 * and leave as one message a peer: the transactions of that window cost each peer one message, not one each, and a
 * peer that announced one of them to us meanwhile is skipped (it holds it). A peer with the `shortTxInv` bit gets
 * `txinv` (8 bytes a transaction), any other `inv` (33).
 */
function diffuse(state: RelayState, id: string, hash: Uint8Array, source: Peer | undefined): void {
  const { txInvQueue } = state;
  const key = txShortKey(id);
  for (const peer of relaying(state, source)) {
    if (peer.known.has(key)) continue;
    const queued = { item: { kind: InvType.tx, hash }, key };
    const items = txInvQueue.get(peer);
    if (items) items.push(queued);
    else txInvQueue.set(peer, [queued]);
  }
  if (state.cancelTxInvFlush === undefined && txInvQueue.size > 0) {
    state.cancelTxInvFlush = state.timer.setTimeout(() => flushTxInvs(state), p2pTxAnnounceDelayMs);
  }
}

function flushTxInvs(state: RelayState): void {
  state.cancelTxInvFlush = undefined;
  for (const [peer, queued] of state.txInvQueue) {
    const items: InvItem[] = [];
    for (const { item, key } of queued) {
      if (peer.known.has(key)) continue;
      peer.known.add(key);
      items.push(item);
    }
    const short = wants(peer, Services.shortTxInv);
    for (let at = 0; at < items.length; at += p2pInvItemsMax) {
      const batch = items.slice(at, at + p2pInvItemsMax);
      peer.send(short ? { type: 'txinv', shortIds: shortIdsOf(batch) } : { type: 'inv', items: batch });
    }
  }
  state.txInvQueue.clear();
}

function shortIdsOf(items: readonly { readonly hash: Uint8Array }[]): Uint8Array {
  const shortIds = new Uint8Array(items.length * txShortIdBytes);
  items.forEach((item, i) => shortIds.set(item.hash.subarray(0, txShortIdBytes), i * txShortIdBytes));
  return shortIds;
}

/** Sends the transaction on to one outbound peer; false when there is none (the caller fluffs). */
function forwardStem(state: RelayState, id: string, raw: Uint8Array, hops: number, source: Peer | undefined): boolean {
  const outbound = relaying(state, source).filter((p) => p.direction === 'outbound');
  if (outbound.length === 0) return false;
  const next = outbound[state.randomInt(outbound.length)]!;
  next.known.add(txShortKey(id));
  next.send({ type: 'stemtx', hops, tx: raw });
  return true;
}
