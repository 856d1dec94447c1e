/**
 * The HTTP access pipeline, once per request (docs/auth.md): who is calling (authenticate.ts), one rate token
 * (rate-limit.ts) and the time limit (request-bounds.ts). `admit` is transport-neutral: the JSON-RPC listener
 * (server/http/rpc-listener.ts) calls it with the Node request, and `accessMiddleware` with a Hono context, so both
 * surfaces apply one set of rules in one order.
 */
import type { MiddlewareHandler } from 'hono';
import type { Surface } from '../../src/auth/rate-policy.ts';
import { anonymousIdentity } from '../../src/auth/identity.ts';
import type { RateLimiter } from '../../src/auth/token-bucket.ts';
import { RequestTimeoutError } from '../../src/rpc/errors.ts';
import type { WeftError } from '../../src/errors.ts';
import { isRestRequest } from '../http/http-errors.ts';
import { accessErrorResponse } from './auth-responses.ts';
import { authStateOf, clientAddressOf, ContextCredentials, setAuth, socketAddressOf, type AuthenticateOptions, type AuthState, type CredentialSource } from './authenticate.ts';
import { surfaceOf, takeRateToken } from './rate-limit.ts';
import { timedOut, type Deadline } from './request-bounds.ts';

/** What the access step reads of a request. */
export interface AccessRequest extends CredentialSource {
  readonly method: string;
  readonly path: string;
  readonly socketAddress: string | undefined;
}

interface Admission {
  readonly auth: AuthState;
  /** X-RateLimit-* for the response (none when rate limits are off). */
  readonly rateHeaders: Record<string, string>;
  /** Over the rate limit: answer 429 with these headers (Retry-After included) and nothing else. */
  readonly refusal?: { readonly error: WeftError; readonly headers: Record<string, string> };
}

export interface AdmissionOptions {
  readonly auth: AuthenticateOptions;
  /** Absent: rate limits are off (config `rate-limits=false`). */
  readonly limiter?: RateLimiter;
  readonly explorerPaths: readonly string[];
  /** Requests that take no rate token (the web app's static files). */
  readonly unmetered?: (method: string, path: string) => boolean;
}

const noHeaders: Record<string, string> = Object.freeze({}) as Record<string, string>;

export type Admit = (request: AccessRequest) => Promise<Admission>;

/** Credentials first (a bad key is not answered yet), then the rate token every request spends, bad key or not. */
export function createAdmission(options: AdmissionOptions): Admit {
  const trustProxy = options.auth.trustProxy ?? false;
  return async (request) => {
    const address = clientAddressOf(trustProxy ? request.header('x-forwarded-for') : undefined, request.socketAddress, trustProxy);
    const auth = await authStateOf(request, options.auth, anonymousIdentity(address));
    if (options.limiter === undefined || options.unmetered?.(request.method, request.path)) return { auth, rateHeaders: noHeaders };
    const surface: Surface = surfaceOf(request.method, request.path, options.explorerPaths);
    const rate = takeRateToken(options.limiter, auth.identity, surface);
    return rate.refusal ? { auth, rateHeaders: rate.headers, refusal: { error: rate.refusal, headers: rate.headers } } : { auth, rateHeaders: rate.headers };
  };
}

/** A Hono context as an AccessRequest (its credentials, method, path and socket). */
class ContextAccessRequest extends ContextCredentials implements AccessRequest {
  readonly method: string;
  readonly path: string;
  readonly socketAddress: string | undefined;
  constructor(c: ConstructorParameters<typeof ContextCredentials>[0]) {
    super(c);
    this.method = c.req.method;
    this.path = c.req.path;
    this.socketAddress = socketAddressOf(c);
  }
}

/**
 * The access pipeline as one Hono middleware, on '*' before any route: the caller goes in the context (`getAuth`),
 * a rate refusal is answered here, the route runs under the deadline (504), and the response carries the rate headers.
 */
export function accessMiddleware(admit: Admit, deadline: Deadline): MiddlewareHandler {
  return async (c, next) => {
    const admission = await admit(new ContextAccessRequest(c));
    setAuth(c, admission.auth);
    if (admission.refusal) return accessErrorResponse(admission.refusal.error, null, admission.refusal.headers, isRestRequest(c));
    if ((await deadline.race(next())) === timedOut) c.res = accessErrorResponse(new RequestTimeoutError(deadline.ms), null, {}, isRestRequest(c));
    if (admission.rateHeaders === noHeaders) return;
    // Responses built as `new Response(...)` may carry immutable headers (fetch responses): copy once if so.
    try {
      for (const [k, v] of Object.entries(admission.rateHeaders)) c.res.headers.set(k, v);
    } catch {
      const copy = new Response(c.res.body, c.res);
      for (const [k, v] of Object.entries(admission.rateHeaders)) copy.headers.set(k, v);
      c.res = copy;
    }
  };
}
