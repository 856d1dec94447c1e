/**
 * Blocks relay asks peers for (docs/p2p.md "Relay"): one getdata a block across peers while its request is fresh,
 * announcements deferred while a sync round runs, and the peers' tips asked for after it.
 */
import { fromHex } from '../../util/bytes.ts';
import { p2pOrphanParentRequestsMax, p2pRequestTimeoutMs } from '../limits.ts';
import { InvType, type InvItem } from '../messages/inventory.ts';
import type { Peer } from '../peer.ts';
import { expireCompact } from '../compact-relay.ts';
import type { RelayState } from './state.ts';

/** Asks `peer` for the blocks among `ids` we lack and nobody was asked for lately: whole, or in compact form. */
export function requestBlocks(state: RelayState, peer: Peer, ids: readonly string[], kind: InvType = InvType.block): void {
  const { chain, requested } = state;
  const items: InvItem[] = [];
  const now = state.clock.nowMs();
  if (requested.size >= p2pOrphanParentRequestsMax / 2) expireRequests(state, now);
  for (const id of ids) {
    const pending = requested.get(id);
    if (chain.has(id) || chain.isInvalid(id) || (pending && now - pending.atMs < p2pRequestTimeoutMs) || requested.size >= p2pOrphanParentRequestsMax) continue;
    requested.set(id, { peer, atMs: now });
    items.push({ kind, hash: fromHex(id) });
  }
  if (items.length > 0) peer.send({ type: 'getdata', items });
}

/** Keeps an announcement that arrived during a sync round for requestPeerTips, the newest ones within the bound. */
export function defer(state: RelayState, id: string, peer: Peer): void {
  state.deferred.set(id, peer);
  while (state.deferred.size > p2pOrphanParentRequestsMax) state.deferred.delete(state.deferred.keys().next().value as string);
}

/** After a sync round: ask each peer for its tip if we still lack it (blocks mined during the sync). */
export function requestPeerTips(state: RelayState): void {
  for (const [id, peer] of state.deferred) if (peer.isReady()) requestBlocks(state, peer, [id]);
  state.deferred.clear();
  for (const peer of state.readyPeers()) {
    if (peer.best.tip !== '' && !state.chain.has(peer.best.tip)) requestBlocks(state, peer, [peer.best.tip]);
  }
}

function expireRequests(state: RelayState, now: number): void {
  for (const [id, r] of state.requested) if (now - r.atMs >= p2pRequestTimeoutMs) state.requested.delete(id);
  expireCompact(state.compact, now, p2pRequestTimeoutMs);
}
