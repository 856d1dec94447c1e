/**
 * Scope checks for HTTP routes that do not go through the JSON-RPC dispatcher. JSON-RPC calls (HTTP, WebSocket),
 * REST views and gRPC calls are checked by the dispatcher itself, once per call, against the scope each method
 * declares (src/rpc/method.ts `scope` / `scopeOf`, docs/auth.md "Scopes"); this module serves the rest. Both answer
 * bad credentials with 401 first, so a wrong key is never silently treated as anonymous.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { authorizeScope } from '../../src/auth/identity.ts';
import { requiredScope } from '../../src/rpc/method-scopes.ts';
import { WeftError } from '../../src/errors.ts';
import { isRestRequest } from '../http/http-errors.ts';
import { accessErrorResponse } from './auth-responses.ts';
import { getAuth } from './authenticate.ts';

/** For a route that stands for one method; `params` reads the route's params when the requirement depends on them. */
export function requireScope(method: string, params: (c: Context) => unknown = () => ({})): MiddlewareHandler {
  return async (c, next) => {
    const { identity, error } = getAuth(c);
    const rest = isRestRequest(c);
    if (error) return accessErrorResponse(error, null, {}, rest);
    try {
      authorizeScope(identity, method, requiredScope(method, params(c)));
    } catch (failure) {
      if (failure instanceof WeftError) return accessErrorResponse(failure, null, {}, rest);
      throw failure;
    }
    await next();
  };
}
