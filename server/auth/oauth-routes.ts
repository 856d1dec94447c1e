/**
 * The node's OAuth 2.0 authorization server on port 8080 (docs/auth.md "OAuth 2.0"): the authorization code grant
 * (RFC 6749 §4.1) with PKCE S256 (RFC 7636), refresh tokens with rotation, revocation (RFC 7009) and server metadata
 * (RFC 8414). A person approves on the consent page with the node's admin credential.
 *
 * Errors about the client or redirect URI are shown on the page and never redirected (RFC 6749 §4.1.2.1: redirecting
 * to an unchecked URI would make the node an open redirector); every other error goes back to the client.
 */
import type { Context, Hono } from 'hono';
import { oauthFormBytesMax, oauthParamCharsMax, oauthRedirectUriCharsMax } from '../../src/auth/auth-limits.ts';
import { isValidChallenge } from '../../src/auth/pkce.ts';
import { parseScopes, scopes as allScopes, type Scope } from '../../src/auth/scopes.ts';
import type { ApiKeyStore } from './api-keys.ts';
import { consentPage, errorPage } from './consent-page.ts';
import type { OAuthClientInfo, OAuthClientStore } from './oauth-clients.ts';
import { OAuthError } from './oauth-errors.ts';
import type { OAuthGrants } from './oauth-grants.ts';
import { requestBodyLimit } from './request-bounds.ts';

export interface OAuthServerOptions {
  readonly keys: ApiKeyStore;
  readonly clients: OAuthClientStore;
  readonly grants: OAuthGrants;
  /** The issuer identifier (RFC 8414 §2); by default the origin the request came to. */
  readonly issuer?: string;
}

interface AuthorizationRequest {
  readonly client: OAuthClientInfo;
  readonly redirectUri: string;
  readonly scopes: readonly Scope[];
  readonly state: string | undefined;
  readonly challenge: string | null;
}

/** Ends with a page (client/redirect problems) or a redirect carrying the error. */
class PageError extends Error {}
class RedirectError extends Error {
  constructor(readonly error: string, description: string) {
    super(description);
  }
}

const noStore = { 'cache-control': 'no-store', pragma: 'no-cache' };

function readRequest(get: (name: string) => string | undefined, clients: OAuthClientStore): AuthorizationRequest {
  const tooLong = ['client_id', 'redirect_uri', 'scope', 'state', 'code_challenge'].find((n) => (get(n)?.length ?? 0) > oauthRedirectUriCharsMax);
  if (tooLong) throw new PageError(`${tooLong} is too long`);
  const client = clients.get(get('client_id') ?? '');
  if (client === undefined) throw new PageError('unknown client_id: register the client with `weft oauth client create`');
  const redirectUri = get('redirect_uri');
  if (redirectUri === undefined) throw new PageError('redirect_uri is required');
  // RFC 6749 §3.1.2.3 and RFC 9700 §4.1.3: exact string match, no prefixes or patterns.
  if (!client.redirectUris.includes(redirectUri)) throw new PageError('redirect_uri is not registered for this client (it must match exactly)');
  const state = get('state');
  if (state !== undefined && state.length > oauthParamCharsMax) throw new RedirectError('invalid_request', `state has at most ${oauthParamCharsMax} characters`);
  if (get('response_type') !== 'code') throw new RedirectError('unsupported_response_type', 'response_type must be code');
  let scopes: Scope[];
  try {
    scopes = get('scope') === undefined ? [...client.scopes] : parseScopes(get('scope')!);
  } catch (error) {
    throw new RedirectError('invalid_scope', (error as Error).message);
  }
  const denied = scopes.filter((s) => !client.scopes.includes(s));
  if (denied.length > 0) throw new RedirectError('invalid_scope', `this client may not ask for ${denied.join(' ')}`);
  if (scopes.length === 0) throw new RedirectError('invalid_scope', 'no scope requested');
  const challenge = get('code_challenge') ?? null;
  const method = get('code_challenge_method');
  if (challenge === null && client.public) throw new RedirectError('invalid_request', 'public clients must send a PKCE code_challenge (S256)');
  if (challenge !== null && method !== 'S256') throw new RedirectError('invalid_request', 'code_challenge_method must be S256 (plain is not supported)');
  if (challenge !== null && !isValidChallenge(challenge)) throw new RedirectError('invalid_request', 'code_challenge must be 43 base64url characters');
  return { client, redirectUri, scopes, state, challenge };
}

