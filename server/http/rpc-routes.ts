/**
 * JSON-RPC 2.0 over HTTP POST: `/api/v1/rpc` (client flow), `/rpc` (daemon flow) and `/` (the public-host flow, whose
 * body may carry only `method` and `params`). JSON-RPC-level errors are HTTP 200 (docs/design.md "Node APIs and access"); a body over
 * rpcRequestBytesMax is 413; a request of notifications only is 204.
 */
import type { Context, Hono } from 'hono';
import { ErrorCode } from '../../src/errors.ts';
import { rpcRequestBytesMax } from '../../src/limits.ts';
import type { Dispatcher } from '../../src/rpc/dispatcher.ts';
import { grantedScopes } from '../auth/authenticate.ts';

const jsonHeaders = { 'content-type': 'application/json; charset=utf-8' };

function tooLarge(): Response {
  const body = { jsonrpc: '2.0', error: { code: ErrorCode.InvalidRequest, message: 'Invalid Request', data: { reason: 'request_too_large', limit_bytes: rpcRequestBytesMax } }, id: null };
  return new Response(JSON.stringify(body), { status: 413, headers: jsonHeaders });
}

async function readBody(c: Context): Promise<string | undefined> {
  const declared = Number(c.req.header('content-length') ?? '0');
  if (declared > rpcRequestBytesMax) return undefined;
  const text = await c.req.text();
  // Length in UTF-16 units ≤ bytes, so this only lets through what is also within the byte bound when ASCII.
  return text.length > rpcRequestBytesMax ? undefined : text;
}

export function mountRpcRoutes(app: Hono, dispatcher: Dispatcher): void {
  const handler = (publicFlow: boolean) => async (c: Context) => {
    const text = await readBody(c);
    if (text === undefined) return tooLarge();
    const scopes = grantedScopes(c);
    const answer = await dispatcher.handleText(text, { transport: 'http', publicFlow, ...(scopes ? { scopes } : {}) });
    if (answer === undefined) return new Response(null, { status: 204 });
    return new Response(answer, { status: 200, headers: jsonHeaders });
  };
  app.post('/api/v1/rpc', handler(false));
  app.post('/rpc', handler(false));
  app.post('/', handler(true));
}
