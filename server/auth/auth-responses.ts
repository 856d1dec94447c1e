/**
 * How access-control failures look on HTTP (docs/design.md "Node APIs and access"): a JSON-RPC error body with 401 + WWW-Authenticate
 * (RFC 9110 §11.6.1, RFC 6750 §3 for Bearer), 403 naming the scope, or 429 + Retry-After.
 */
import { ForbiddenError, UnauthorizedError, type CredentialScheme } from '../../src/auth/auth-errors.ts';
import type { JsonRpcId } from '../../src/rpc/method.ts';
import { toErrorObject } from '../../src/rpc/errors.ts';
import { ErrorCode } from '../../src/errors.ts';
import { restErrorBody } from '../http/http-errors.ts';

export const authRealm = 'weft';

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

export function statusOf(error: unknown): 401 | 403 | 429 | 500 {
  const code = toErrorObject(error).code;
  return code === ErrorCode.Unauthorized ? 401 : code === ErrorCode.Forbidden ? 403 : code === ErrorCode.LimitExceeded ? 429 : 500;
}

/**
 * The response to an access-control failure, with its status and headers: a JSON-RPC error envelope, or on a REST
 * route (`rest`) the REST error body (docs/api.md "REST errors").
 */
export function accessErrorResponse(error: unknown, id: JsonRpcId = null, extraHeaders: Record<string, string> = {}, rest = false): Response {
  const headers = new Headers({ 'content-type': 'application/json; charset=utf-8', ...extraHeaders });
  for (const challenge of challengesFor(error)) headers.append('www-authenticate', challenge);
  const object = toErrorObject(error);
  const body = rest ? restErrorBody(object) : { jsonrpc: '2.0', error: object, id };
  return new Response(JSON.stringify(body), { status: statusOf(error), headers });
}
