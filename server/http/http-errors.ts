/**
 * One mapping from JSON-RPC error codes to HTTP statuses for the REST routes and transport-level failures
 * (docs/api.md "REST errors"). JSON-RPC endpoints themselves answer 200 for JSON-RPC-level errors (docs/design.md "Node APIs and access").
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ErrorCode } from '../../src/errors.ts';
import { toErrorObject, type JsonRpcErrorObject } from '../../src/rpc/errors.ts';

export function httpStatusOf(error: JsonRpcErrorObject): ContentfulStatusCode {
  const reason = (error.data as { reason?: unknown } | undefined)?.reason;
  switch (error.code) {
    case ErrorCode.ParseError:
    case ErrorCode.InvalidRequest:
    case ErrorCode.InvalidParams:
    case ErrorCode.InvalidAddress:
      return 400;
    case ErrorCode.Unauthorized:
      return 401;
    case ErrorCode.Forbidden:
      return 403;
    case ErrorCode.MethodNotFound:
    case ErrorCode.BlockNotFound:
      return 404;
    case ErrorCode.LimitExceeded:
      return 429;
    case ErrorCode.InsufficientBalance:
    case ErrorCode.TransactionRejected:
    case ErrorCode.MiningError:
    case ErrorCode.PrivacyError:
    case ErrorCode.SmartContractError:
      return 422;
    case ErrorCode.ServerError:
      return reason === 'transaction_not_found' ? 404 : 500;
    case ErrorCode.InternalError:
      return reason === 'service_not_configured' ? 503 : 500;
    default:
      return 500;
  }
}

/** A machine-readable reason for codes whose error carries none of its own. */
const defaultReasons: Readonly<Record<number, string>> = {
  [ErrorCode.ParseError]: 'parse_error',
  [ErrorCode.InvalidRequest]: 'invalid_request',
  [ErrorCode.MethodNotFound]: 'not_found',
  [ErrorCode.InvalidParams]: 'invalid_params',
  [ErrorCode.InternalError]: 'internal_error',
  [ErrorCode.ServerError]: 'server_error',
  [ErrorCode.Unauthorized]: 'unauthorized',
  [ErrorCode.Forbidden]: 'forbidden',
  [ErrorCode.LimitExceeded]: 'rate_limited',
  [ErrorCode.InsufficientBalance]: 'insufficient_balance',
  [ErrorCode.InvalidAddress]: 'invalid_address',
  [ErrorCode.TransactionRejected]: 'transaction_rejected',
  [ErrorCode.BlockNotFound]: 'block_not_found',
  [ErrorCode.MiningError]: 'mining_error',
  [ErrorCode.PrivacyError]: 'privacy_error',
  [ErrorCode.SmartContractError]: 'smart_contract_error',
};

/**
 * The REST error body (docs/api.md "REST errors"): `{"error": {code, message, reason, data?}}` — the JSON-RPC code
 * and message, a snake_case `reason` for machines, and the particulars. Never a JSON-RPC envelope.
 */
export function restErrorBody(object: JsonRpcErrorObject): { error: Record<string, unknown> } {
  const own = (object.data as { reason?: unknown } | undefined)?.reason;
  const reason = typeof own === 'string' ? own : (defaultReasons[object.code] ?? 'error');
  return { error: { code: object.code, message: object.message, reason, ...(object.data === undefined ? {} : { data: object.data }) } };
}

/** A REST error with the fitting status. */
export function restError(c: Context, error: unknown): Response {
  const object = toErrorObject(error);
  return c.json(restErrorBody(object), httpStatusOf(object));
}

/** GET routes of the REST API (not JSON-RPC, which answers envelopes): their failures are REST-shaped. */
export function isRestRequest(c: Context): boolean {
  return c.req.method !== 'POST' && c.req.path.startsWith('/api/v1/');
}
