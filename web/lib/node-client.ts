/**
 * The web app's client of a Weft node (docs/api.md): JSON-RPC 2.0 over the WebSocket port (every method, plus
 * `subscribe`/`unsubscribe`), JSON-RPC over HTTP (the only way to send credentials such as `X-API-Key`, since a
 * browser WebSocket cannot set headers), and REST GETs. The wallet pages and the widget import it: keep this API
 * stable (docs/web.md "Node client").
 *
 * Both transports are an `RpcClient`: one untyped `request(method, params)`. Pages never call it with a method name
 * themselves; they call the typed actions of web/lib/actions/ (viem's shape: `getBalance(client, params)`), whose
 * params and result types come from the method's zod schemas in src/rpc/methods/ (docs/api.md "Typed results").
 *
 * Numbers: the node prints u64 fields (a block's `nonce`) as exact JSON integers; `JSON.parse` rounds them. The
 * pages only display such fields, so plain JSON is used; headers are verified from their binary encodings instead.
 */
import { kindOfRpcCode, WeftError } from '../../src/errors.ts';
import { wsSendBufferBytesMax } from '../../src/limits.ts';

/** Calls that get no answer within this time fail (a node that went away without closing the socket). */
export const rpcCallTimeoutMs = 30_000;
/**
 * The longest answer (one WebSocket message, one HTTP body) the client reads, in characters of its text: the node
 * never queues more than wsSendBufferBytesMax for one socket, so an honest answer fits; a longer one is a node (or
 * a man in the middle) trying to make the tab parse and hold without bound. The socket is closed, every call on it
 * fails, and the client reconnects.
 */
export const rpcAnswerCharsMax = wsSendBufferBytesMax;
/** Reconnect delay after the socket closed, doubling up to the max. */
export const reconnectDelayMinMs = 500;
export const reconnectDelayMaxMs = 10_000;

/** A JSON-RPC error object from the node, kept whole: `code`, `message`, `data`. */
export class RpcCallError extends WeftError {
  readonly data: unknown;
  readonly method: string;
  constructor(method: string, code: number, message: string, data: unknown) {
    super(kindOfRpcCode(code), `${method}: ${message}`, { details: data });
    this.data = data;
    this.method = method;
  }
}

export interface NodeUrls {
  /** The page's own origin, e.g. http://127.0.0.1:8080 (no trailing slash): the only node a page talks to. */
  readonly httpUrl: string;
  /** e.g. ws://127.0.0.1:8081/ — the same host, the WebSocket port the origin's /web-config.json names */
  readonly wsUrl: string;
  /** e.g. ws://127.0.0.1:8081/p2p — the browser p2p bridge on that WebSocket port */
  readonly p2pUrl: string;
  /** What the page shows as "connected to …": the origin's host and port, e.g. 127.0.0.1:8080. */
  readonly host: string;
  /** The network the origin serves (its /web-config.json), e.g. regtest; undefined when the origin did not say. */
  readonly network: string | undefined;
}

interface WebConfig {
  readonly ws_port?: unknown;
  readonly network?: unknown;
}

const isPort = (value: unknown): value is number => Number.isInteger(value) && (value as number) > 0 && (value as number) < 65_536;

/**
 * Where the node is: always the origin that served the page (docs/web.md "Threat model"). The WebSocket port and the
 * network come from that origin's `/web-config.json` (port 8081 when the origin does not serve one), the p2p bridge
 * is that port's `/p2p`. Nothing in the page's URL can point it elsewhere: a `?node=`, `?ws=` or `?p2p=` from a link
 * or an embedding page is ignored, so neither can make the wallet or the widget, with this origin's keys, talk to
 * another host.
 */
export async function discoverNodeUrls(
  location: { origin: string },
  options: { onUnreachable?: (retryInMs: number) => void } = {},
): Promise<NodeUrls> {
  const httpUrl = location.origin.replace(/\/+$/, '');
  let config: WebConfig = {};
  // A node that does not answer at all is retried with back-off: guessing the default port would leave a page
  // opened while its node was down pointed at the wrong port for good (issue 21).
  for (let delayMs = reconnectDelayMinMs; ; delayMs = Math.min(delayMs * 2, reconnectDelayMaxMs)) {
    let response: Response;
    try {
      response = await fetch(`${httpUrl}/web-config.json`);
    } catch {
      options.onUnreachable?.(delayMs);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      continue;
    }
    try {
      config = (await readBoundedJson(response, 'GET /web-config.json')) as WebConfig;
    } catch {
      // A node without the web app mounted: fall back to the default port.
    }
    break;
  }
  const origin = new URL(httpUrl);
  const scheme = origin.protocol === 'https:' ? 'wss' : 'ws';
  const base = `${scheme}://${origin.hostname}:${isPort(config.ws_port) ? config.ws_port : 8081}`;
  const network = typeof config.network === 'string' ? config.network : undefined;
  return { httpUrl, wsUrl: `${base}/`, p2pUrl: `${base}/p2p`, host: origin.host, network };
}

