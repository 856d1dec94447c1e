/**
 * Scopes on gRPC (docs/auth.md): mutual TLS decides who may connect; each call's metadata carries the same
 * credentials as an HTTP request (`x-api-key`, optionally signed, or `authorization: Bearer`), and the method → scope
 * table decides what the call may do. Rate limits apply per identity as on HTTP.
 */
import type * as grpc from '@grpc/grpc-js';
import { anonymousIdentity, authorizeCall } from '../../src/auth/identity.ts';
import type { AccessControl } from './access-control.ts';
import { resolveIdentity } from './authenticate.ts';
import { ratePolicyFor } from '../../src/auth/rate-policy.ts';
import { RateLimitedError } from '../../src/auth/auth-errors.ts';

export function grpcAuthorizer(access: Pick<AccessControl, 'authOptions' | 'limiter'>) {
  /** Resolves, limits and authorises the caller; returns the scopes its credentials grant. */
  return async (metadata: grpc.Metadata, peer: string, method: string, params: unknown): Promise<ReadonlySet<string>> => {
    const header = (name: string): string | undefined => {
      const value = metadata.get(name)[0];
      return value === undefined ? undefined : value.toString();
    };
    const identity = await resolveIdentity({ header, signedCall: async () => ({ method, params }) }, access.authOptions, anonymousIdentity(peer.replace(/:\d+$/, '')));
    const policy = ratePolicyFor(identity.tier, 'rpc');
    const decision = access.limiter.take(`grpc|${identity.id}`, policy);
    if (!decision.allowed) {
      throw new RateLimitedError(policy.name, policy.burst, policy.perMinute, Math.max(1, Math.ceil(decision.retryAfterMs / 1000)));
    }
    authorizeCall(identity, method, params);
    return identity.scopes;
  };
}
