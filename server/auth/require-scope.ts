/**
 * Scope checks at the HTTP edge (docs/design.md "Node APIs and access", the table in src/auth/scopes.ts). `requireScope(method)` guards a
 * route that stands for one method (REST views); `requireRpcScopes()` reads a JSON-RPC body (single call or batch)
 * and checks every call before the dispatcher runs any: a batch runs whole or not at all. Both answer bad
 * credentials with 401 first, so a wrong key is never silently treated as anonymous.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { authorizeCall } from '../../src/auth/identity.ts';
import { rpcRequestBytesMax } from '../../src/limits.ts';
import type { JsonRpcId } from '../../src/rpc/method.ts';
import { WeftError } from '../../src/errors.ts';
import { isRestRequest } from '../http/http-errors.ts';
import { accessErrorResponse } from './auth-responses.ts';
import { getAuth } from './authenticate.ts';

const idOf = (call: unknown): JsonRpcId => {
  const id = (call as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
};

/** The response refusing this call, or undefined when it may run. */
export function checkCall(c: Context, method: string, params: unknown, id: JsonRpcId = null): Response | undefined {
  const { identity, error } = getAuth(c);
  const rest = isRestRequest(c);
  if (error) return accessErrorResponse(error, id, {}, rest);
  try {
    authorizeCall(identity, method, params);
    return undefined;
  } catch (failure) {
    if (failure instanceof WeftError) return accessErrorResponse(failure, id, {}, rest);
    throw failure;
  }
}

/** For a route that is one method; `params` reads the route's params when the requirement depends on them. */
export function requireScope(method: string, params: (c: Context) => unknown = () => ({})): MiddlewareHandler {
  return async (c, next) => {
    const refused = checkCall(c, method, params(c));
    if (refused) return refused;
    await next();
  };
}

export function requireRpcScopes(): MiddlewareHandler {
  return async (c, next) => {
    const { error } = getAuth(c);
    if (error) return accessErrorResponse(error);
    // Oversized bodies are the route's to refuse (413); unparsable ones the dispatcher's (-32700).
    if (Number(c.req.header('content-length') ?? '0') > rpcRequestBytesMax) return next();
    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch {
      return next();
    }
    const calls = Array.isArray(body) ? body : [body];
    for (const call of calls) {
      if (typeof call !== 'object' || call === null || typeof (call as { method?: unknown }).method !== 'string') continue;
      const { method, params } = call as { method: string; params?: unknown };
      const refused = checkCall(c, method, params, Array.isArray(body) ? null : idOf(call));
      if (refused) return refused;
    }
    await next();
  };
}
