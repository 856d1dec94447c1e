/**
 * Credentials on gRPC (docs/auth.md): mutual TLS decides who may connect; each call's metadata carries the same
 * credentials as an HTTP request (`x-api-key`, optionally signed, or `authorization: Bearer`). This resolves the
 * caller and applies its rate limit; the dispatcher then checks the method's scope, as for every transport.
 */
import type * as grpc from '@grpc/grpc-js';
import { RateLimitedError } from '../../src/auth/auth-errors.ts';
import { anonymousIdentity, type Identity } from '../../src/auth/identity.ts';
import { ratePolicyFor } from '../../src/auth/rate-policy.ts';
import type { AccessControl } from './access-control.ts';
import { resolveIdentity } from './authenticate.ts';

export function grpcAuthorizer(access: Pick<AccessControl, 'authOptions' | 'limiter'>) {
  /** Resolves and rate-limits the caller; returns its identity (throws -32001 for bad credentials, -32005 over the limit). */
  return async (metadata: grpc.Metadata, peer: string, method: string, params: unknown): Promise<Identity> => {
    const header = (name: string): string | undefined => {
      const value = metadata.get(name)[0];
      return value === undefined ? undefined : value.toString();
    };
    const identity = await resolveIdentity({ header, signedCall: async () => ({ method, params }) }, access.authOptions, anonymousIdentity(peer.replace(/:\d+$/, '')));
    const policy = ratePolicyFor(identity.tier, 'rpc');
    const decision = access.limiter?.take(`grpc|${identity.id}`, policy);
    if (decision !== undefined && !decision.allowed) {
      throw new RateLimitedError(policy.name, policy.burst, policy.perMinute, Math.max(1, Math.ceil(decision.retryAfterMs / 1000)));
    }
    return identity;
  };
}