function redirectTo(base: string, params: Record<string, string | undefined>): Response {
  const url = new URL(base);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return new Response(null, { status: 302, headers: { location: url.toString(), ...noStore } });
}

function pageHeaders(redirectUri?: string): Record<string, string> {
  const formTargets = redirectUri ? `'self' ${new URL(redirectUri).origin}` : "'self'";
  return {
    'content-type': 'text/html; charset=utf-8',
    // Chromium applies form-action to the redirect after the POST too, hence the client's origin.
    'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; form-action ${formTargets}; frame-ancestors 'none'; base-uri 'none'`,
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    ...noStore,
  };
}

function hiddenFields(r: AuthorizationRequest): Record<string, string> {
  const fields: Record<string, string> = { response_type: 'code', client_id: r.client.id, redirect_uri: r.redirectUri, scope: r.scopes.join(' ') };
  if (r.state !== undefined) fields.state = r.state;
  if (r.challenge !== null) Object.assign(fields, { code_challenge: r.challenge, code_challenge_method: 'S256' });
  return fields;
}

const issuerOf = (c: Context, options: OAuthServerOptions): string => options.issuer ?? new URL(c.req.url).origin;

async function formOf(c: Context): Promise<Record<string, string>> {
  const type = c.req.header('content-type') ?? '';
  if (!type.startsWith('application/x-www-form-urlencoded')) throw new OAuthError('invalid_request', 'the body must be application/x-www-form-urlencoded');
  const body = await c.req.parseBody();
  return Object.fromEntries(Object.entries(body).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** RFC 6749 §2.3.1: HTTP Basic or client_id + client_secret in the body; public clients send client_id only. */
function authenticateClient(c: Context, form: Record<string, string>, clients: OAuthClientStore): OAuthClientInfo {
  let id = form.client_id;
  let secret = form.client_secret;
  const basic = /^Basic +(.+)$/i.exec(c.req.header('authorization') ?? '');
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new OAuthError('invalid_client', 'malformed Basic credentials');
    id = decodeURIComponent(decoded.slice(0, colon));
    secret = decodeURIComponent(decoded.slice(colon + 1));
  }
  const client = id === undefined ? undefined : clients.get(id);
  if (client === undefined) throw new OAuthError('invalid_client', 'unknown client');
  if (client.public) {
    if (secret !== undefined) throw new OAuthError('invalid_client', 'a public client has no secret');
    return client;
  }
  if (secret === undefined || !clients.checkSecret(client.id, secret)) throw new OAuthError('invalid_client', 'client authentication failed');
  return client;
}

function oauthFailure(c: Context, error: unknown): Response {
  if (!(error instanceof OAuthError)) throw error;
  const headers: Record<string, string> = { ...noStore };
  if (error.status === 401) headers['www-authenticate'] = 'Basic realm="weft-oauth"';
  return c.json(error.toJSON(), error.status, headers);
}

/** GET shows the consent page; POST (with `form`) carries the person's decision. */
async function authorizeHandler(c: Context, options: OAuthServerOptions, get: (name: string) => string | undefined, form?: Record<string, string>): Promise<Response> {
  let request: AuthorizationRequest;
  try {
    request = readRequest(get, options.clients);
  } catch (error) {
    if (error instanceof PageError) return c.html(errorPage('Authorization request refused', error.message), 400, pageHeaders());
    if (error instanceof RedirectError) {
      return redirectTo(get('redirect_uri')!, { error: error.error, error_description: error.message, state: get('state'), iss: issuerOf(c, options) });
    }
    throw error;
  }
  const view = { clientName: request.client.name, clientId: request.client.id, redirectUri: request.redirectUri, scopes: request.scopes, fields: hiddenFields(request) };
  if (form === undefined) return c.html(consentPage(view), 200, pageHeaders(request.redirectUri));
  if (form.decision === 'deny') {
    return redirectTo(request.redirectUri, { error: 'access_denied', error_description: 'the node owner denied the request', state: request.state, iss: issuerOf(c, options) });
  }
  if (form.decision !== 'approve') return c.html(consentPage({ ...view, error: 'Choose Approve or Deny.' }), 400, pageHeaders(request.redirectUri));
  if (options.keys.verify((form.admin_key ?? '').trim())?.admin !== true) {
    return c.html(consentPage({ ...view, error: 'That is not the node’s admin key.' }), 401, pageHeaders(request.redirectUri));
  }
  const code = options.grants.issueCode({ clientId: request.client.id, redirectUri: request.redirectUri, scopes: request.scopes, challenge: request.challenge });
  return redirectTo(request.redirectUri, { code, state: request.state, iss: issuerOf(c, options) });
}

/** RFC 6749 §4.1.3 and §6. */
async function tokenHandler(c: Context, options: OAuthServerOptions): Promise<Response> {
  try {
    const form = await formOf(c);
    const client = authenticateClient(c, form, options.clients);
    if (form.grant_type === 'authorization_code') {
      if (!form.code || !form.redirect_uri) throw new OAuthError('invalid_request', 'code and redirect_uri are required');
      return c.json(await options.grants.redeemCode(form.code, client.id, form.redirect_uri, form.code_verifier), 200, noStore);
    }
    if (form.grant_type === 'refresh_token') {
      if (!form.refresh_token) throw new OAuthError('invalid_request', 'refresh_token is required');
      let narrowed: Scope[] | undefined;
      try {
        narrowed = form.scope === undefined ? undefined : parseScopes(form.scope);
      } catch (error) {
        throw new OAuthError('invalid_scope', (error as Error).message);
      }
      return c.json(await options.grants.refresh(form.refresh_token, client.id, narrowed), 200, noStore);
    }
    throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
  } catch (error) {
    return oauthFailure(c, error);
  }
}

/** RFC 7009 §2.2: 200 whether or not the token was known, so the endpoint cannot be used to probe tokens. */
async function revokeHandler(c: Context, options: OAuthServerOptions): Promise<Response> {
  try {
    const form = await formOf(c);
    const client = authenticateClient(c, form, options.clients);
    if (!form.token) throw new OAuthError('invalid_request', 'token is required');
    await options.grants.revoke(form.token, client.id);
    return c.body(null, 200, noStore);
  } catch (error) {
    return oauthFailure(c, error);
  }
}

/** RFC 8414 §2. */
function metadata(issuer: string): Record<string, unknown> {
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    scopes_supported: allScopes,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic', 'none'],
    revocation_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic', 'none'],
    authorization_response_iss_parameter_supported: true,
  };
}

export function mountOAuthRoutes(app: Hono, options: OAuthServerOptions): void {
  const formLimit = requestBodyLimit(oauthFormBytesMax);
  app.get('/oauth/authorize', (c) => authorizeHandler(c, options, (name) => c.req.query(name)));
  app.post('/oauth/authorize', formLimit, async (c) => {
    let form: Record<string, string>;
    try {
      form = await formOf(c);
    } catch (error) {
      return oauthFailure(c, error);
    }
    return authorizeHandler(c, options, (name) => form[name], form);
  });
  app.post('/oauth/token', formLimit, (c) => tokenHandler(c, options));
  app.post('/oauth/revoke', formLimit, (c) => revokeHandler(c, options));
  app.get('/.well-known/oauth-authorization-server', (c) => c.json(metadata(issuerOf(c, options))));
}
