/**
 * The rate-limit step of the HTTP access pipeline (admission.ts): token buckets per client identity and surface
 * (src/auth/token-bucket.ts, docs/auth.md "Rate limits"). Every response it passes carries X-RateLimit-Limit /
 * -Remaining / -Reset; a request over the limit gets 429 with Retry-After and the JSON-RPC error -32005. One HTTP
 * request takes one token, batches included.
 */
import { RateLimitedError } from '../../src/auth/auth-errors.ts';
import type { Identity } from '../../src/auth/identity.ts';
import { ratePolicyFor, type Surface } from '../../src/auth/rate-policy.ts';
import type { RateDecision, RateLimiter } from '../../src/auth/token-bucket.ts';

function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  return {
    'x-ratelimit-limit': String(decision.limit),
    'x-ratelimit-remaining': String(decision.remaining),
    'x-ratelimit-reset': String(decision.resetSeconds),
  };
}

/** Where a request landed: POST / is the public RPC, the explorer's paths the explorer API, the rest rpc. */
export function surfaceOf(method: string, path: string, explorerPaths: readonly string[]): Surface {
  if (method === 'POST' && path === '/') return 'public_rpc';
  if (explorerPaths.some((p) => path === p || path.startsWith(`${p}/`))) return 'explorer';
  return 'rpc';
}

/** One request's token: the headers its response carries, and the 429 refusal (with Retry-After) when over. */
export interface RateOutcome {
  readonly headers: Record<string, string>;
  readonly refusal?: RateLimitedError;
}

export function takeRateToken(limiter: RateLimiter, identity: Identity, surface: Surface): RateOutcome {
  const policy = ratePolicyFor(identity.tier, surface);
  const decision = limiter.take(`${surface}|${identity.id}`, policy);
  const headers = rateLimitHeaders(decision);
  if (decision.allowed) return { headers };
  const retryAfter = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
  return { headers: { ...headers, 'retry-after': String(retryAfter) }, refusal: new RateLimitedError(policy.name, policy.burst, policy.perMinute, retryAfter) };
}
