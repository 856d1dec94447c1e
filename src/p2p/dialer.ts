/**
 * The p2p node's outbound side (docs/p2p.md "Peers"): manual peers (`addnode`) redialled forever, backing off to
 * at most 2 s (p2pManualReconnectDelayMaxMs: a partition that heals while each side stays connected inside brings
 * no peer back to reset the backoff, so the cap is how late a link returns),
 * address-book peers dialled up to the outbound cap each round, and the address book written back every minute.
 *
 * Each manual peer keeps its own backoff, and the one round timer is only ever moved earlier (to the soonest
 * retry due), so one peer's long backoff never delays another's short one. When any peer becomes ready the network
 * is evidently back: every manual peer's backoff is forgotten and they are redialled at once (after a partition,
 * links return as soon as the network does, not a backoff cap later).
 *
 * `connectOnly` (Bitcoin Core's `-connect`, `weft node --connect-only`) leaves the address book undialled: the
 * outbound peers are the manual ones and no others, so an operator (or the network lab, whose links run through an
 * emulator on their addnode ports) decides every path out of the node. The book still learns and answers getaddr.
 */
import type { Clock } from '../util/clock.ts';
import { toHex } from '../util/bytes.ts';
import { addressKey, backoffMs, type AddressBook } from './address-book.ts';
import { p2pDialIntervalMs, p2pManualReconnectDelayMaxMs, p2pReconnectDelayMinMs } from './limits.ts';
import type { P2pLogger } from './logger.ts';
import type { Peer } from './peer.ts';
import { PeerLimitError } from './protocol-errors.ts';
import type { DuplexPort, Timer } from './transport.ts';

/** A peer to keep connected (`addnode`), optionally pinned to its Noise static key. */
export interface SeedEndpoint {
  readonly host: string;
  readonly port: number;
  /** The peer's expected static key: the handshake fails against any other. */
  readonly nodeId?: Uint8Array;
}

/** The address book is written back this often (and on shutdown and on every ban). */
const peerStoreSaveIntervalMs = 60_000;

export interface DialerOptions {
  readonly book: AddressBook;
  readonly clock: Clock;
  readonly timer: Timer;
  readonly log: P2pLogger;
  readonly seeds: readonly SeedEndpoint[];
  /** Dial the seeds only, never an address-book entry. */
  readonly connectOnly: boolean;
  readonly outboundMax: number;
  readonly ownNodeId: Uint8Array;
  readonly peers: ReadonlySet<Peer>;
  readonly randomInt: (n: number) => number;
  readonly dial?: (host: string, port: number) => Promise<DuplexPort>;
  /** Runs the handshakes on a dialled connection and adds the peer (the node's `startPeer`). */
  readonly startPeer: (port: DuplexPort, host: string, portNumber: number, manual: boolean, pinned?: Uint8Array) => Promise<void>;
  readonly persist: () => void;
  readonly isClosed: () => boolean;
}

export interface Dialer {
  /** Dials one address now; rejects when the dial or the handshakes fail. */
  dialOnce(host: string, port: number, manual: boolean, pinned?: Uint8Array): Promise<void>;
  /** One round now, then a round every p2pDialIntervalMs. */
  start(): void;
  /** A round in `delayMs` at the latest (a manual peer just dropped); an earlier round already due stays. */
  scheduleRound(delayMs: number): void;
  /** A peer became ready: forget every manual peer's backoff and redial those not connected now. */
  networkUp(): void;
  stop(): void;
}

