/**
 * Which peers push new blocks to us (BIP 152's high-bandwidth peers; docs/p2p.md "Compact blocks"). Every peer
 * pushes by default, so at degree d a node is sent each block up to d times, with the transactions it lacks
 * prefilled in each copy. The node keeps pushes from the `compactPushersMax` peers that brought it a new block first
 * most lately and sends the rest of its `pushSelection` peers `pushblocks` false: they announce with `inv`, and a
 * block one of them announces first is asked of it in compact form (`getdata` of kind `compactBlock`), which also
 * makes it a pusher in place of the longest-standing one.
 */
import { Services } from '../messages/version.ts';
import type { Peer } from '../peer.ts';
import { wants, type RelayState } from './state.ts';

/** Peers kept pushing new blocks to a node: BIP 152's three. */
export const compactPushersMax = 3;

/** A `pushblocks` from `peer`: whether we push our new blocks to it or announce them. */
export function onPushBlocks(state: RelayState, peer: Peer, push: boolean): void {
  if (push) state.announceOnly.delete(peer);
  else state.announceOnly.add(peer);
}

/** Whether a new block goes to `peer` pushed (compact) or announced (`inv`). */
export function pushesTo(state: RelayState, peer: Peer): boolean {
  return !state.announceOnly.has(peer);
}

/**
 * `peer` brought us a block we did not have, before any other peer: it becomes the newest pusher (told so if it
 * had been declined), the longest-standing one beyond `compactPushersMax` is declined, and once the set is full so is
 * every other `pushSelection` peer still pushing.
 */
export function noteFirstDelivery(state: RelayState, peer: Peer): void {
  if (!wants(peer, Services.pushSelection)) return;
  const { pushers, pushesDeclined } = state;
  const at = pushers.indexOf(peer);
  if (at >= 0) pushers.splice(at, 1);
  pushers.push(peer);
  if (pushesDeclined.delete(peer)) peer.send({ type: 'pushblocks', push: true });
  while (pushers.length > compactPushersMax) decline(state, pushers.shift()!);
  if (pushers.length < compactPushersMax) return;
  for (const other of state.readyPeers()) {
    if (!pushesDeclined.has(other) && !pushers.includes(other) && wants(other, Services.pushSelection)) decline(state, other);
  }
}

function decline(state: RelayState, peer: Peer): void {
  state.pushesDeclined.add(peer);
  peer.send({ type: 'pushblocks', push: false });
}

export function forgetPushes(state: RelayState, peer: Peer): void {
  const at = state.pushers.indexOf(peer);
  if (at >= 0) state.pushers.splice(at, 1);
  state.pushesDeclined.delete(peer);
  state.announceOnly.delete(peer);
}
