/**
 * What a client runs on: a transport answers one JSON-RPC request with the node's `result`, or rejects with the
 * class of the node's error code (errors.ts). HTTP (transports/http.ts) and WebSocket (transports/websocket.ts) are
 * both one; a WebSocket transport also carries subscriptions. Any object of this shape will do (a test double of
 * the network, a batching proxy), as with viem's custom transports.
 */
export interface Transport {
  request(method: string, params?: Record<string, unknown>): Promise<unknown>;
}

export type ConnectionState = 'connecting' | 'open' | 'closed';

/** Stops a subscription: forgets it here and tells the node, if the socket is open. */
export type Unsubscribe = () => Promise<void>;

export interface SubscribingTransport extends Transport {
  /**
   * Subscribes to a topic; `extra` carries e.g. `{ address }`. Resubscribes after a reconnect. Resolves, once the
   * node acknowledged it, with the function that unsubscribes; `onEnd` runs when the transport is closed for good.
   */
  subscribe<T = unknown>(topic: string, onEvent: (event: T) => void, extra?: Record<string, unknown>, onEnd?: () => void): Promise<Unsubscribe>;
  onState(listener: (state: ConnectionState) => void): () => void;
  state(): ConnectionState;
  close(): void;
}

export const canSubscribe = (transport: Transport): transport is SubscribingTransport =>
  typeof (transport as Partial<SubscribingTransport>).subscribe === 'function';

/** JSON-RPC reply or notification, as read off the wire before it is routed. */
export interface RpcReply {
  readonly id?: number | string | null;
  readonly result?: unknown;
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
  readonly method?: string;
  readonly params?: { readonly subscription: number; readonly result: unknown };
}