export function createDialer(options: DialerOptions): Dialer {
  const { book, clock, timer, log, peers } = options;
  const pendingDials = new Set<string>();
  const manualTargets = new Map<string, { seed: SeedEndpoint; failures: number; nextMs: number }>();
  for (const seed of options.seeds) manualTargets.set(addressKey(seed.host, seed.port), { seed, failures: 0, nextMs: 0 });
  let cancelTimer: (() => void) | undefined;
  let roundDueMs = Number.POSITIVE_INFINITY;
  let savedAtMs = clock.nowMs();
  let backoffResetMs = Number.NEGATIVE_INFINITY;

  const outbound = (): Peer[] => [...peers].filter((p) => p.direction === 'outbound');
  const outboundCount = (): number => outbound().length + pendingDials.size;

  const dialOnce = async (host: string, port: number, manual: boolean, pinned?: Uint8Array): Promise<void> => {
    if (!options.dial) throw new PeerLimitError('this node has no dialer');
    const key = addressKey(host, port);
    pendingDials.add(key);
    book.markAttempt(host, port, clock.nowMs());
    try {
      await options.startPeer(await options.dial(host, port), host, port, manual, pinned);
    } catch (error) {
      book.markFailure(host, port);
      throw error;
    } finally {
      pendingDials.delete(key);
    }
  };

  const round = (): void => {
    if (options.isClosed()) return;
    const now = clock.nowMs();
    if (now - savedAtMs >= peerStoreSaveIntervalMs) {
      savedAtMs = now;
      options.persist();
    }
    if (!options.dial) return;
    const connected = new Set(outbound().map((p) => addressKey(p.endpoint.host, p.endpoint.port)));
    for (const [key, target] of manualTargets) {
      if (connected.has(key) || pendingDials.has(key) || now < target.nextMs) continue;
      dialOnce(target.seed.host, target.seed.port, true, target.seed.nodeId).then(
        () => { target.failures = 0; },
        (error: unknown) => {
          target.failures++;
          target.nextMs = clock.nowMs() + backoffMs(target.failures, p2pManualReconnectDelayMaxMs);
          log.debug({ event: 'dial_failed', address: key, failures: target.failures, err: String(error) }, 'dial failed');
          scheduleRound(target.nextMs - clock.nowMs());
        },
      );
    }
    if (options.connectOnly) return;
    const exclude = new Set([...connected, ...pendingDials, ...manualTargets.keys()]);
    // Nodes already connected either way (an inbound peer's listen address) and ourselves are not dialled again.
    const connectedIds = new Set([...peers].map((p) => p.nodeIdHex).concat(toHex(options.ownNodeId)));
    for (const entry of book.dialable(now, exclude, options.randomInt)) {
      if (outboundCount() >= options.outboundMax) break;
      if (entry.nodeId !== '' && connectedIds.has(entry.nodeId)) continue;
      dialOnce(entry.host, entry.port, false).catch(() => undefined);
    }
  };

  /** The next regular round: the dial interval, or sooner when a manual peer's retry falls due before it. */
  const nextRoundDelayMs = (): number => {
    const now = clock.nowMs();
    let delay = p2pDialIntervalMs;
    for (const target of manualTargets.values()) if (target.failures > 0) delay = Math.min(delay, Math.max(0, target.nextMs - now));
    return delay;
  };

  const scheduleRound = (delayMs: number = nextRoundDelayMs()): void => {
    if (options.isClosed()) return;
    const dueMs = clock.nowMs() + Math.max(0, delayMs);
    if (cancelTimer !== undefined && dueMs >= roundDueMs) return;
    cancelTimer?.();
    roundDueMs = dueMs;
    cancelTimer = timer.setTimeout(() => {
      cancelTimer = undefined;
      roundDueMs = Number.POSITIVE_INFINITY;
      round();
      scheduleRound();
    }, Math.max(0, delayMs));
  };

  const networkUp = (): void => {
    const now = clock.nowMs();
    // At most once per ten shortest backoffs: a peer that reconnects in a loop cannot make us redial in a loop.
    if (now - backoffResetMs < 10 * p2pReconnectDelayMinMs) return;
    let waiting = false;
    for (const target of manualTargets.values()) {
      if (target.failures === 0) continue;
      target.failures = 0;
      target.nextMs = 0;
      waiting = true;
    }
    if (!waiting) return;
    backoffResetMs = now;
    log.debug({ event: 'backoff_reset' }, 'a peer came back: manual peers are redialled now');
    scheduleRound(0);
  };

  return {
    dialOnce,
    start() {
      round();
      scheduleRound();
    },
    scheduleRound,
    networkUp,
    stop() {
      cancelTimer?.();
    },
  };
}
