/**
 * `rateLimit(options)`: token buckets per client identity and surface (src/auth/token-bucket.ts, docs/auth.md
 * "Rate limits"). Every response it passes carries X-RateLimit-Limit / -Remaining / -Reset; a request over the limit
 * gets 429 with Retry-After and the JSON-RPC error -32005. One HTTP request takes one token, batches included.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { RateLimitedError } from '../../src/auth/auth-errors.ts';
import { ratePolicyFor, type Surface } from '../../src/auth/rate-policy.ts';
import type { RateDecision, RateLimiter } from '../../src/auth/token-bucket.ts';
import { isRestRequest } from '../http/http-errors.ts';
import { accessErrorResponse } from './auth-responses.ts';
import { getAuth } from './authenticate.ts';

export interface RateLimitOptions {
  readonly limiter: RateLimiter;
  /** Where the request landed; by default POST / is the public RPC, explorerPaths the explorer API, the rest rpc. */
  readonly surface?: (c: Context) => Surface;
  /** Path prefixes of the explorer's API (60 a minute, burst 120, for anonymous clients). */
  readonly explorerPaths?: readonly string[];
}

export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  return {
    'x-ratelimit-limit': String(decision.limit),
    'x-ratelimit-remaining': String(decision.remaining),
    'x-ratelimit-reset': String(decision.resetSeconds),
  };
}

export function defaultSurface(explorerPaths: readonly string[]): (c: Context) => Surface {
  return (c) => {
    if (c.req.method === 'POST' && c.req.path === '/') return 'public_rpc';
    if (explorerPaths.some((p) => c.req.path === p || c.req.path.startsWith(`${p}/`))) return 'explorer';
    return 'rpc';
  };
}

export function rateLimit(options: RateLimitOptions): MiddlewareHandler {
  const surfaceOf = options.surface ?? defaultSurface(options.explorerPaths ?? []);
  return async (c, next) => {
    const { identity } = getAuth(c);
    const surface = surfaceOf(c);
    const policy = ratePolicyFor(identity.tier, surface);
    const decision = options.limiter.take(`${surface}|${identity.id}`, policy);
    const headers = rateLimitHeaders(decision);
    if (!decision.allowed) {
      const retryAfter = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
      const error = new RateLimitedError(policy.name, policy.burst, policy.perMinute, retryAfter);
      return accessErrorResponse(error, null, { ...headers, 'retry-after': String(retryAfter) }, isRestRequest(c));
    }
    await next();
    // Responses built as `new Response(...)` may carry immutable headers (fetch responses): copy once if so.
    try {
      for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v);
    } catch {
      const copy = new Response(c.res.body, c.res);
      for (const [k, v] of Object.entries(headers)) copy.headers.set(k, v);
      c.res = copy;
    }
  };
}
