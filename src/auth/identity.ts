/**
 * Who is calling (docs/auth.md "Tiers"): anonymous (keyed by IP for rate limits), an API key, or an OAuth client
 * acting for the node's owner. Transports resolve it once per request or connection; scope checks and rate limits
 * read it.
 */
import { missingScope, type Scope } from './scopes.ts';
import { ForbiddenError, UnauthorizedError, type CredentialScheme } from './auth-errors.ts';
import type { Tier } from './rate-policy.ts';

export interface Identity {
  readonly tier: Tier;
  /** Rate-limit key: `ip:<address>`, `key:<key id>` or `oauth:<client id>`. */
  readonly id: string;
  readonly scopes: ReadonlySet<Scope>;
  /** The node's admin key (api.cookie): may approve OAuth consent. */
  readonly admin: boolean;
}

export function anonymousIdentity(address: string): Identity {
  return { tier: 'anonymous', id: `ip:${address}`, scopes: new Set(), admin: false };
}

export function schemeOf(identity: Identity): CredentialScheme {
  return identity.tier === 'api_key' ? 'api_key' : identity.tier === 'oauth' ? 'bearer' : 'none';
}

/**
 * Throws -32001 when an anonymous caller asks for a protected method, -32002 when credentials lack its scope.
 * The one check every transport runs per call (HTTP, WebSocket, gRPC).
 */
export function authorizeCall(identity: Identity, method: string, params: unknown): void {
  const missing = missingScope(identity.scopes, method, params);
  if (missing === undefined) return;
  if (identity.tier === 'anonymous') {
    throw new UnauthorizedError('authentication_required', `${method} needs credentials with the ${missing} scope (X-API-Key or Authorization: Bearer)`, 'none', {
      method,
      scope: missing,
    });
  }
  throw new ForbiddenError(method, missing, [...identity.scopes], schemeOf(identity));
}

