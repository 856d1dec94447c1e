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

/** `{"error": {code, message, data?}}` with the fitting status. */
export function restError(c: Context, error: unknown): Response {
  const object = toErrorObject(error);
  return c.json({ error: object }, httpStatusOf(object));
}
