/**
 * An HTTP(S) server on host:port: JSON-RPC POSTs go to `rpc` (server/http/rpc-listener.ts), everything else to the
 * Hono app through @hono/node-server; and how one is closed.
 */
import { createServer as createHttpServer, type RequestListener } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { serve, type ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import type { httpsServerOptions } from '../tls.ts';
import type { RpcListener } from './rpc-listener.ts';

/** How long an idle keep-alive connection stays open (nginx's default is 75 s, AWS load balancers' 60 s). */
const httpKeepAliveIdleMs = 65_000;

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

export const closeServer = (server: ServerType): Promise<void> =>
  new Promise((resolve) => {
    server.close(() => resolve());
    // Keep-alive clients (load generators) would hold close() open; cut them once the listener is down.
    (server as { closeAllConnections?: () => void }).closeAllConnections?.();
  });
