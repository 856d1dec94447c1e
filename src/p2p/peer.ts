/**
 * One connected peer over an established secure session: the version/verack handshake, ping/pong liveness, message
 * decoding with per-type caps, and the per-peer allowances (anomalies, addr, unsolicited orphans). Messages other
 * than version/verack/ping/pong go to the node's handler once the handshake is done; anything else before that is
 * a protocol violation. A P2pProtocolError thrown by the handler disconnects the peer with that error, whose
 * banScore the node applies (docs/p2p.md "Misbehaviour").
 */
import { tallySent, type WireTally } from './wire-tally.ts';
import { toHex } from '../util/bytes.ts';
import { createBoundedSet, type BoundedSet } from '../util/bounded-set.ts';
import type { Clock } from '../util/clock.ts';
import { P2pProtocolError } from './errors.ts';
import {
  p2pAddrBurst,
  p2pAddrRefillMs,
  p2pAnomaliesBurst,
  p2pAnomalyRefillMs,
  p2pKnownInventoryMax,
  p2pPingIntervalMs,
  p2pPongTimeoutMs,
  p2pUnsolicitedOrphanRefillMs,
  p2pUnsolicitedOrphansBurst,
  p2pVersionTimeoutMs,
} from './limits.ts';
import { decodeMessage, encodeMessage, type Message } from './messages.ts';
import type { VersionMessage } from './messages/version.ts';
import { PeerTimeoutError } from './protocol-errors.ts';
import type { SecureSession } from './secure-session.ts';
import { createTokenBucket, type TokenBucket } from './token-bucket.ts';
import type { Timer } from './transport.ts';
import { createVersionHandshake, handshakeComplete, stepHandshake, type VersionExpectation, type VersionHandshake } from './version-handshake.ts';

type PeerDirection = 'inbound' | 'outbound';
type PeerTransport = 'tcp' | 'ws';

export interface PeerEndpoint {
  readonly host: string;
  readonly port: number;
  readonly transport: PeerTransport;
}

export interface Peer {
  /** Local connection number (logs). */
  readonly seq: number;
  readonly nodeId: Uint8Array;
  readonly nodeIdHex: string;
  readonly direction: PeerDirection;
  readonly endpoint: PeerEndpoint;
  /** addnode peers: reconnected forever, disconnected but never banned. */
  readonly manual: boolean;
  readonly connectedAtMs: number;
  /** The peer's version, once received. */
  version(): VersionMessage | undefined;
  isReady(): boolean;
  isClosed(): boolean;
  /** Best tip we know the peer has (from its version, raised by the blocks it serves). */
  best: { blueWork: bigint; blueScore: number; tip: string };
  /** Inventory the peer is known to have (so we do not announce it back). */
  readonly known: BoundedSet<string>;
  readonly anomalies: TokenBucket;
  readonly addrAllowance: TokenBucket;
  readonly orphanAllowance: TokenBucket;
  /** getaddr is answered once per connection. */
  answeredGetaddr: boolean;
  send(message: Message): void;
  /** Closes the connection; with an error, sends a courtesy `reject` first and reports the error (and its score). */
  disconnect(error?: P2pProtocolError): void;
  /** Counts a harmless anomaly: false once the allowance is spent (the caller drops the message). */
  anomaly(what: string): boolean;
}

interface PeerHandlers {
  onReady(peer: Peer): void;
  onMessage(peer: Peer, message: Message): void;
  onClose(peer: Peer, error: P2pProtocolError | undefined): void;
  /** Whether `nonce` is one this node put in a version message (self-connection). */
  isOwnNonce(nonce: bigint): boolean;
  onAnomalyDropped?(peer: Peer, what: string): void;
}

export interface PeerOptions {
  readonly seq: number;
  readonly session: SecureSession;
  readonly direction: PeerDirection;
  readonly endpoint: PeerEndpoint;
  readonly manual: boolean;
  readonly clock: Clock;
  readonly timer: Timer;
  /** Our version message (sent first, by both sides). */
  readonly ownVersion: VersionMessage;
  /** A version is compatible when it names our network, chain id and genesis. */
  readonly handlers: PeerHandlers;
  readonly randomNonce: () => bigint;
  /** Where every message sent is counted, by type (the node's, shared by its peers). */
  readonly sent?: WireTally;
}

/**
 * What a peer tracks beside its public face: the handshake, readiness, the close, and the ping in flight with its
 * timers. The operations below are free functions over it; createPeer wires them to the session.
 */
interface PeerState {
  readonly options: PeerOptions;
  readonly handshake: VersionHandshake;
  readonly expected: VersionExpectation;
  readonly cancelVersionTimeout: () => void;
  ready: boolean;
  closed: boolean;
  closeError: P2pProtocolError | undefined;
  pingNonce: bigint | undefined;
  cancelPongTimeout: (() => void) | undefined;
  cancelPingTimer: (() => void) | undefined;
}

