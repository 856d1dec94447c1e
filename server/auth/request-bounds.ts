/**
 * Request bounds at the HTTP edge (docs/auth.md "Request bounds"): a body limit (413) and a time limit (504) per
 * request, both answered through the error table (kinds `payload_too_large` and `timeout`). JSON-RPC over HTTP reads
 * its body in server/http/rpc-listener.ts with the same bound (`rpcRequestBytesMax`).
 */
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { requestTimeoutMs } from '../../src/auth/auth-limits.ts';
import { PayloadTooLargeError } from '../../src/rpc/errors.ts';
import { isRestRequest } from '../http/http-errors.ts';
import { accessErrorResponse } from './auth-responses.ts';

/**
 * The body-limit middleware of the Hono routes (hono's bodyLimit: the declared Content-Length, and the bytes actually
 * streamed when none is declared). Each mount puts it on its POST routes with its bound: A2A (a2aRequestBytesMax),
 * OAuth forms, alert subscriptions. Over the bound: 413, a
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

/** What `Deadline.race` resolves to when the deadline passed first. */
export const timedOut: unique symbol = Symbol('timed out');

/**
 * The per-request time limit (default 30 s, the seed's client timeout): `race(work)` settles with the work, or with
 * `timedOut` once `ms` has passed, and the caller answers 504. The work is not cancelled — JavaScript cannot — but
 * the client is told and the connection freed.
 *
 * One sweeper timer serves every request in flight (a per-request setTimeout, Promise.race and clearTimeout cost
 * ~5 % of a small JSON-RPC call): requests are kept in start order, and the sweeper, every ms/8 (at most 1 s),
 * expires those past their deadline — a 504 comes between `ms` and `ms` plus one sweep interval.
 */
export interface Deadline {
  readonly ms: number;
  race<T>(work: Promise<T>): Promise<T | typeof timedOut>;
}

export function createDeadline(ms: number = requestTimeoutMs): Deadline {
  const sweepMs = Math.max(1, Math.min(1_000, Math.floor(ms / 8)));
  const inFlight = new Set<InFlight<unknown>>();
  let sweeper: ReturnType<typeof setInterval> | undefined;
  const sweep = (): void => {
    const now = performance.now();
    for (const request of inFlight) {
      if (now - request.startedMs < ms) break;
      inFlight.delete(request);
      request.resolve(timedOut);
    }
    if (inFlight.size === 0) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  };
  return {
    ms,
    race<T>(work: Promise<T>): Promise<T | typeof timedOut> {
      const request = new InFlight<T>();
      inFlight.add(request as InFlight<unknown>);
      if (sweeper === undefined) {
        sweeper = setInterval(sweep, sweepMs);
        sweeper.unref?.();
      }
      work.then(
        (value) => {
          inFlight.delete(request as InFlight<unknown>);
          request.resolve(value);
        },
        (error: unknown) => {
          inFlight.delete(request as InFlight<unknown>);
          request.reject(error);
        },
      );
      return request.outcome;
    },
  };
}

/** One request in flight: settled by its work or by the sweeper, whichever comes first. */
class InFlight<T> {
  readonly startedMs = performance.now();
  resolve!: (outcome: T | typeof timedOut) => void;
  reject!: (error: unknown) => void;
  readonly outcome = new Promise<T | typeof timedOut>((resolve, reject) => {
    this.resolve = resolve;
    this.reject = reject;
  });
}
