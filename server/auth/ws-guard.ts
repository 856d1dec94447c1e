/**
 * Access control for WebSocket JSON-RPC (docs/auth.md "WebSocket"): credentials are read once from the upgrade
 * request's headers (authenticateUpgrade); each message then draws from the connection identity's bucket
 * (1,000 a minute, burst 2,000 for the public tier), and its calls are prepared once (src/rpc/dispatcher.ts
 * `prepareRequest`: envelope, scope, params) before the dispatcher runs them. Over the limit a message gets -32005,
 * a call without its scope -32001/-32002, in the message's id; a client that goes on sending while refused (wsRateLimitStrikesMax in a row) is
 * closed with 1008 (RFC 6455 §7.4.1, policy violation).
 */
import type { IncomingMessage } from 'node:http';
import { RateLimitedError } from '../../src/auth/auth-errors.ts';
import { wsRateLimitStrikesMax } from '../../src/auth/auth-limits.ts';
import { anonymousIdentity, type Identity } from '../../src/auth/identity.ts';
import { ratePolicyFor } from '../../src/auth/rate-policy.ts';
import type { RateLimiter } from '../../src/auth/token-bucket.ts';
import { WeftError } from '../../src/errors.ts';
import { prepareRequest } from '../../src/rpc/dispatcher.ts';
import type { PreparedRequest } from '../../src/rpc/dispatcher.ts';
import { nodeEnvelopeRules, parseEnvelopeText } from '../../src/rpc/envelope.ts';
import { toWireError } from '../../src/rpc/errors.ts';
import { stringifyJson } from '../../src/rpc/json.ts';
import type { AnyRpcMethod } from '../../src/rpc/method.ts';
import { resolveIdentity, type AuthenticateOptions } from './authenticate.ts';
import { challengesFor } from './auth-responses.ts';

type WsVerdict =
  /** Run it: the message's envelope was parsed and its calls' access and params checked, once. */
  | { readonly action: 'pass'; readonly request: PreparedRequest }
  /** Send this instead of running the message (a rate limit, a missing scope): a JSON-RPC error in its id. */
  | { readonly action: 'reply'; readonly text: string; readonly error: WeftError }
  | { readonly action: 'close'; readonly code: 1008; readonly reason: string };

export interface WsGuard {
  readonly identity: Identity;
  /** Call for every incoming message: it parses the message (the only parse), applies the rate limit and scopes. */
  check(text: string): WsVerdict;
}

const wsPolicyCloseCode = 1008;

export interface WsGuardOptions {
  readonly identity: Identity;
  /** Undefined: the node runs without rate limits (`rate-limits=false`). */
  readonly limiter: RateLimiter | undefined;
  /** The dispatcher's method table (its `methods`); the node's by default. */
  readonly methods?: ReadonlyMap<string, AnyRpcMethod>;
}

export function createWsGuard(options: WsGuardOptions): WsGuard {
  const { identity, limiter } = options;
  const policy = ratePolicyFor(identity.tier, 'ws');
  let strikes = 0;
  return {
    identity,
    check(text) {
      const envelope = parseEnvelopeText(text, nodeEnvelopeRules);
      const decision = limiter?.take(`ws|${identity.id}`, policy);
      let refusal: WeftError | undefined;
      if (decision === undefined || decision.allowed) strikes = 0;
      else {
        strikes++;
        if (strikes > wsRateLimitStrikesMax) return { action: 'close', code: wsPolicyCloseCode, reason: 'rate limit exceeded repeatedly' };
        refusal = new RateLimitedError(policy.name, policy.burst, policy.perMinute, Math.max(1, Math.ceil(decision.retryAfterMs / 1000)));
      }
      const request = prepareRequest(envelope, { identity, ...(refusal ? { refusal } : {}) }, options.methods);
      if (request.kind === 'answer' && request.refused) return { action: 'reply', text: stringifyJson(request.answer), error: request.error };
      return { action: 'pass', request };
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
    const { row, object } = toWireError(error);
    const status = row.http;
    const body = JSON.stringify({ jsonrpc: '2.0', error: object, id: null });
    const lines = [`HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : 'Too Many Requests'}`, 'Connection: close', 'Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`];
    for (const challenge of challengesFor(error)) lines.push(`WWW-Authenticate: ${challenge}`);
    return { response: `${lines.join('\r\n')}\r\n\r\n${body}` };
  }
}
