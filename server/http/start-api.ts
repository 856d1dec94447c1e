/**
 * Starts the node's client-facing servers over one dispatcher and one subscription hub (docs/design.md "Node APIs and access"): HTTP on
 * rpcPort, HTTPS (TLS 1.3) on httpsPort when a certificate is configured, the WebSocket server on wsPort, and gRPC
 * with mutual TLS on grpcPort when a client CA is configured too. close() stops them in reverse order.
 *
 * The listeners are opened by listen-api.ts; requests that arrive before the routes are mounted wait at the gate
 * (mount-gate.ts); an HTTP server is listen-http.ts's.
 */
import { readFileSync } from 'node:fs';
import type { ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import type { Miner } from '../../src/mining/miner.ts';
import { createDispatcher, type Dispatcher } from '../../src/rpc/dispatcher.ts';
import type { RpcServices } from '../../src/rpc/ports.ts';
import { createSubscriptionHub, type SubscriptionHub } from '../../src/rpc/subscription-hub.ts';
import type { AccessControl } from '../auth/access-control.ts';
import type { NodeConfig } from '../config.ts';
import type { GrpcServerHandle } from '../grpc/grpc-server.ts';
import type { Logger } from '../logger.ts';
import { createNodeMetrics, type NodeMetrics } from '../metrics.ts';
import { loadTlsMaterial } from '../tls.ts';
import type { WsRpcServer } from '../ws/ws-server.ts';
import { createHttpApp } from './app.ts';
import { listenApiServers, type ApiListeners } from './listen-api.ts';
import { closeServer } from './listen-http.ts';
import { createMountGate, gatedFront, gatedRpc, openGate } from './mount-gate.ts';
import { createRpcListener } from './rpc-listener.ts';

export {  listenHttp } from './listen-http.ts';

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
  const gate = createMountGate();
  const rpcListener = createRpcListener({ dispatcher, access: options.access, onError: (error) => logger.error({ err: error }, 'json-rpc request failed unexpectedly') });
  const listeners = await listenApiServers({
    config, logger, tls, front: gatedFront(gate), rpc: gatedRpc(gate, rpcListener), dispatcher, hub, metrics, access: options.access,
    onWsPort: (port) => void (wsPortNow = port),
  });
  await options.mount?.(app, { httpPort: listeners.http.port, httpServer: listeners.http.server, grpc: listeners.grpc });
  openGate(gate, app);
  return apiServersOf({ dispatcher, hub, metrics, app }, listeners);
}

/** The handle: the servers' ports and a close() that stops them in reverse order, once. */
function apiServersOf(core: Pick<ApiServers, 'dispatcher' | 'hub' | 'metrics' | 'app'>, listeners: ApiListeners): ApiServers {
  const { http, https, ws, grpc } = listeners;
  let closing: Promise<void> | undefined;
  return {
    ...core,
    httpPort: http.port,
    httpsPort: https?.port,
    wsPort: ws.port,
    grpcPort: grpc?.port,
    ws,
    close() {
      closing ??= (async () => {
        await grpc?.close();
        await ws.close();
        core.hub.close();
        if (https) await closeServer(https.server);
        await closeServer(http.server);
      })();
      return closing;
    },
  };
}