export type ConnectionState = 'connecting' | 'open' | 'closed';

/**
 * What the actions of web/lib/actions/ run on: one JSON-RPC request, answered with the node's `result` (untyped here:
 * the action gives it its method's type) or rejected with RpcCallError for an error object.
 */
export interface RpcClient {
  request(method: string, params?: Record<string, unknown>): Promise<unknown>;
}

/** The WebSocket client: requests, plus subscriptions and the connection's state. */
export interface NodeClient extends RpcClient {
  /**
   * Subscribes to a topic (docs/api.md "WebSocket"); `extra` carries e.g. `{address}` for address_transactions.
   * Resubscribes after a reconnect. Resolves with the function that unsubscribes.
   */
  subscribe<T = unknown>(topic: string, onEvent: (event: T) => void, extra?: Record<string, unknown>): Promise<() => Promise<void>>;
  onState(listener: (state: ConnectionState) => void): () => void;
  state(): ConnectionState;
  close(): void;
}

interface Pending {
  readonly method: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
  cancel(): void;
}

interface Subscription {
  readonly topic: string;
  readonly extra: Record<string, unknown>;
  readonly onEvent: (event: unknown) => void;
  /** The id the node knows it by on the current socket. */
  serverId: number;
}

interface RpcReply {
  readonly id?: number | string | null;
  readonly result?: unknown;
  readonly error?: { code: number; message: string; data?: unknown };
  readonly method?: string;
  readonly params?: { subscription: number; result: unknown };
}

/** A reconnecting JSON-RPC WebSocket client. */
export function createNodeClient(wsUrl: string): NodeClient {
  let socket: WebSocket | undefined;
  let current: ConnectionState = 'connecting';
  let closedByUser = false;
  let delayMs = reconnectDelayMinMs;
  let nextId = 1;
  const pending = new Map<number, Pending>();
  const subs = new Set<Subscription>();
  const byServerId = new Map<number, Subscription>();
  const listeners = new Set<(state: ConnectionState) => void>();
  // One gate for every caller waiting for a connection. It is replaced only once it has opened and the socket
  // closed again, never while callers wait on it: replacing it on each retry left those callers on a promise of a
  // socket that never opened, so a page opened while its node was down never recovered (issue 21).
  let markOpen: () => void = () => undefined;
  let opened = new Promise<void>((resolve) => (markOpen = resolve));
  let gateOpen = false;

  const setState = (next: ConnectionState): void => {
    current = next;
    for (const l of listeners) l(next);
  };

  const send = (method: string, params: Record<string, unknown>, id: number): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new RpcCallError(method, -32603, `no answer within ${rpcCallTimeoutMs} ms`, null));
      }, rpcCallTimeoutMs);
      pending.set(id, { method, resolve, reject, cancel: () => clearTimeout(timer) });
      socket!.send(JSON.stringify({ jsonrpc: '2.0', method, params, id }));
    });

  const resubscribe = async (sub: Subscription): Promise<void> => {
    const id = nextId++;
    sub.serverId = id;
    byServerId.set(id, sub);
    await send('subscribe', { topic: sub.topic, ...sub.extra }, id);
  };

  /** Fails the waiting calls with `why` and closes the socket (4000: an application's own close code). */
  const refuseSocket = (ws: WebSocket, why: string): void => {
    for (const [id, waiter] of pending) {
      waiter.cancel();
      waiter.reject(new RpcCallError(waiter.method, -32700, `refused the node's ${why}`, null));
      pending.delete(id);
    }
    ws.close(4000, 'answer refused');
  };

  const onMessage = (ws: WebSocket, data: unknown): void => {
    if (typeof data !== 'string' || data.length > rpcAnswerCharsMax) {
      // Refused before parsing: every call waiting on this socket fails with why, and the socket is dropped.
      return refuseSocket(ws, typeof data === 'string' ? `answer of ${data.length} characters is over the limit of ${rpcAnswerCharsMax}` : 'binary answer');
    }
    let reply: RpcReply;
    try {
      reply = JSON.parse(data) as RpcReply;
    } catch {
      return refuseSocket(ws, 'answer is not JSON');
    }
    if (typeof reply !== 'object' || reply === null) return;
    if (reply.method === 'subscription' && reply.params) {
      byServerId.get(reply.params.subscription)?.onEvent(reply.params.result);
      return;
    }
    if (typeof reply.id !== 'number') return;
    const waiter = pending.get(reply.id);
    if (!waiter) return;
    pending.delete(reply.id);
    waiter.cancel();
    if (reply.error) waiter.reject(new RpcCallError(waiter.method, reply.error.code, reply.error.message, reply.error.data));
    else waiter.resolve(reply.result);
  };

  const connect = (): void => {
    setState('connecting');
    const ws = new WebSocket(wsUrl);
    socket = ws;
    ws.onopen = () => {
      delayMs = reconnectDelayMinMs;
      gateOpen = true;
      setState('open');
      markOpen();
      byServerId.clear();
      for (const sub of subs) void resubscribe(sub).catch(() => undefined);
    };
    ws.onmessage = (event: MessageEvent<unknown>) => onMessage(ws, event.data);
    ws.onclose = () => {
      if (gateOpen) {
        gateOpen = false;
        opened = new Promise<void>((resolve) => (markOpen = resolve));
      }
      for (const [id, waiter] of pending) {
        waiter.cancel();
        waiter.reject(new RpcCallError(waiter.method, -32603, 'connection closed', null));
        pending.delete(id);
      }
      setState('closed');
      if (closedByUser) return;
      setTimeout(connect, delayMs);
      delayMs = Math.min(delayMs * 2, reconnectDelayMaxMs);
    };
  };
  connect();

  return {
    async request(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
      await opened;
      return send(method, params, nextId++);
    },
    async subscribe<T>(topic: string, onEvent: (event: T) => void, extra: Record<string, unknown> = {}) {
      const sub: Subscription = { topic, extra, onEvent: onEvent as (e: unknown) => void, serverId: -1 };
      subs.add(sub);
      await opened;
      if (sub.serverId === -1) await resubscribe(sub);
      return async () => {
        subs.delete(sub);
        byServerId.delete(sub.serverId);
        if (current === 'open') await send('unsubscribe', { subscription: sub.serverId }, nextId++);
      };
    },
    onState(listener) {
      listeners.add(listener);
      listener(current);
      return () => listeners.delete(listener);
    },
    state: () => current,
    close() {
      closedByUser = true;
      socket?.close();
    },
  };
}

