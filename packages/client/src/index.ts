/**
 * @weft/client — a typed client of a Weft node (docs/api.md): JSON-RPC over HTTP or WebSocket, one action per
 * method typed from the node's method table, the node's error codes as classes, subscriptions as async iterators.
 * See packages/client/README.md.
 */
export * from './actions.ts';
export { createClient, type BoundActions, type Client } from './client.ts';
export * from './errors.ts';
export { readBoundedJson, rpcAnswerCharsMax } from './bounded-json.ts';
export type { MethodArgs, MethodName, MethodParameters, MethodReturnType, SubscribeOptions, SubscriptionTopic, TopicEvents } from './schema.ts';
export { subscribe, subscriptionBufferMax, SubscriptionOverflowError, type Subscription } from './subscription.ts';
export { canSubscribe, type ConnectionState, type SubscribingTransport, type Transport, type Unsubscribe } from './transport.ts';
export { http, type HttpTransportOptions } from './transports/http.ts';
export {
  reconnectDelayMaxMs,
  reconnectDelayMinMs,
  rpcCallTimeoutMs,
  webSocket,
  type WebSocketConstructor,
  type WebSocketTransport,
  type WebSocketTransportOptions,
} from './transports/websocket.ts';

/** Named types of a few methods, viem-style; any method's are MethodParameters<'…'> / MethodReturnType<'…'>. */
export type GetInfoReturnType = import('./schema.ts').MethodReturnType<'get_info'>;
export type GetBlockReturnType = import('./schema.ts').MethodReturnType<'get_block'>;
export type GetBalanceReturnType = import('./schema.ts').MethodReturnType<'get_balance'>;
export type GetEscrowReturnType = import('./schema.ts').MethodReturnType<'get_escrow'>;
export type GetAgentAccountReturnType = import('./schema.ts').MethodReturnType<'get_agent_account'>;
