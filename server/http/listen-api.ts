/**
 * The API's listeners (server/http/start-api.ts): HTTP on rpcPort, HTTPS (TLS 1.3) on httpsPort when a certificate
 * is configured, the WebSocket server on wsPort, and gRPC with mutual TLS on grpcPort when a client CA is configured
 * too; each logs where it listens.
 */
import type { ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import type { Dispatcher } from '../../src/rpc/dispatcher.ts';
import type { SubscriptionHub } from '../../src/rpc/subscription-hub.ts';
import type { AccessControl } from '../auth/access-control.ts';
import { grpcAuthorizer } from '../auth/grpc-authorize.ts';
import type { NodeConfig } from '../config.ts';
import { startGrpcServer, type GrpcServerHandle } from '../grpc/grpc-server.ts';
import type { Logger } from '../logger.ts';
import type { NodeMetrics } from '../metrics.ts';
import { httpsServerOptions, type loadTlsMaterial } from '../tls.ts';
import { startWsRpcServer, type WsRpcServer } from '../ws/ws-server.ts';
import { listenHttp } from './listen-http.ts';
import type { RpcListener } from './rpc-listener.ts';

export interface ApiListenOptions {
  readonly config: NodeConfig;
  readonly logger: Logger;
  readonly tls: ReturnType<typeof loadTlsMaterial>;
  readonly front: Pick<Hono, 'fetch'>;
  readonly rpc: RpcListener;
  readonly dispatcher: Dispatcher;
  readonly hub: SubscriptionHub;
  readonly metrics: NodeMetrics;
  readonly access: AccessControl | undefined;
  /** Told the WebSocket port once it is bound (the app's /health names it). */
  readonly onWsPort: (port: number) => void;
}

/** The listening servers of the API. */
export interface ApiListeners {
  readonly http: { readonly server: ServerType; readonly port: number };
  readonly https: { readonly server: ServerType; readonly port: number } | undefined;
  readonly ws: WsRpcServer;
  readonly grpc: GrpcServerHandle | undefined;
}

export async function listenApiServers(options: ApiListenOptions): Promise<ApiListeners> {
  const { config, logger, tls, front, rpc, dispatcher, hub, access } = options;
  const http = await listenHttp(front, rpc, config.rpcPort, config.host);
  logger.info({ url: `http://${config.host}:${http.port}/`, port: http.port }, 'http listening');
  const https = tls ? await listenHttp(front, rpc, config.httpsPort, config.host, httpsServerOptions(tls)) : undefined;
  if (https) logger.info({ url: `https://${config.host}:${https.port}/`, port: https.port }, 'https listening');
  const ws = await startWsRpcServer({ dispatcher, hub, host: config.host, port: config.wsPort, logger, access });
  options.onWsPort(ws.port);
  options.metrics.setWsSource(() => ({ connections: ws.connections(), subscriptions: hub.counts() }));
  logger.info({ url: `ws://${config.host}:${ws.port}/`, port: ws.port }, 'websocket listening');
  let grpc: GrpcServerHandle | undefined;
  if (tls?.clientCa) {
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
  return { http, https, ws, grpc };
}
