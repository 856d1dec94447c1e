/**
 * Access-control failures and their JSON-RPC codes (docs/design.md "Node APIs and access"): -32001 Unauthorized (HTTP 401 with
 * WWW-Authenticate), -32002 Forbidden (HTTP 403, names the missing scope), -32005 Limit exceeded (HTTP 429 with
 * Retry-After). `data.reason` tells each failure apart so clients (and tests) need not parse messages.
 */
import { RpcError } from '../errors.ts';
import type { Scope } from './scopes.ts';

export type UnauthorizedReason =
  | 'authentication_required'
  | 'ambiguous_credentials'
  | 'invalid_api_key'
  | 'invalid_token'
  | 'token_expired'
  | 'signature_required'
  | 'signature_malformed'
  | 'signature_mismatch'
  | 'timestamp_out_of_window'
  | 'signature_replayed';

/** Which credential the failure concerns: it picks the WWW-Authenticate challenge. */
export type CredentialScheme = 'api_key' | 'bearer' | 'none';

export class UnauthorizedError extends RpcError {
  readonly reason: UnauthorizedReason;
  readonly scheme: CredentialScheme;
  constructor(reason: UnauthorizedReason, detail: string, scheme: CredentialScheme, data: Record<string, unknown> = {}) {
    super('unauthorized', `Unauthorized: ${detail}`, { reason, ...data });
    this.reason = reason;
    this.scheme = scheme;
  }
}

export class ForbiddenError extends RpcError {
  readonly scope: Scope;
  readonly scheme: CredentialScheme;
  constructor(method: string, scope: Scope, granted: readonly string[], scheme: CredentialScheme) {
    super('forbidden', `Forbidden: ${method} needs the ${scope} scope, which these credentials do not have`, {
      reason: 'missing_scope',
      method,
      scope,
      granted,
    });
    this.scope = scope;
    this.scheme = scheme;
  }
}

export class RateLimitedError extends RpcError {
  readonly retryAfterSeconds: number;
  constructor(policy: string, limit: number, perMinute: number, retryAfterSeconds: number) {
    super('limit_exceeded', `Limit exceeded: the ${policy} rate limit is ${perMinute} requests a minute (burst ${limit})`, {
      reason: 'rate_limited',
      policy,
      limit,
      per_minute: perMinute,
      retry_after_seconds: retryAfterSeconds,
    });
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
