/**
 * How refusals at the HTTP edge look (docs/design.md "Node APIs and access"): a JSON-RPC error body with 401 + WWW-Authenticate
 * (RFC 9110 §11.6.1, RFC 6750 §3 for Bearer), 403 naming the scope, or 429 + Retry-After.
 */
import { ForbiddenError, UnauthorizedError, type CredentialScheme } from '../../src/auth/auth-errors.ts';
import type { JsonRpcId } from '../../src/rpc/method.ts';
import { toWireError } from '../../src/rpc/errors.ts';
import { restErrorBody } from '../http/http-errors.ts';

const authRealm = 'weft';

const quote = (text: string): string => `"${text.replace(/["\\]/g, '')}"`;

/** The challenges that tell a client how to authenticate, per RFC 9110 §11.6.1 (one header per scheme). */
export function challengesFor(error: unknown): string[] {
  if (error instanceof ForbiddenError) {
    return error.scheme === 'bearer' ? [`Bearer realm=${quote(authRealm)}, error="insufficient_scope", scope=${quote(error.scope)}`] : [];
  }
  if (!(error instanceof UnauthorizedError)) return [];
  const scope = (error.details as { scope?: string }).scope;
  const scheme: CredentialScheme = error.scheme;
  if (scheme === 'bearer') {
    return [`Bearer realm=${quote(authRealm)}, error="invalid_token", error_description=${quote(error.message)}`];
  }
  if (scheme === 'api_key') return [`ApiKey realm=${quote(authRealm)}, header="X-API-Key", error=${quote(error.reason)}`];
  return [
    `Bearer realm=${quote(authRealm)}${scope ? `, scope=${quote(scope)}` : ''}`,
    `ApiKey realm=${quote(authRealm)}, header="X-API-Key"`,
  ];
}

/** A refusal at the HTTP edge, transport-neutral: status, headers (challenges as a list) and body text. */
export interface AccessErrorParts {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly challenges: readonly string[];
  readonly body: string;
}

/**
 * A refusal at the HTTP edge (access control, rate limit, body or time bound), with its status and headers: a
 * JSON-RPC error envelope, or on a REST route (`rest`) the REST error body (docs/api.md "REST errors").
 */
export function accessErrorParts(error: unknown, id: JsonRpcId = null, extraHeaders: Record<string, string> = {}, rest = false): AccessErrorParts {
  const wire = toWireError(error);
  const body = rest ? restErrorBody(wire) : { jsonrpc: '2.0', error: wire.object, id };
  return {
    status: wire.row.http,
    headers: { 'content-type': 'application/json; charset=utf-8', ...extraHeaders },
    challenges: challengesFor(error),
    body: JSON.stringify(body),
  };
}

/** The same refusal as a fetch Response (the Hono routes). */
export function accessErrorResponse(error: unknown, id: JsonRpcId = null, extraHeaders: Record<string, string> = {}, rest = false): Response {
  const parts = accessErrorParts(error, id, extraHeaders, rest);
  // A plain header record keeps @hono/node-server on its fast path; several challenges need a Headers list.
  let headers: Record<string, string> | Headers = parts.headers;
  if (parts.challenges.length > 0) {
    headers = new Headers(headers);
    for (const challenge of parts.challenges) headers.append('www-authenticate', challenge);
  }
  return new Response(parts.body, { status: parts.status, headers });
}
