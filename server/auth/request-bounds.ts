/**
 * Request bounds at the HTTP edge (docs/auth.md "Request bounds"): a body limit (413) and a time limit (504) per
 * request, both answered through the error table (kinds `payload_too_large` and `timeout`).
 */
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { requestTimeoutMs } from '../../src/auth/auth-limits.ts';
import { PayloadTooLargeError, RequestTimeoutError } from '../../src/rpc/errors.ts';
import { isRestRequest } from '../http/http-errors.ts';
import { accessErrorResponse } from './auth-responses.ts';

/**
 * The one body-limit middleware (hono's bodyLimit: the declared Content-Length, and the bytes actually streamed when
 * none is declared). Each mount puts it on its POST routes with its bound: JSON-RPC (/rpc, /api/v1/rpc, /:
 * rpcRequestBytesMax), A2A (a2aRequestBytesMax), OAuth forms, alert subscriptions. Over the bound: 413, a
 * PayloadTooLargeError answered by `respond` (by default a JSON-RPC envelope, or a REST body on REST routes).
 */
export function requestBodyLimit(maxBytes: number, respond?: (c: Context, error: PayloadTooLargeError) => Response): MiddlewareHandler {
  const onError = (c: Context): Response => {
    const error = new PayloadTooLargeError(maxBytes);
    return respond ? respond(c, error) : accessErrorResponse(error, null, {}, isRestRequest(c));
  };
  const streamed = bodyLimit({ maxSize: maxBytes, onError });
  return async (c, next) => {
    // hono's bodyLimit reads `c.req.raw.body`, which makes @hono/node-server build a full WHATWG Request (undici,
    // web streams: ~15 % of a small JSON-RPC call). A declared length is checked here from the headers, as
    // bodyLimit itself would; only chunked bodies go through bodyLimit's counting stream.
    const declared = c.req.header('content-length');
    if (declared !== undefined && c.req.header('transfer-encoding') === undefined) {
      if (Number.parseInt(declared, 10) > maxBytes) return onError(c);
      return next();
    }
    return streamed(c, next);
  };
}

/**
 * Answers 504 when the handler has not finished within `ms` (default 30 s, the seed's client timeout). The handler's
 * work is not cancelled — JavaScript cannot — but the client is told and the connection freed.
 *
 * One sweeper timer serves every request in flight (a per-request setTimeout, Promise.race and clearTimeout cost
 * ~5 % of a small JSON-RPC call): requests are kept in start order, and the sweeper, every ms/8 (at most 1 s),
 * expires those past their deadline — a 504 comes between `ms` and `ms` plus one sweep interval.
 */
export function requestTimeout(ms: number = requestTimeoutMs): MiddlewareHandler {
  const sweepMs = Math.max(1, Math.min(1_000, Math.floor(ms / 8)));
  const inFlight = new Set<InFlight>();
  let sweeper: ReturnType<typeof setInterval> | undefined;
  const sweep = (): void => {
    const now = performance.now();
    for (const request of inFlight) {
      if (now - request.startedMs < ms) break;
      inFlight.delete(request);
      request.settle('timeout');
    }
    if (inFlight.size === 0) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  };
  return async (c, next) => {
    const request = new InFlight();
    inFlight.add(request);
    if (sweeper === undefined) {
      sweeper = setInterval(sweep, sweepMs);
      sweeper.unref?.();
    }
    next().then(
      () => {
        inFlight.delete(request);
        request.settle('done');
      },
      (error: unknown) => {
        inFlight.delete(request);
        request.fail(error);
      },
    );
    if ((await request.outcome) === 'timeout') c.res = accessErrorResponse(new RequestTimeoutError(ms), null, {}, isRestRequest(c));
  };
}

/** One request in flight: settled by its handler or by the sweeper, whichever comes first. */
class InFlight {
  readonly startedMs = performance.now();
  settle!: (outcome: 'done' | 'timeout') => void;
  fail!: (error: unknown) => void;
  readonly outcome = new Promise<'done' | 'timeout'>((resolve, reject) => {
    this.settle = resolve;
    this.fail = reject;
  });
}