/**
 * Runs `work` until it gets an answer while the connection drops: a call cut off by a closing socket ("connection
 * closed") waits for the client's next open and is made again. For reads only — a page's first load after the node
 * comes back; a call the node refused is thrown as it is.
 */
export async function retryWhileDisconnected<T>(client: NodeClient, work: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof RpcCallError) || !/connection closed/.test(error.message)) throw error;
      await new Promise<void>((resolve) => {
        const stop = client.onState((state) => {
          if (state !== 'open') return;
          queueMicrotask(() => stop());
          resolve();
        });
      });
    }
  }
}

/**
 * JSON-RPC over HTTP (`POST /api/v1/rpc`), with an API key for methods that need a scope: an RpcClient for the
 * actions, e.g. `submitBlock(createHttpClient(httpUrl, { apiKey }), { block })`.
 */
export function createHttpClient(httpUrl: string, options: { apiKey?: string } = {}): RpcClient {
  return {
    async request(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (options.apiKey) headers['x-api-key'] = options.apiKey;
      const response = await fetch(`${httpUrl}/api/v1/rpc`, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method, params, id: 1 }) });
      const reply = (await readBoundedJson(response, method)) as RpcReply;
      if (reply.error) throw new RpcCallError(method, reply.error.code, reply.error.message, reply.error.data);
      return reply.result;
    },
  };
}

/** A REST GET under `/api/v1` (docs/api.md "REST"); error bodies become RpcCallError. */
export async function restGet<T = unknown>(httpUrl: string, path: string): Promise<T> {
  const response = await fetch(`${httpUrl}/api/v1${path}`);
  const body = (await readBoundedJson(response, `GET ${path}`)) as { error?: { code: number; message: string; data?: unknown } };
  if (!response.ok || body.error) {
    const e = body.error ?? { code: -32603, message: `HTTP ${response.status}` };
    throw new RpcCallError(`GET ${path}`, e.code, e.message, e.data);
  }
  return body as T;
}

/** An HTTP answer's JSON, read up to rpcAnswerCharsMax characters; a longer body is cancelled and refused. */
export async function readBoundedJson(response: Response, method: string): Promise<unknown> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  const tooLong = () => new RpcCallError(method, -32700, `refused the node's answer: over the limit of ${rpcAnswerCharsMax} characters`, null);
  if (declared > rpcAnswerCharsMax) {
    await response.body?.cancel();
    throw tooLong();
  }
  if (response.body === null) return JSON.parse(await response.text());
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    if (text.length > rpcAnswerCharsMax) {
      await reader.cancel();
      throw tooLong();
    }
  }
  text += decoder.decode();
  try {
    return JSON.parse(text);
  } catch {
    throw new RpcCallError(method, -32700, `refused the node's answer: not JSON (HTTP ${response.status})`, null);
  }
}
