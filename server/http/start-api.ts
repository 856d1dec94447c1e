/**
 * Starts the node's client-facing servers over one dispatcher and one subscription hub (docs/design.md "Node APIs and access"): HTTP on
 * rpcPort, HTTPS (TLS 1.3) on httpsPort when a certificate is configured, the WebSocket server on wsPort, and gRPC
 * with mutual TLS on grpcPort when a client CA is configured too. close() stops them in reverse order.
 */
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type RequestListener } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { serve, type ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import type { Miner } from '../../src/mining/miner.ts';
import { createDispatcher, type Dispatcher } from '../../src/rpc/dispatcher.ts';
import type { RpcServices } from '../../src/rpc/ports.ts';
import { createSubscriptionHub, type SubscriptionHub } from '../../src/rpc/subscription-hub.ts';
import type { NodeConfig } from '../config.ts';
import { startGrpcServer, type GrpcServerHandle } from '../grpc/grpc-server.ts';
import type { Logger } from '../logger.ts';
import { createNodeMetrics, type NodeMetrics } from '../metrics.ts';
import { httpsServerOptions, loadTlsMaterial } from '../tls.ts';
import { startWsRpcServer, type WsRpcServer } from '../ws/ws-server.ts';
import { createHttpApp } from './app.ts';
import { createRpcListener, rpcPathOf, type RpcListener } from './rpc-listener.ts';
import type { AccessControl } from '../auth/access-control.ts';
import { grpcAuthorizer } from '../auth/grpc-authorize.ts';

export const nodeVersion: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export interface ApiServersOptions {
  readonly services: RpcServices;
  readonly config: NodeConfig;
  readonly logger: Logger;
  /** Loop counters for /health. */
  readonly miner?: Miner;
  /** Access control for HTTP and WebSocket (server/auth/access-control.ts, docs/auth.md). */
  readonly access?: AccessControl;
  /**
   * Mounts more routes (OAuth, alerts, A2A, the web app) once the ports are known and before the first request is
   * routed: Hono builds its router on the first match, so routes added later would throw.
   */
  readonly mount?: (app: Hono, servers: MountedServers) => void | Promise<void>;
}

export interface MountedServers {
  readonly httpPort: number;
  readonly httpServer: ServerType;
  readonly grpc: GrpcServerHandle | undefined;
}

export interface ApiServers {
  readonly dispatcher: Dispatcher;
  readonly hub: SubscriptionHub;
  readonly metrics: NodeMetrics;
  /** Mount more routes here (A2A, OAuth, the web app). */
  readonly app: Hono;
  readonly httpPort: number;
  readonly httpsPort: number | undefined;
  readonly wsPort: number;
  readonly grpcPort: number | undefined;
  /** Register `/p2p` (or any path) upgrade handlers on the WebSocket port. */
  readonly ws: WsRpcServer;
  close(): Promise<void>;
}

/**
 * An HTTP(S) server on host:port: JSON-RPC POSTs go to `rpc` (server/http/rpc-listener.ts), everything else to the
 * Hono app through @hono/node-server.
 */
/** How long an idle keep-alive connection stays open (nginx's default is 75 s, AWS load balancers' 60 s). */
export const httpKeepAliveIdleMs = 65_000;

export function listenHttp(app: Pick<Hono, 'fetch'>, rpc: RpcListener, port: number, host: string, tls?: ReturnType<typeof httpsServerOptions>): Promise<{ server: ServerType; port: number }> {
  const createServer = (serverOptions: object, hono: RequestListener): ReturnType<typeof createHttpServer> => {
    const listener: RequestListener = (req, res) => {
      if (!rpc(req, res)) hono(req, res);
    };
    const server = tls ? createHttpsServer(serverOptions, listener) : createHttpServer(serverOptions, listener);
    // Node closes an idle keep-alive socket after 5 s, which a client may be reusing at that very moment (a POST
    // then fails with ECONNRESET, and is not retried). Idle sockets cost little: keep them as proxies do.
    server.keepAliveTimeout = httpKeepAliveIdleMs;
    server.headersTimeout = httpKeepAliveIdleMs + 1_000;
    return server;
  };
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port, hostname: host, createServer: createServer as never, ...(tls ? { serverOptions: tls } : {}) }, (info) =>
      resolve({ server, port: info.port }),
    );
  });
}

