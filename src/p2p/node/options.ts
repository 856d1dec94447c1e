/** What the p2p node (src/p2p/p2p-node.ts) is opened with; p2p-node.ts re-exports both types for its callers. */
import type { BlockRuleError } from '../../chain/errors.ts';
import type { Chain } from '../../chain/chain.ts';
import type { Clock } from '../../util/clock.ts';
import type { PeerStore } from '../address-book.ts';
import type { SeedEndpoint } from '../dialer.ts';
import type { FastSyncPorts } from '../fast-sync.ts';
import type { P2pLogger } from '../logger.ts';
import type { KeyPair, NoiseSuite } from '../noise/suites.ts';
import type { TxRelayPort } from '../relay/state.ts';
import type { DuplexPort, Timer } from '../transport.ts';

export interface MisbehaviourEvent {
  readonly kind: 'banned' | 'invalid_block';
  readonly peer: string;
  readonly reason: string;
}

export interface P2pNodeOptions {
  readonly chain: Chain;
  readonly staticKey: KeyPair;
  readonly clock: Clock;
  readonly timer: Timer;
  readonly randomBytes: (n: number) => Uint8Array;
  readonly userAgent: string;
  /** The TCP port we accept on (announced in version); 0 when not listening. */
  readonly listenPort: number;
  /** addnode peers: always reconnected, never banned. */
  readonly seeds?: readonly SeedEndpoint[];
  /** Dial only `seeds`, never the address book's entries (`--connect-only`; dialer.ts); inbound and addr work as ever. */
  readonly connectOnly?: boolean;
  readonly dial?: (host: string, port: number) => Promise<DuplexPort>;
  readonly peerStore?: PeerStore;
  readonly txPort?: TxRelayPort;
  /** Dandelion++ stem length for our own transactions unless one asks otherwise (0: plain diffusion; dandelion.ts). */
  readonly mixnetHops?: number;
  /** Told of bans and of invalid blocks peers sent (the node's alert monitor raises `security` alerts from them). */
  readonly onMisbehaviour?: (event: MisbehaviourEvent) => void;
  readonly suite?: NoiseSuite;
  readonly log?: P2pLogger;
  readonly outboundMax?: number;
  readonly inboundMax?: number;
  /** Browser nodes set `browser` (they never listen). */
  readonly services?: bigint;
  /** What this node serves to joining nodes (fast-sync.ts); left out, those requests are answered `notfound`. */
  readonly fastSync?: FastSyncPorts;
  /**
   * false: a node that only asks fast-sync questions — a joining node before its chain opens (server/node/fast-join.ts),
   * whose placeholder chain must not start a block download from genesis that pruned peers cannot serve.
   */
  readonly blockSync?: boolean;
  /**
   * Asked first when a peer's block is refused by a rule: true spares the sender its ban score (a joined node's guard,
   * join-guard.ts, judges refusals that may be its own join's fault, and heavier proofs behind them).
   */
  readonly blockRefused?: (peer: string, error: BlockRuleError) => boolean;
}
