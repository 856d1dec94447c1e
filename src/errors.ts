/**
 * The root of every error Weft throws on purpose. Each carries a stable numeric `code` — the JSON-RPC error code
 * that the RPC boundary puts on the wire — a short `message` that says what was got and what was expected, and
 * optional `details`. Families (consensus, codec, storage, rpc, config) extend it so that each boundary can map
 * them once: JSON-RPC error object, HTTP status, peer ban score.
 */
export class WeftError extends Error {
  readonly code: number;
  readonly details: unknown;
  readonly hint: string | undefined;

  constructor(code: number, message: string, options: { details?: unknown; hint?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.details = options.details;
    this.hint = options.hint;
  }
}

/** JSON-RPC codes from the seed (node-client-protocol.md, Errors) and JSON-RPC 2.0. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  ServerError: -32000,
  Unauthorized: -32001,
  Forbidden: -32002,
  LimitExceeded: -32005,
  InsufficientBalance: -40001,
  InvalidAddress: -40002,
  TransactionRejected: -40003,
  BlockNotFound: -40004,
  MiningError: -40005,
  PrivacyError: -40006,
  SmartContractError: -40007,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Malformed bytes: a codec refused its input (bad length, out-of-range field, trailing data). */
export class DecodeError extends WeftError {
  constructor(message: string, details?: unknown) {
    super(ErrorCode.InvalidParams, message, { details });
  }
}

/** A broken invariant: a bug, never bad input. Crashes loudly (TigerBeetle style). */
export class AssertionError extends WeftError {
  constructor(message: string) {
    super(ErrorCode.InternalError, `assertion failed: ${message}`);
  }
}

export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new AssertionError(message);
}
