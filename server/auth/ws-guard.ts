/**
 * Access control for WebSocket JSON-RPC (docs/auth.md "WebSocket"): credentials are read once from the upgrade
 * request's headers (authenticateUpgrade); each message then draws from the connection identity's bucket
 * (1,000 a minute, burst 2,000 for the public tier) and each call is checked against the scope table. Over the
 * limit a message gets -32005; a client that goes on sending while refused (wsRateLimitStrikesMax in a row) is
 * closed with 1008 (RFC 6455 §7.4.1, policy violation).
 */
import type { IncomingMessage } from 'node:http';
import { RateLimitedError } from '../../src/auth/auth-errors.ts';
import { wsRateLimitStrikesMax } from '../../src/auth/auth-limits.ts';
import { anonymousIdentity, authorizeCall, type Identity } from '../../src/auth/identity.ts';
import { ratePolicyFor } from '../../src/auth/rate-policy.ts';
import type { RateLimiter } from '../../src/auth/token-bucket.ts';
import { WeftError } from '../../src/errors.ts';
import { toErrorObject } from '../../src/rpc/errors.ts';
import type { JsonRpcId } from '../../src/rpc/method.ts';
import { resolveIdentity, type AuthenticateOptions } from './authenticate.ts';
import { challengesFor, statusOf } from './auth-responses.ts';

export type WsVerdict =
  | { readonly action: 'pass' }
  | { readonly action: 'reply'; readonly text: string }
  | { readonly action: 'close'; readonly code: 1008; readonly reason: string };

export interface WsGuard {
  readonly identity: Identity;
  /** Call for every incoming message before it is dispatched. */
  check(text: string): WsVerdict;
}

export const wsPolicyCloseCode = 1008;

const reply = (error: unknown, id: JsonRpcId): WsVerdict => ({ action: 'reply', text: JSON.stringify({ jsonrpc: '2.0', error: toErrorObject(error), id }) });

function idOf(call: unknown): JsonRpcId {
  const id = (call as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

export function createWsGuard(options: { identity: Identity; limiter: RateLimiter }): WsGuard {
  const { identity, limiter } = options;
  const policy = ratePolicyFor(identity.tier, 'ws');
  let strikes = 0;
  return {
    identity,
    check(text) {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      const decision = limiter.take(`ws|${identity.id}`, policy);
      if (!decision.allowed) {
        strikes++;
        if (strikes > wsRateLimitStrikesMax) return { action: 'close', code: wsPolicyCloseCode, reason: 'rate limit exceeded repeatedly' };
        const retryAfter = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
        return reply(new RateLimitedError(policy.name, policy.burst, policy.perMinute, retryAfter), Array.isArray(body) ? null : idOf(body));
      }
      strikes = 0;
      // Not JSON or not a call: the dispatcher answers that (-32700 / -32600).
      const calls = Array.isArray(body) ? body : [body];
      for (const call of calls) {
        if (typeof call !== 'object' || call === null || typeof (call as { method?: unknown }).method !== 'string') continue;
        try {
          authorizeCall(identity, (call as { method: string }).method, (call as { params?: unknown }).params);
        } catch (error) {
          if (error instanceof WeftError) return reply(error, Array.isArray(body) ? null : idOf(call));
          throw error;
        }
      }
      return { action: 'pass' };
    },
  };
}

/**
 * Credentials of a WebSocket upgrade. On failure the caller answers the upgrade with `response` (401 + challenges)
 * and destroys the socket; anonymous clients pass as the public tier.
 */
export async function authenticateUpgrade(
  request: IncomingMessage,
  options: AuthenticateOptions,
): Promise<{ identity: Identity } | { response: string }> {
  const address = (options.trustProxy ? String(request.headers['x-forwarded-for'] ?? '').split(',')[0]?.trim() : '') || request.socket.remoteAddress || 'unknown';
  const header = (name: string): string | undefined => {
    const value = request.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const url = new URL(request.url ?? '/', 'http://localhost');
  try {
    const identity = await resolveIdentity({ header, signedCall: async () => ({ method: `GET ${url.pathname}${url.search}`, params: {} }) }, options, anonymousIdentity(address));
    return { identity };
  } catch (error) {
    if (!(error instanceof WeftError)) throw error;
    const status = statusOf(error);
    const body = JSON.stringify({ jsonrpc: '2.0', error: toErrorObject(error), id: null });
    const lines = [`HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : 'Too Many Requests'}`, 'Connection: close', 'Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`];
    for (const challenge of challengesFor(error)) lines.push(`WWW-Authenticate: ${challenge}`);
    return { response: `${lines.join('\r\n')}\r\n\r\n${body}` };
  }
}
