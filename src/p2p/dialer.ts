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

interface ManualTarget {
  readonly seed: SeedEndpoint;
  failures: number;
  nextMs: number;
}

/** What the dialer changes: its dials in flight, each manual peer's backoff, the one round timer. */
interface DialerState {
  readonly options: DialerOptions;
  readonly pendingDials: Set<string>;
  readonly manualTargets: Map<string, ManualTarget>;
  cancelTimer: (() => void) | undefined;
  roundDueMs: number;
  savedAtMs: number;
  backoffResetMs: number;
}

const outbound = (state: DialerState): Peer[] => [...state.options.peers].filter((p) => p.direction === 'outbound');

async function dialOnce(state: DialerState, host: string, port: number, manual: boolean, pinned?: Uint8Array): Promise<void> {
  const { options, pendingDials } = state;
  if (!options.dial) throw new PeerLimitError('this node has no dialer');
  const key = addressKey(host, port);
  pendingDials.add(key);
  options.book.markAttempt(host, port, options.clock.nowMs());
  try {
    await options.startPeer(await options.dial(host, port), host, port, manual, pinned);
  } catch (error) {
    options.book.markFailure(host, port);
    throw error;
  } finally {
    pendingDials.delete(key);
  }
}

/** A manual peer not connected and due: dialled; a failure backs it off and moves the round timer to its retry. */
function dialManual(state: DialerState, key: string, target: ManualTarget): void {
  const { clock, log } = state.options;
  dialOnce(state, target.seed.host, target.seed.port, true, target.seed.nodeId).then(
    () => { target.failures = 0; },
    (error: unknown) => {
      target.failures++;
      target.nextMs = clock.nowMs() + backoffMs(target.failures, p2pManualReconnectDelayMaxMs);
      log.debug({ event: 'dial_failed', address: key, failures: target.failures, err: String(error) }, 'dial failed');
      scheduleRound(state, target.nextMs - clock.nowMs());
    },
  );
}

/** One round: the address book saved when due, manual peers redialled, then book entries up to the outbound cap. */
function round(state: DialerState): void {
  const { options, pendingDials, manualTargets } = state;
  if (options.isClosed()) return;
  const now = options.clock.nowMs();
  if (now - state.savedAtMs >= peerStoreSaveIntervalMs) {
    state.savedAtMs = now;
    options.persist();
  }
  if (!options.dial) return;
  const connected = new Set(outbound(state).map((p) => addressKey(p.endpoint.host, p.endpoint.port)));
  for (const [key, target] of manualTargets) {
    if (!connected.has(key) && !pendingDials.has(key) && now >= target.nextMs) dialManual(state, key, target);
  }
  if (options.connectOnly) return;
  const exclude = new Set([...connected, ...pendingDials, ...manualTargets.keys()]);
  // Nodes already connected either way (an inbound peer's listen address) and ourselves are not dialled again.
  const connectedIds = new Set([...options.peers].map((p) => p.nodeIdHex).concat(toHex(options.ownNodeId)));
  for (const entry of options.book.dialable(now, exclude, options.randomInt)) {
    if (outbound(state).length + pendingDials.size >= options.outboundMax) break;
    if (entry.nodeId !== '' && connectedIds.has(entry.nodeId)) continue;
    dialOnce(state, entry.host, entry.port, false).catch(() => undefined);
  }
}

/** The next regular round: the dial interval, or sooner when a manual peer's retry falls due before it. */
function nextRoundDelayMs(state: DialerState): number {
  const now = state.options.clock.nowMs();
  let delay = p2pDialIntervalMs;
  for (const target of state.manualTargets.values()) if (target.failures > 0) delay = Math.min(delay, Math.max(0, target.nextMs - now));
  return delay;
}

function scheduleRound(state: DialerState, delayMs: number = nextRoundDelayMs(state)): void {
  const { options } = state;
  if (options.isClosed()) return;
  const dueMs = options.clock.nowMs() + Math.max(0, delayMs);
  if (state.cancelTimer !== undefined && dueMs >= state.roundDueMs) return;
  state.cancelTimer?.();
  state.roundDueMs = dueMs;
  state.cancelTimer = options.timer.setTimeout(() => {
    state.cancelTimer = undefined;
    state.roundDueMs = Number.POSITIVE_INFINITY;
    round(state);
    scheduleRound(state);
  }, Math.max(0, delayMs));
}

function networkUp(state: DialerState): void {
  const now = state.options.clock.nowMs();
  // At most once per ten shortest backoffs: a peer that reconnects in a loop cannot make us redial in a loop.
  if (now - state.backoffResetMs < 10 * p2pReconnectDelayMinMs) return;
  let waiting = false;
  for (const target of state.manualTargets.values()) {
    if (target.failures === 0) continue;
    target.failures = 0;
    target.nextMs = 0;
    waiting = true;
  }
  if (!waiting) return;
  state.backoffResetMs = now;
  state.options.log.debug({ event: 'backoff_reset' }, 'a peer came back: manual peers are redialled now');
  scheduleRound(state, 0);
}

export function createDialer(options: DialerOptions): Dialer {
  const manualTargets = new Map<string, ManualTarget>();
  for (const seed of options.seeds) manualTargets.set(addressKey(seed.host, seed.port), { seed, failures: 0, nextMs: 0 });
  const state: DialerState = {
    options, pendingDials: new Set(), manualTargets, cancelTimer: undefined,
    roundDueMs: Number.POSITIVE_INFINITY, savedAtMs: options.clock.nowMs(), backoffResetMs: Number.NEGATIVE_INFINITY,
  };
  return {
    dialOnce: (host, port, manual, pinned) => dialOnce(state, host, port, manual, pinned),
    start() {
      round(state);
      scheduleRound(state);
    },
    scheduleRound: (delayMs) => scheduleRound(state, delayMs),
    networkUp: () => networkUp(state),
    stop: () => state.cancelTimer?.(),
  };
}
