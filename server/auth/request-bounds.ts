/**
 * Request bounds at the HTTP edge (docs/auth.md "Request bounds"): a body limit (413) and a time limit (504) per
 * request. The JSON-RPC routes keep their own 4 MiB bound (rpcRequestBytesMax); these guard every other route.
 */
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { requestTimeoutMs } from '../../src/auth/auth-limits.ts';
import { ErrorCode } from '../../src/errors.ts';
import { isRestRequest, restErrorBody } from '../http/http-errors.ts';

const json = { 'content-type': 'application/json; charset=utf-8' };

export function requestBodyLimit(maxBytes: number): MiddlewareHandler {
  return bodyLimit({
    maxSize: maxBytes,
    onError: () =>
      new Response(
        JSON.stringify({ jsonrpc: '2.0', error: { code: ErrorCode.InvalidRequest, message: 'Invalid Request', data: { reason: 'request_too_large', limit_bytes: maxBytes } }, id: null }),
        { status: 413, headers: json },
      ),
  });
}

/**
 * Answers 504 when the handler has not finished within `ms` (default 30 s, the seed's client timeout). The handler's
 * work is not cancelled — JavaScript cannot — but the client is told and the connection freed.
 */
export function requestTimeout(ms: number = requestTimeoutMs): MiddlewareHandler {
  return async (c, next) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), ms);
    });
    try {
      const outcome = await Promise.race([next().then(() => 'done' as const), expired]);
      if (outcome === 'timeout') {
        const error = { code: ErrorCode.ServerError, message: `Server error: the request took longer than ${ms / 1000} s`, data: { reason: 'request_timeout', timeout_ms: ms } };
        const body = isRestRequest(c) ? restErrorBody(error) : { jsonrpc: '2.0', error, id: null };
        c.res = new Response(JSON.stringify(body), { status: 504, headers: json });
      }
    } finally {
      clearTimeout(timer);
    }
  };
}