const closeServer = (server: ServerType): Promise<void> =>
  new Promise((resolve) => {
    server.close(() => resolve());
    // Keep-alive clients (load generators) would hold close() open; cut them once the listener is down.
    (server as { closeAllConnections?: () => void }).closeAllConnections?.();
  });

export async function startApiServers(options: ApiServersOptions): Promise<ApiServers> {
  const { services, config, logger } = options;
  const tls = loadTlsMaterial(config);
  const metrics = createNodeMetrics(services);
  const dispatcher = createDispatcher({
    services,
    version: nodeVersion,
    observe: metrics.observe,
    onInternalError: (method, error) => logger.error({ err: error, method }, 'rpc method failed unexpectedly'),
  });
  const hub = createSubscriptionHub(services);
  let wsPortNow = config.wsPort;
  const app = createHttpApp({ dispatcher, config, version: nodeVersion, metrics, miner: options.miner, access: options.access, wsPort: () => wsPortNow });
  // A request that arrives before every route is mounted waits for the mount (a few ms after the listening lines),
  // then goes to the finished app: a client that connects the moment the port is logged gets its answer, not a 503.
  let serving: Hono | undefined;
  let markMounted: () => void = () => undefined;
  const mounted = new Promise<void>((resolve) => {
    markMounted = resolve;
  });
  const front = {
    fetch: async (request: Request, env: unknown) => {
      if (serving === undefined) await mounted;
      return serving!.fetch(request, env);
    },
  };
  const rpcListener = createRpcListener({ dispatcher, access: options.access, onError: (error) => logger.error({ err: error }, 'json-rpc request failed unexpectedly') });
  const rpc: RpcListener = (req, res) => {
    if (serving !== undefined) return rpcListener(req, res);
    if (rpcPathOf(req) === undefined) return false; // the front waits for the mount
    void mounted.then(() => rpcListener(req, res));
    return true;
  };

  const http = await listenHttp(front, rpc, config.rpcPort, config.host);
  logger.info({ url: `http://${config.host}:${http.port}/`, port: http.port }, 'http listening');
  const https = tls ? await listenHttp(front, rpc, config.httpsPort, config.host, httpsServerOptions(tls)) : undefined;
  if (https) logger.info({ url: `https://${config.host}:${https.port}/`, port: https.port }, 'https listening');
  const ws = await startWsRpcServer({ dispatcher, hub, host: config.host, port: config.wsPort, logger, access: options.access });
  wsPortNow = ws.port;
  metrics.setWsSource(() => ({ connections: ws.connections(), subscriptions: hub.counts() }));
  logger.info({ url: `ws://${config.host}:${ws.port}/`, port: ws.port }, 'websocket listening');
  let grpc: GrpcServerHandle | undefined;
  if (tls?.clientCa) {
    const access = options.access;
    grpc = await startGrpcServer({
      dispatcher,
      hub,
      host: config.host,
      port: config.grpcPort,
      tls: { cert: tls.cert, key: tls.key, clientCa: tls.clientCa },
      logger,
      ...(access ? { authorize: grpcAuthorizer(access) } : {}),
    });
    logger.info({ port: grpc.port }, 'grpc listening (mutual TLS)');
  }

  await options.mount?.(app, { httpPort: http.port, httpServer: http.server, grpc });
  serving = app;
  markMounted();

  let closing: Promise<void> | undefined;
  return {
    dispatcher,
    hub,
    metrics,
    app,
    httpPort: http.port,
    httpsPort: https?.port,
    wsPort: ws.port,
    grpcPort: grpc?.port,
    ws,
    close() {
      closing ??= (async () => {
        await grpc?.close();
        await ws.close();
        hub.close();
        if (https) await closeServer(https.server);
        await closeServer(http.server);
      })();
      return closing;
    },
  };
}
