/** Misbehaviour (docs/p2p.md "Misbehaviour"): a refused block's cost to its sender, and a ban. */
import { BlockRuleError, ChainStorageError } from '../../chain/errors.ts';
import { p2pBanDurationMs } from '../limits.ts';
import { P2pProtocolError } from '../errors.ts';
import type { Peer } from '../peer.ts';
import { InvalidBlockRelayedError } from '../protocol-errors.ts';
import { isLocalHost, persist, readyPeers, type P2pNodeState } from './state.ts';

/** Bans a peer's NodeID (and its address unless local) for p2pBanDurationMs; addnode peers are never banned. */
export function banPeer(state: P2pNodeState, peer: Peer, error: P2pProtocolError): void {
  if (peer.manual) return;
  const until = state.clock.nowMs() + p2pBanDurationMs;
  state.book.ban(`node:${peer.nodeIdHex}`, until, error.message);
  if (!isLocalHost(peer.endpoint.host)) state.book.ban(`ip:${peer.endpoint.host}`, until, error.message);
  state.log.warn({ event: 'peer_banned', peer: peer.nodeIdHex.slice(0, 16), address: peer.endpoint.host, code: error.code, reason: error.message }, 'peer banned');
  state.onMisbehaviour?.({ kind: 'banned', peer: `${peer.endpoint.host} (${peer.nodeIdHex.slice(0, 16)})`, reason: error.message });
  persist(state);
}

/**
 * A block `peer` sent was refused: a rule with a ban score disconnects it with that score (unless the join guard
 * spares it), a score-0 rule is an anomaly, a protocol error disconnects it; a store failure is ours, not its.
 */
export function onBlockRejected(state: P2pNodeState, peer: Peer, error: unknown): void {
  if (error instanceof BlockRuleError) {
    if (state.blockRefused?.(peer.nodeIdHex, error) === true) {
      state.log.info({ event: 'block_refusal_spared', peer: peer.nodeIdHex.slice(0, 16), rule: error.rule }, 'refused block not held against its sender yet');
      return;
    }
    state.onMisbehaviour?.({ kind: 'invalid_block', peer: peer.endpoint.host, reason: error.rule });
    const relayed = new InvalidBlockRelayedError(error.rule, error.banScore, error.message);
    if (error.banScore > 0) peer.disconnect(relayed);
    else peer.anomaly(error.message);
    return;
  }
  if (error instanceof P2pProtocolError) return peer.disconnect(error);
  state.log.warn({ err: error instanceof ChainStorageError ? error.message : String(error) }, 'block from peer not stored');
}

/** Drops ready peer `nodeId` (hex) for `error`: one with a ban score bans it as any misbehaviour does. */
export function disconnectPeer(state: P2pNodeState, nodeId: string, error: P2pProtocolError): void {
  readyPeers(state).find((p) => p.nodeIdHex === nodeId.toLowerCase())?.disconnect(error);
}
