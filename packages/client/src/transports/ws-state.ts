/**
 * The WebSocket transport's state, in one place: the socket, the calls waiting for answers, the subscriptions, the
 * connection gate. The operations (ws-calls.ts, ws-connection.ts, ws-subscriptions.ts) are free functions over it.
 */
import type { ConnectionState } from '../transport.ts';

/** Reconnect delay after the socket closed, doubling up to the max. */
export const reconnectDelayMinMs = 500;
export const reconnectDelayMaxMs = 10_000;
/** Calls that get no answer within this time fail (a node that went away without closing the socket). */
export const rpcCallTimeoutMs = 30_000;

/** The WebSocket constructor the transport uses: the global one in browsers and Node 22+, `ws` in Node 20. */
export type WebSocketConstructor = new (url: string) => WebSocket;

interface PendingCall {
  readonly method: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
  cancel(): void;
}

export interface WsSubscription {
  readonly topic: string;
  readonly extra: Record<string, unknown>;
  readonly onEvent: (event: unknown) => void;
  readonly onEnd: (() => void) | undefined;
  /** The id the node knows it by on the current socket (-1: not subscribed on it yet). */
  serverId: number;
}

/**
 * One gate for every caller waiting for a connection. It is replaced only once it has opened and the socket closed
 * again, never while callers wait on it: replacing it on each retry left those callers on a promise of a socket that
 * never opened, so a page opened while its node was down never recovered (issue 21).
 */
export interface OpenGate {
  opened: Promise<void>;
  markOpen: () => void;
  isOpen: boolean;
}

export interface WsState {
  readonly url: string;
  readonly WebSocket: WebSocketConstructor;
  socket: WebSocket | undefined;
  current: ConnectionState;
  closedByUser: boolean;
  delayMs: number;
  nextId: number;
  readonly pending: Map<number, PendingCall>;
  readonly subs: Set<WsSubscription>;
  readonly byServerId: Map<number, WsSubscription>;
  readonly listeners: Set<(state: ConnectionState) => void>;
  gate: OpenGate;
}

export function newGate(): OpenGate {
  const gate: OpenGate = { opened: Promise.resolve(), markOpen: () => undefined, isOpen: false };
  gate.opened = new Promise<void>((resolve) => (gate.markOpen = resolve));
  return gate;
}

export function createWsState(url: string, WebSocketImpl: WebSocketConstructor): WsState {
  return {
    url,
    WebSocket: WebSocketImpl,
    socket: undefined,
    current: 'connecting',
    closedByUser: false,
    delayMs: reconnectDelayMinMs,
    nextId: 1,
    pending: new Map(),
    subs: new Set(),
    byServerId: new Map(),
    listeners: new Set(),
    gate: newGate(),
  };
}

export function setConnectionState(state: WsState, next: ConnectionState): void {
  state.current = next;
  for (const listener of state.listeners) listener(next);
}

export function onConnectionState(state: WsState, listener: (state: ConnectionState) => void): () => void {
  state.listeners.add(listener);
  listener(state.current);
  return () => state.listeners.delete(listener);
}
