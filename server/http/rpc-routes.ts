/**
 * JSON-RPC 2.0 over HTTP POST: `/api/v1/rpc` (client flow), `/rpc` (daemon flow) and `/` (the public-host flow, whose
 * body may carry only `method` and `params`). The body is bounded by the one body-limit middleware
 * (rpcRequestBytesMax, 413), read once and parsed once, by the dispatcher, which also checks each call's scope
 * against the caller's identity (docs/auth.md). JSON-RPC-level errors are HTTP 200 (docs/design.md "Node APIs and
 * access"); a request refused for access answers its kind's status (401, 403) with the challenges; a request of
 * notifications only is 204.
 */
import type { Context, Hono } from 'hono';
import { rpcRequestBytesMax } from '../../src/limits.ts';
import type { Dispatcher, JsonRpcResponse } from '../../src/rpc/dispatcher.ts';
import { stringifyJson } from '../../src/rpc/json.ts';
import { accessErrorResponse } from '../auth/auth-responses.ts';
import { authOf, parsedBodyOf } from '../auth/authenticate.ts';
import { requestBodyLimit } from '../auth/request-bounds.ts';

const jsonHeaders = { 'content-type': 'application/json; charset=utf-8' };

export const rpcPaths = ['/api/v1/rpc', '/rpc', '/'] as const;

export function mountRpcRoutes(app: Hono, dispatcher: Dispatcher): void {
  const handler = (publicFlow: boolean) => async (c: Context) => {
    const auth = authOf(c);
    const ctx = { transport: 'http' as const, publicFlow, ...(auth ? { identity: auth.identity, ...(auth.error ? { refusal: auth.error } : {}) } : {}) };
    const parsed = parsedBodyOf(c);
    const { answer, refused } = parsed === undefined ? await dispatcher.dispatchText(await c.req.text(), ctx) : await dispatcher.dispatch(parsed.value, ctx);
    if (refused) return accessErrorResponse(refused, (answer as JsonRpcResponse).id);
    if (answer === undefined) return new Response(null, { status: 204 });
    return new Response(stringifyJson(answer), { status: 200, headers: jsonHeaders });
  };
  const limit = requestBodyLimit(rpcRequestBytesMax);
  app.post('/api/v1/rpc', limit, handler(false));
  app.post('/rpc', limit, handler(false));
  app.post('/', limit, handler(true));
}
