/**
 * The web app's link to its node (docs/api.md, docs/web.md "Node client"): where the node is (always the page's own
 * origin), and the node client the pages share — the transports of `@weft/client` (packages/client): JSON-RPC over
 * the WebSocket port (every method, plus subscriptions) and over HTTP (the only way to send credentials such as
 * `X-API-Key`, since a browser WebSocket cannot set headers), plus REST GETs. The wallet pages and the widget import
 * it: keep this API stable.
 *
 * Pages never call `request` with a method name themselves; they call the package's typed actions
 * (`getBalance(client, params)`, viem's shape), whose params and result types come from the node's method table.
 *
 * Numbers: the node prints u64 fields (a block's `nonce`) as exact JSON integers; `JSON.parse` rounds them. The
 * pages only display such fields, so plain JSON is used; headers are verified from their binary encodings instead.
 */
import {
  http,
  readBoundedJson,
  reconnectDelayMaxMs,
  reconnectDelayMinMs,
  RpcCallError,
  rpcCallError,
  webSocket,
  type ConnectionState,
  type SubscribingTransport,
  type Transport,
} from '../../packages/client/src/index.ts';

export {     type ConnectionState };
export { rpcAnswerCharsMax,  } from '../../packages/client/src/index.ts';

/** What the actions run on: one JSON-RPC request (either transport). */
export type RpcClient = Transport;
/** The WebSocket client: requests, plus subscriptions and the connection's state. */
export type NodeClient = SubscribingTransport;

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

/** A reconnecting JSON-RPC WebSocket client (packages/client/src/transports/websocket.ts). */
export function createNodeClient(wsUrl: string): NodeClient {
  return webSocket(wsUrl);
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
  return http(httpUrl, options);
}

/** A REST GET under `/api/v1` (docs/api.md "REST"); error bodies become RpcCallError. */
export async function restGet<T = unknown>(httpUrl: string, path: string): Promise<T> {
  const response = await fetch(`${httpUrl}/api/v1${path}`);
  const body = (await readBoundedJson(response, `GET ${path}`)) as { error?: { code: number; message: string; data?: unknown } };
  if (!response.ok || body.error) {
    const e = body.error ?? { code: -32603, message: `HTTP ${response.status}` };
    throw rpcCallError(`GET ${path}`, e.code, e.message, e.data);
  }
  return body as T;
}
