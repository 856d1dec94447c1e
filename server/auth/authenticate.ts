/**
 * Who is calling (docs/auth.md "Tiers"): an Identity, plus the credential failure when there was one. Resolving never
 * answers by itself — the rate limiter must see every request first (a bad key still spends its IP's tokens); the
 * JSON-RPC binding hands both to the dispatcher, which answers a failure with 401 and checks each call's scope
 * (docs/auth.md). `X-API-Key` and `Authorization: Bearer` are the two credentials; sending both is refused as
 * ambiguous. Transport-neutral: the HTTP access step (admission.ts), WebSocket upgrades and gRPC calls read
 * credentials through a `CredentialSource`.
 */
import type { Context } from 'hono';
import { UnauthorizedError } from '../../src/auth/auth-errors.ts';
import type { SignedCall } from '../../src/auth/canonical-json.ts';
import { anonymousIdentity, type Identity } from '../../src/auth/identity.ts';
import { WeftError } from '../../src/errors.ts';
import type { ApiKeyInfo, ApiKeyStore } from './api-keys.ts';
import type { OAuthGrants } from './oauth-grants.ts';
import type { SignatureVerifier } from './request-signature.ts';

export interface AuthState {
  readonly identity: Identity;
  /** The credentials were present but bad (-32001), or a bound was hit checking them (-32005). */
  readonly error?: WeftError;
}

export interface AuthenticateOptions {
  readonly keys: ApiKeyStore;
  readonly grants: OAuthGrants;
  readonly signatures: SignatureVerifier;
  /** Use the first X-Forwarded-For address as the client's (only behind a reverse proxy you run). */
  readonly trustProxy?: boolean;
}

const authKey = 'weftAuth';

/** The caller of this request (anonymous by socket address when the access step did not run). */
export function getAuth(c: Context): AuthState {
  return (c.get(authKey as never) as AuthState | undefined) ?? { identity: anonymousIdentity(socketAddressOf(c) ?? 'unknown') };
}

/** The caller of this request, or undefined when the access step did not run (the node runs without access control). */
export function authOf(c: Context): AuthState | undefined {
  return c.get(authKey as never) as AuthState | undefined;
}

/** The client's address: the first X-Forwarded-For entry behind a proxy you run (trustProxy), else the socket's. */
export function clientAddressOf(forwardedFor: string | undefined, socketAddress: string | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = forwardedFor?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  return socketAddress ?? 'unknown';
}

/**
 * The socket address of a Hono request. @hono/node-server puts the Node request in c.env (what its getConnInfo reads);
 * app.request() has none. Read directly: getConnInfo throws without it, and an exception per request cost ~60 µs.
 */
export function socketAddressOf(c: Context): string | undefined {
  return (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress;
}

export function setAuth(c: Context, state: AuthState): void {
  c.set(authKey as never, state as never);
}

/** The call a JSON-RPC body's signature covers: one call, or a batch as method "batch"; undefined for other JSON. */
export function signedCallOfBody(body: unknown): SignedCall | undefined {
  if (Array.isArray(body)) return { method: 'batch', params: body };
  if (typeof body === 'object' && body !== null && typeof (body as { method?: unknown }).method === 'string') {
    const { method, params } = body as { method: string; params?: unknown };
    return { method, params };
  }
  return undefined;
}

/** The call a signature covers: the JSON body (signedCallOfBody), or `GET <path>` for reads. */
async function signedCall(c: Context): Promise<SignedCall | undefined> {
  if (c.req.method === 'GET' || c.req.method === 'HEAD') {
    const url = new URL(c.req.url);
    return { method: `${c.req.method} ${url.pathname}${url.search}`, params: {} };
  }
  try {
    return signedCallOfBody(JSON.parse(await c.req.text()));
  } catch {
    return undefined; // Not JSON: nothing to verify.
  }
}

/** What identity resolution reads from a request: its headers, and (only for a signed API-key request) its call. */
export interface CredentialSource {
  header(name: string): string | undefined;
  signedCall(): Promise<SignedCall | undefined>;
}

/** The caller's identity, or a thrown -32001 / -32005. Shared by HTTP requests and WebSocket upgrades. */
export async function resolveIdentity(source: CredentialSource, options: AuthenticateOptions, anonymous: Identity): Promise<Identity> {
  const apiKey = source.header('x-api-key');
  const authorization = source.header('authorization');
  if (apiKey !== undefined && authorization !== undefined) {
    throw new UnauthorizedError('ambiguous_credentials', 'send either X-API-Key or Authorization, not both', 'none');
  }
  if (authorization !== undefined) {
    const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i.exec(authorization.trim());
    if (match === null) throw new UnauthorizedError('invalid_token', 'Authorization must be "Bearer <access token>"', 'bearer');
    const check = options.grants.checkAccess(match[1]!);
    if (!check.ok) {
      const detail = check.reason === 'token_expired' ? 'the access token expired; refresh it' : 'the access token is unknown or revoked';
      throw new UnauthorizedError(check.reason, detail, 'bearer');
    }
    return { tier: 'oauth', id: `oauth:${check.clientId}`, scopes: new Set(check.scopes), admin: false };
  }
  if (apiKey === undefined) return anonymous;
  const info = options.keys.verify(apiKey.trim());
  if (info === undefined) throw new UnauthorizedError('invalid_api_key', 'X-API-Key is not a valid key of this node', 'api_key');
  const signature = source.header('x-signature');
  if (info.requireSignature || signature !== undefined) {
    options.signatures.verify({ apiKey: apiKey.trim(), keyId: info.id, timestamp: source.header('x-timestamp'), signature, call: await source.signedCall() });
  }
  let identity = keyIdentities.get(info);
  if (identity === undefined) {
    identity = { tier: 'api_key', id: `key:${info.id}`, scopes: new Set(info.scopes), admin: info.admin };
    keyIdentities.set(info, identity);
  }
  return identity;
}

/** The identity of each verified key record (the key store hands back the same info object while it is unchanged). */
const keyIdentities = new WeakMap<ApiKeyInfo, Identity>();

/** The credentials of one Hono request (an object per request instead of a pair of closures: this is the hot path). */
export class ContextCredentials implements CredentialSource {
  constructor(private readonly c: Context) {}
  header(name: string): string | undefined {
    return this.c.req.header(name);
  }
  signedCall(): Promise<SignedCall | undefined> {
    return signedCall(this.c);
  }
}

/** The caller's AuthState: anonymous without credentials, else the resolved identity or the credential failure. */
export async function authStateOf(source: CredentialSource, options: AuthenticateOptions, anonymous: Identity): Promise<AuthState> {
  if (source.header('x-api-key') === undefined && source.header('authorization') === undefined) return { identity: anonymous };
  try {
    return { identity: await resolveIdentity(source, options, anonymous) };
  } catch (error) {
    if (!(error instanceof WeftError)) throw error;
    return { identity: anonymous, error };
  }
}
