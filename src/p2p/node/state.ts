/**
 * The state of the p2p node (src/p2p/p2p-node.ts): its resolved settings, the address book, the connected peers and
 * the slots of those still in their handshake, and the parts it wires together (sync, relay, fast sync, the dialer).
 * The operations are free functions beside it: open.ts (wiring and closing), connections.ts (accepting, starting,
 * readying and dropping peers), dispatch.ts (a ready peer's messages), misbehaviour.ts (bans), views.ts (status).
 */
import type { WireTally } from '../wire-tally.ts';
import type { BlockRuleError } from '../../chain/errors.ts';
import type { Chain } from '../../chain/chain.ts';
import type { Clock } from '../../util/clock.ts';
import type { AddressBook, PeerStore } from '../address-book.ts';
import type { StemRoutes } from '../dandelion.ts';
import type { Dialer } from '../dialer.ts';
import type { FastSync } from '../fast-sync.ts';
import type { Ibd } from '../ibd.ts';
import type { P2pLogger } from '../logger.ts';
import type { KeyPair, NoiseSuite } from '../noise/suites.ts';
import type { Peer, PeerOptions } from '../peer.ts';
import type { Relay } from '../relay.ts';
import type { Timer } from '../transport.ts';
import type { MisbehaviourEvent } from './options.ts';

export interface P2pNodeState {
  readonly chain: Chain;
  readonly clock: Clock;
  readonly timer: Timer;
  readonly log: P2pLogger;
  readonly staticKey: KeyPair;
  readonly randomBytes: (n: number) => Uint8Array;
  readonly randomInt: (n: number) => number;
  readonly randomNonce: () => bigint;
  readonly userAgent: string;
  readonly listenPort: number;
  /** The service bits our version announces. */
  readonly services: bigint;
  readonly suite: NoiseSuite | undefined;
  readonly inboundMax: number;
  /** false: a node that only asks fast-sync questions (P2pNodeOptions.blockSync). */
  readonly blockSync: boolean;
  readonly peerStore: PeerStore | undefined;
  readonly onMisbehaviour: ((event: MisbehaviourEvent) => void) | undefined;
  readonly blockRefused: ((peer: string, error: BlockRuleError) => boolean) | undefined;
  readonly genesis: Uint8Array;
  readonly book: AddressBook;
  readonly peers: Set<Peer>;
  /**
   * Inbound connections still in their Noise handshake, by transport. Each holds its slot from `accept` on: counting
   * only started peers let connections opened at once all pass the cap (the lab's eclipse run held 150 of 117).
   */
  readonly handshaking: { tcp: number; ws: number };
  /** The nonces of our version messages: one coming back means we dialled ourselves. */
  readonly ownNonces: Set<bigint>;
  /** What every peer reports to: made once, not per peer. */
  readonly peerHandlers: PeerOptions['handlers'];
  readonly ibd: Ibd;
  readonly stems: StemRoutes;
  readonly relay: Relay;
  readonly fastSync: FastSync;
  readonly dialer: Dialer;
  /** Detaches from the chain's accepted blocks. */
  readonly stopAnnouncing: () => void;
  /** What this node sent its peers, by message type (/metrics). */
  readonly sent: WireTally;
  /** Local connection numbers (logs). */
  seq: number;
  closed: boolean;
}

export function readyPeers(state: P2pNodeState): Peer[] {
  return [...state.peers].filter((p) => p.isReady());
}

/** Writes the address book back. A failed save (disk full, datadir removed) costs the book's freshness, never the node. */
export function persist(state: P2pNodeState): void {
  try {
    state.peerStore?.save(state.book.snapshot(state.clock.nowMs()));
  } catch (error) {
    state.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'address book not saved');
  }
}

/** Bitcoin Core does not discourage local addresses (it would ban every peer on the host): it bans the NodeID. */
export function isLocalHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^(::ffff:)?127\./.test(host);
}
