/**
 * The WebSocket server on port 8081: JSON-RPC 2.0 messages (every method, plus subscribe/unsubscribe through the
 * subscription hub) on any path no other handler claimed, and a registry of upgrade handlers by path so the p2p
 * bridge for browsers can serve `/p2p` on the same port (docs/design.md "Node APIs and access").
 *
 * Slow consumers never stall the node: before each send the socket's queued bytes (ws `bufferedAmount`) are checked
 * against wsSendBufferBytesMax, and a socket over it is closed (1008, "slow consumer") and its subscriptions dropped.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { rpcRequestBytesMax, wsConnectionsMax, wsSendBufferBytesMax } from '../../src/limits.ts';
import type { Dispatcher } from '../../src/rpc/dispatcher.ts';
import { stringifyJson } from '../../src/rpc/json.ts';
import type { SubscriptionHub } from '../../src/rpc/subscription-hub.ts';
import type { Logger } from '../logger.ts';
import type { AccessControl } from '../auth/access-control.ts';
import { authenticateUpgrade, createWsGuard, type WsGuard } from '../auth/ws-guard.ts';

type UpgradeHandler = (request: IncomingMessage, socket: Duplex, head: Buffer) => void;

export interface WsRpcServer {
  readonly server: Server;
  readonly port: number;
  /** Claims upgrades whose URL path is exactly `path` (e.g. '/p2p'); returns a function that releases it. */
  registerUpgradeHandler(path: string, handler: UpgradeHandler): () => void;
  connections(): number;
  close(): Promise<void>;
}

export interface WsRpcServerOptions {
  readonly dispatcher: Dispatcher;
  readonly hub: SubscriptionHub;
  readonly host: string;
  readonly port: number;
  readonly logger: Logger;
  /** Defaults to wsSendBufferBytesMax; tests lower it. */
  readonly sendBufferBytesMax?: number;
  /** Credentials at the upgrade, per-message rate limits and scopes (server/auth/ws-guard.ts). */
  readonly access?: Pick<AccessControl, 'authOptions' | 'limiter'>;
}

/** Close code for a consumer that cannot keep up (RFC 6455 §7.4.1: policy violation). */
const slowConsumerCloseCode = 1008;

export async function startWsRpcServer(options: WsRpcServerOptions): Promise<WsRpcServer> {
  const { dispatcher, hub, logger } = options;
  const bufferMax = options.sendBufferBytesMax ?? wsSendBufferBytesMax;
  const server = createServer((_req, res) => {
    res.writeHead(426, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'this port speaks WebSocket (JSON-RPC 2.0)' }));
  });
  const wss = new WebSocketServer({ noServer: true, maxPayload: rpcRequestBytesMax, perMessageDeflate: false });
  const handlers = new Map<string, UpgradeHandler>();

  server.on('upgrade', (request, socket, head) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const claimed = handlers.get(path);
    if (claimed) return claimed(request, socket, head);
    if (wss.clients.size >= wsConnectionsMax) {
      socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\r\n');
      return;
    }
    const access = options.access;
    if (access === undefined) return wss.handleUpgrade(request, socket, head, (ws) => serveConnection(ws, undefined));
    void authenticateUpgrade(request, access.authOptions).then((auth) => {
      if ('response' in auth) return void socket.end(auth.response);
      wss.handleUpgrade(request, socket, head, (ws) => serveConnection(ws, createWsGuard({ identity: auth.identity, limiter: access.limiter, methods: dispatcher.methods })));
    });
  });

  const serveConnection = (ws: WebSocket, guard: WsGuard | undefined): void => {
    let open = true;
    const send = (text: string): void => {
      if (!open) return;
      if (ws.bufferedAmount > bufferMax) {
        open = false;
        connection.close();
        logger.warn({ buffered: ws.bufferedAmount, limit: bufferMax }, 'websocket closed: slow consumer');
        ws.close(slowConsumerCloseCode, `slow consumer: more than ${bufferMax} bytes queued`);
        // A consumer that stopped reading may never complete the closing handshake.
        setTimeout(() => ws.terminate(), 1_000).unref();
        return;
      }
      ws.send(text);
    };
    const connection = hub.connect(send);
    ws.on('message', (data, isBinary) => {
      const text = isBinary ? Buffer.from(data as Buffer).toString('utf8') : data.toString();
      const ctx = { transport: 'ws' as const, subscriptions: connection };
      const failed = (error: unknown) => logger.error({ err: error }, 'websocket message failed');
      if (guard === undefined) return void dispatcher.handleText(text, ctx).then((answer) => answer !== undefined && send(answer), failed);
      const verdict = guard.check(text);
      if (verdict.action === 'close') return ws.close(verdict.code, verdict.reason);
      if (verdict.action === 'reply') return send(verdict.text);
      void dispatcher.run(verdict.request, { ...ctx, identity: guard.identity }).then(
        ({ answer }) => answer !== undefined && send(stringifyJson(answer)),
        failed,
      );
    });
    ws.on('close', () => {
      open = false;
      connection.close();
    });
    ws.on('error', (error) => logger.debug({ err: error }, 'websocket error'));
  };

  await new Promise<void>((resolve) => server.listen(options.port, options.host, resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    server,
    port,
    registerUpgradeHandler(path, handler) {
      handlers.set(path, handler);
      return () => {
        if (handlers.get(path) === handler) handlers.delete(path);
      };
    },
    connections: () => wss.clients.size,
    async close() {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