export function createPeer(options: PeerOptions): Peer {
  const { session, clock, timer, handlers, ownVersion } = options;
  const state: PeerState = {
    options,
    handshake: createVersionHandshake(),
    expected: { network: ownVersion.network, chainId: ownVersion.chainId, genesis: ownVersion.genesis, isOwnNonce: (nonce) => handlers.isOwnNonce(nonce) },
    cancelVersionTimeout: timer.setTimeout(() => peer.disconnect(new PeerTimeoutError('version/verack', p2pVersionTimeoutMs)), p2pVersionTimeoutMs),
    ready: false,
    closed: false,
    closeError: undefined,
    pingNonce: undefined,
    cancelPongTimeout: undefined,
    cancelPingTimer: undefined,
  };
  const peer: Peer = {
    seq: options.seq,
    nodeId: session.remoteStatic,
    nodeIdHex: toHex(session.remoteStatic),
    direction: options.direction,
    endpoint: options.endpoint,
    manual: options.manual,
    connectedAtMs: clock.nowMs(),
    version: () => state.handshake.remote,
    isReady: () => state.ready && !state.closed,
    isClosed: () => state.closed,
    best: { blueWork: 0n, blueScore: 0, tip: '' },
    known: createBoundedSet<string>(p2pKnownInventoryMax),
    anomalies: createTokenBucket(clock, p2pAnomaliesBurst, p2pAnomalyRefillMs),
    addrAllowance: createTokenBucket(clock, p2pAddrBurst, p2pAddrRefillMs),
    orphanAllowance: createTokenBucket(clock, p2pUnsolicitedOrphansBurst, p2pUnsolicitedOrphanRefillMs),
    answeredGetaddr: false,
    send: (message) => send(state, message),
    disconnect: (error) => disconnect(state, error),
    anomaly: (what) => anomaly(state, peer, what),
  };
  session.onClose((error) => onSessionClosed(state, peer, error));
  // Our version goes first, so the peer's verack (and thus readiness) can never arrive inside this call.
  send(state, ownVersion);
  session.onMessage((bytes) => {
    if (state.closed) return;
    try {
      handle(state, peer, decodeMessage(bytes));
    } catch (error) {
      if (!(error instanceof P2pProtocolError)) throw error;
      disconnect(state, error);
    }
  });
  return peer;
}

function send(state: PeerState, message: Message): void {
  const { session, sent } = state.options;
  if (state.closed || session.isClosed()) return;
  const encoded = encodeMessage(message);
  if (sent) tallySent(sent, message.type, encoded.length);
  session.send(encoded);
}

function disconnect(state: PeerState, error: P2pProtocolError | undefined): void {
  const { session } = state.options;
  if (state.closed) return;
  state.closeError ??= error;
  if (error && !session.isClosed()) {
    try {
      session.send(encodeMessage({ type: 'reject', code: error.code, banScore: Math.min(255, error.banScore), text: error.message }));
    } catch {
      // The courtesy message is best effort: the session may be closing under us.
    }
  }
  session.close();
}

function anomaly(state: PeerState, peer: Peer, what: string): boolean {
  if (peer.anomalies.take()) return true;
  state.options.handlers.onAnomalyDropped?.(peer, what);
  return false;
}

function onSessionClosed(state: PeerState, peer: Peer, error: P2pProtocolError | undefined): void {
  if (state.closed) return;
  state.closed = true;
  state.cancelVersionTimeout();
  state.cancelPingTimer?.();
  state.cancelPongTimeout?.();
  state.options.handlers.onClose(peer, state.closeError ?? error);
}

/** The handshake's messages and ping/pong are the peer's own; the rest go to the node once it is ready. */
function handle(state: PeerState, peer: Peer, message: Message): void {
  const step = stepHandshake(state.handshake, state.expected, message);
  if (step === 'version') {
    const version = state.handshake.remote!;
    peer.best = { blueWork: version.bestBlueWork, blueScore: version.bestBlueScore, tip: toHex(version.selectedTip) };
    peer.known.add(peer.best.tip);
    send(state, { type: 'verack' });
    return becomeReadyIfShaken(state, peer);
  }
  if (step === 'verack') return becomeReadyIfShaken(state, peer);
  switch (message.type) {
    case 'ping':
      return send(state, { type: 'pong', nonce: message.nonce });
    case 'pong':
      if (state.pingNonce === undefined || message.nonce !== state.pingNonce) {
        anomaly(state, peer, 'unexpected pong');
        return;
      }
      state.pingNonce = undefined;
      state.cancelPongTimeout?.();
      return schedulePing(state);
    case 'unknown':
      anomaly(state, peer, `unknown message type ${message.code}`);
      return;
    default:
      return state.options.handlers.onMessage(peer, message);
  }
}

function becomeReadyIfShaken(state: PeerState, peer: Peer): void {
  if (state.ready || !handshakeComplete(state.handshake)) return;
  state.ready = true;
  state.cancelVersionTimeout();
  schedulePing(state);
  state.options.handlers.onReady(peer);
}

/** The next ping after the interval; a pong that does not come within its timeout disconnects. */
function schedulePing(state: PeerState): void {
  const { timer, randomNonce } = state.options;
  state.cancelPingTimer = timer.setTimeout(() => {
    if (state.closed) return;
    state.pingNonce = randomNonce();
    send(state, { type: 'ping', nonce: state.pingNonce });
    state.cancelPongTimeout = timer.setTimeout(() => disconnect(state, new PeerTimeoutError('pong', p2pPongTimeoutMs)), p2pPongTimeoutMs);
  }, p2pPingIntervalMs);
}
