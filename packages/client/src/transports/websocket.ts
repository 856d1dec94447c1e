/**
 * JSON-RPC 2.0 over the node's WebSocket port: every method, plus subscriptions. Reconnects with back-off (0.5 s
 * doubling to 10 s) and resubscribes; calls time out after 30 s; answers over rpcAnswerCharsMax are refused unparsed
 * (the calls on that socket fail and it reconnects). The state lives in ws-state.ts, the operations beside it.
 */
import type { SubscribingTransport } from '../transport.ts';
import { requestCall } from './ws-calls.ts';
import { closeConnection, connect } from './ws-connection.ts';
import { createWsState, onConnectionState, type WebSocketConstructor } from './ws-state.ts';
import { addSubscription } from './ws-subscriptions.ts';

export { reconnectDelayMaxMs, reconnectDelayMinMs, rpcCallTimeoutMs, type WebSocketConstructor } from './ws-state.ts';

export interface WebSocketTransportOptions {
  /** Defaults to the global WebSocket (browsers, Node 22+); in Node 20 pass `ws`'s. */
  readonly WebSocket?: WebSocketConstructor;
}

export type WebSocketTransport = SubscribingTransport;

/** `url`: the node's WebSocket address, e.g. ws://127.0.0.1:8081/. Connects at once. */
export function webSocket(url: string, options: WebSocketTransportOptions = {}): WebSocketTransport {
  const state = createWsState(url, options.WebSocket ?? globalThis.WebSocket);
  connect(state);
  return {
    request: (method, params) => requestCall(state, method, params),
    subscribe: (topic, onEvent, extra, onEnd) => addSubscription(state, topic, onEvent as (event: unknown) => void, extra, onEnd),
    onState: (listener) => onConnectionState(state, listener),
    state: () => state.current,
    close: () => closeConnection(state),
  };
}
