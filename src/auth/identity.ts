/**
 * Who is calling (docs/auth.md "Tiers"): anonymous (keyed by IP for rate limits), an API key, or an OAuth client
 * acting for the node's owner. Transports resolve it once per request or connection; scope checks and rate limits
 * read it. A2A's principal is a view of it (src/a2a/auth.ts `principalOf`).
 */
import type { Requirement, Scope } from './scopes.ts';
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

const noScopes: ReadonlySet<Scope> = new Set();

export function anonymousIdentity(address: string): Identity {
  return { tier: 'anonymous', id: `ip:${address}`, scopes: noScopes, admin: false };
}

function schemeOf(identity: Identity): CredentialScheme {
  return identity.tier === 'api_key' ? 'api_key' : identity.tier === 'oauth' ? 'bearer' : 'none';
}

/**
 * Throws -32001 when an anonymous caller asks for a method that needs `needed`, -32002 when credentials lack it. The
 * one check, run by the dispatcher once per call for every transport (HTTP, WebSocket, REST, gRPC).
 */
export function authorizeScope(identity: Identity, method: string, needed: Requirement): void {
  if (needed === 'public' || identity.scopes.has(needed)) return;
  if (identity.tier === 'anonymous') {
    throw new UnauthorizedError('authentication_required', `${method} needs credentials with the ${needed} scope (X-API-Key or Authorization: Bearer)`, 'none', {
      method,
      scope: needed,
    });
  }
  throw new ForbiddenError(method, needed, [...identity.scopes], schemeOf(identity));
}
