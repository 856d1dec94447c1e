// A real HTTP server on 127.0.0.1:0 with the node's access control in front of the real JSON-RPC listener and
// dispatcher (regtest chain in a memory store), over an in-memory auth store and a clock the test moves by hand.
import type { ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { createAccessControl, type AccessControl } from '../../server/auth/access-control.ts';
import { requireScope } from '../../server/auth/require-scope.ts';
import { createRpcListener } from '../../server/http/rpc-listener.ts';
import { listenHttp } from '../../server/http/start-api.ts';
import { openChain } from '../../src/chain/chain.ts';
import { regtestParams } from '../../src/consensus/params.ts';
import { createDispatcher, type Dispatcher } from '../../src/rpc/dispatcher.ts';
import { createMemoryStore } from '../../src/storage/memory-store.ts';
import { createManualClock, systemClock } from '../../src/util/clock.ts';

export interface AuthApp {
  readonly app: Hono;
  readonly access: AccessControl;
  readonly clock: ReturnType<typeof createManualClock>;
  readonly dispatcher: Dispatcher;
  readonly base: string;
  /** A request over the socket (JSON-RPC is served before Hono, so app.request() does not reach it). */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** POST a JSON-RPC call to /api/v1/rpc with extra headers. */
  rpc(method: string, params?: unknown, headers?: Record<string, string>, id?: unknown): Promise<Response>;
  close(): Promise<void>;
}

export const explorerPath = '/api/v1/stats';

export async function startAuthApp(options: { timeoutMs?: number; extra?: (app: Hono) => void } = {}): Promise<AuthApp> {
  const clock = createManualClock(Date.UTC(2030, 0, 1));
  const access = createAccessControl({ kv: createMemoryStore(), clock, explorerPaths: [explorerPath], ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) });
  const chain = await openChain({ params: regtestParams, store: createMemoryStore(), clock: systemClock });
  const dispatcher = createDispatcher({ services: { chain, node: { version: 't', startedAtMs: 0, clock: systemClock, synced: () => true } }, version: 't' });
  const app = new Hono();
  app.use('*', ...access.middleware);
  app.get('/api/v1/addresses/:address/balance', requireScope('get_balance', (c) => ({ privacy_view: c.req.query('privacy_view') })), (c) => c.json({ address: c.req.param('address') }));
  app.get(explorerPath, (c) => c.json({ explorer: true }));
  app.get('/health', (c) => c.json({ status: 'ok' }));
  access.mountRoutes(app);
  options.extra?.(app);
  const { server }: { server: ServerType } = await listenHttp(app, createRpcListener({ dispatcher, access }), 0, '127.0.0.1');
  const address = server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    app,
    access,
    clock,
    dispatcher,
    base,
    request: (path, init) => fetch(`${base}${path}`, init),
    rpc: (method, params, headers = {}, id = 1) =>
      fetch(`${base}/api/v1/rpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }), id }),
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
  };
}
