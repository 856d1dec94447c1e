/**
 * The root of every error Weft throws on purpose, and the one table its kinds map through. A WeftError carries an
 * error `kind` — what went wrong, in one word — a short `message` that says what was got and what was expected, and
 * optional `details`. It carries no wire code: every boundary (JSON-RPC over HTTP and WebSocket, REST, gRPC, A2A's
 * bindings) maps the kind through `errorTable` below (JSON-RPC code, HTTP status, gRPC status, reason).
 */

// ---------------------------------------------------------------------------------------------------------------
// The one error table (docs/api.md "Errors"). A WeftError carries an error *kind*; this table maps each kind to what
// every boundary puts on the wire: the JSON-RPC code (the seed's Errors table, node-client-protocol.md), the HTTP
// status of REST routes and transport-level refusals, the gRPC status (google.rpc.Code), the snake_case `reason` of
// REST bodies, and how A2A's bindings present it (google.rpc.ErrorInfo reason and domain, and the code A2A's
// JSON-RPC binding uses where the node's code means something else in A2A's numbering).
//
// Adding an error: pick a kind here (or add one, with all its columns), and pass it to `super(kind, message, …)`.
// No boundary switches on codes, statuses or messages; they all read `errorRow(kind)`.
// ---------------------------------------------------------------------------------------------------------------

/** JSON-RPC codes from the seed (node-client-protocol.md, Errors), JSON-RPC 2.0, and A2A 1.0.1 §5.4. */
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

/** gRPC status codes (google.rpc.Code). */
const GrpcStatus = {
  InvalidArgument: 3,
  DeadlineExceeded: 4,
  NotFound: 5,
  PermissionDenied: 7,
  ResourceExhausted: 8,
  FailedPrecondition: 9,
  Unimplemented: 12,
  Internal: 13,
  Unavailable: 14,
  Unauthenticated: 16,
} as const;

/** Where an A2A ErrorInfo's reason is defined: the A2A spec, or Weft (node and chain-extension kinds). */
type ErrorDomain = 'a2a-protocol.org' | 'weft.dev';

export interface ErrorRow {
  /** JSON-RPC error code on the node's JSON-RPC (HTTP, WebSocket) and in gRPC's `weft-error-code` trailer. */
  readonly rpc: number;
  /** HTTP status of a REST answer or a transport-level refusal (JSON-RPC itself answers 200). */
  readonly http: number;
  /** gRPC status code. */
  readonly grpc: number;
  /** REST body `reason` when the error's own data carries none. */
  readonly reason: string;
  /** A2A bindings: the ErrorInfo domain, the ErrorInfo reason, and the JSON-RPC code where it differs from `rpc`. */
  readonly a2a: { readonly domain: ErrorDomain; readonly reason: string; readonly rpc: number };
  /** False for kinds that never reach a client as themselves (peer protocol): answered as a bare internal error. */
  readonly wire: boolean;
}

const a2a = 'a2a-protocol.org' as const;
const weft = 'weft.dev' as const;

type RowSpec = readonly [rpc: number, http: number, grpc: number, reason: string, domain: ErrorDomain, a2aOverride?: { reason?: string; rpc?: number }];

const S = GrpcStatus;
const C = ErrorCode;

const spec = {
  // JSON-RPC 2.0 and transport.
  parse_error: [C.ParseError, 400, S.InvalidArgument, 'parse_error', a2a],
  invalid_request: [C.InvalidRequest, 400, S.InvalidArgument, 'invalid_request', a2a],
  /** A request body over `rpcRequestBytesMax` (HTTP 413; -32600 on the JSON-RPC wire). */
  payload_too_large: [C.InvalidRequest, 413, S.ResourceExhausted, 'request_too_large', a2a, { reason: 'INVALID_REQUEST' }],
  method_not_found: [C.MethodNotFound, 404, S.Unimplemented, 'not_found', a2a],
  invalid_params: [C.InvalidParams, 400, S.InvalidArgument, 'invalid_params', a2a],
  /** Malformed bytes refused by a codec: bad params to the node. */
  decode_error: [C.InvalidParams, 400, S.InvalidArgument, 'invalid_params', a2a, { reason: 'INVALID_PARAMS' }],
  /** Operator input (config file, CLI usage): never on the wire, but shaped like invalid params. */
  config: [C.InvalidParams, 400, S.InvalidArgument, 'invalid_params', weft],
  internal: [C.InternalError, 500, S.Internal, 'internal_error', a2a],
  /** The store or pipeline failed (not the caller's fault). */
  storage: [C.InternalError, 500, S.Internal, 'internal_error', weft],
  /** A method whose backing service this node has not configured. */
  service_unavailable: [C.InternalError, 503, S.Unavailable, 'service_not_configured', weft],
  server_error: [C.ServerError, 500, S.Internal, 'server_error', weft],
  /** A request that took longer than the per-request time limit (HTTP 504). */
  timeout: [C.ServerError, 504, S.DeadlineExceeded, 'request_timeout', weft],

  // Access control (docs/auth.md).
  unauthorized: [C.Unauthorized, 401, S.Unauthenticated, 'unauthorized', weft, { reason: 'UNAUTHENTICATED', rpc: C.ServerError }],
  forbidden: [C.Forbidden, 403, S.PermissionDenied, 'forbidden', weft, { reason: 'PERMISSION_DENIED', rpc: C.ServerError }],
  limit_exceeded: [C.LimitExceeded, 429, S.ResourceExhausted, 'rate_limited', weft, { reason: 'RESOURCE_EXHAUSTED', rpc: C.ServerError }],

  // The seed's domain codes.
  insufficient_balance: [C.InsufficientBalance, 422, S.FailedPrecondition, 'insufficient_balance', weft],
  invalid_address: [C.InvalidAddress, 400, S.InvalidArgument, 'invalid_address', weft],
  transaction_rejected: [C.TransactionRejected, 422, S.FailedPrecondition, 'transaction_rejected', weft],
  block_not_found: [C.BlockNotFound, 404, S.NotFound, 'block_not_found', weft],
  mining_error: [C.MiningError, 422, S.FailedPrecondition, 'mining_error', weft],
  privacy_error: [C.PrivacyError, 422, S.FailedPrecondition, 'privacy_error', weft],
  smart_contract_error: [C.SmartContractError, 422, S.FailedPrecondition, 'smart_contract_error', weft],
  transaction_not_found: [C.ServerError, 404, S.NotFound, 'transaction_not_found', weft],
  transaction_pending: [C.ServerError, 500, S.Internal, 'transaction_pending', weft],
  /** Data below the pruning point, deleted by this (pruned) node: an archive node has it (docs/storage.md "Pruning"). */
  data_pruned: [C.ServerError, 410, S.NotFound, 'data_pruned', weft],

  // Consensus: a block that breaks a rule. submit_block answers these as -40005 (it wraps them in a MiningError).
  /** A chain validation rule (src/chain/errors.ts BlockRuleError). */
  block_rule: [C.ServerError, 422, S.FailedPrecondition, 'block_rejected', weft],
  /** A GHOSTDAG engine rule (mergeset size, parents, duplicates). */
  dag_rule: [C.MiningError, 422, S.FailedPrecondition, 'block_rejected', weft],
  /** The light client refused a header or a proof. */
  light_verification: [C.ServerError, 500, S.Internal, 'server_error', weft],
  /** The authenticated state map: a node missing from the store (unknown or pruned root). */
  state_missing: [C.ServerError, 500, S.Internal, 'server_error', weft],
  /** A P2P protocol failure: scored against the peer, never answered to an RPC client. */
  peer_protocol: [C.InternalError, 500, S.Internal, 'internal_error', weft],

  // A2A 1.0.1 §5.4.
  task_not_found: [-32001, 404, S.NotFound, 'task_not_found', a2a],
  task_not_cancelable: [-32002, 400, S.FailedPrecondition, 'task_not_cancelable', a2a],
  push_notification_not_supported: [-32003, 400, S.FailedPrecondition, 'push_notification_not_supported', a2a],
  unsupported_operation: [-32004, 400, S.FailedPrecondition, 'unsupported_operation', a2a],
  content_type_not_supported: [-32005, 400, S.InvalidArgument, 'content_type_not_supported', a2a],
  invalid_agent_response: [-32006, 500, S.Internal, 'invalid_agent_response', a2a],
  extended_agent_card_not_configured: [-32007, 400, S.FailedPrecondition, 'extended_agent_card_not_configured', a2a],
  extension_support_required: [-32008, 400, S.FailedPrecondition, 'extension_support_required', a2a],
  version_not_supported: [-32009, 400, S.FailedPrecondition, 'version_not_supported', a2a],
  // A2A's chain extension (weft.dev).
  chain_identity_verification_failed: [-32100, 401, S.Unauthenticated, 'chain_identity_verification_failed', weft],
  chain_signature_invalid: [-32101, 401, S.Unauthenticated, 'chain_signature_invalid', weft],
  chain_session_key_expired: [-32102, 401, S.Unauthenticated, 'chain_session_key_expired', weft],
  chain_account_frozen: [-32103, 403, S.PermissionDenied, 'chain_account_frozen', weft],
  chain_escrow_failed: [-32104, 400, S.FailedPrecondition, 'chain_escrow_failed', weft],
} as const satisfies Record<string, RowSpec>;

/** What went wrong, in one word: the only thing an error carries that boundaries map. */
export type ErrorKind = keyof typeof spec;

const notOnWire = new Set<ErrorKind>(['peer_protocol']);

/** A2A's own kinds keep their A2A numbering even though it collides with the node's -32001…-32005. */
const errorTable: Readonly<Record<ErrorKind, ErrorRow>> = Object.fromEntries(
  (Object.entries(spec) as [ErrorKind, RowSpec][]).map(([kind, [rpc, http, grpc, reason, domain, over]]) => [
    kind,
    Object.freeze({
      rpc,
      http,
      grpc,
      reason,
      a2a: Object.freeze({ domain, reason: over?.reason ?? kind.toUpperCase(), rpc: over?.rpc ?? rpc }),
      wire: !notOnWire.has(kind),
    }),
  ]),
) as Record<ErrorKind, ErrorRow>;

export function errorRow(kind: ErrorKind): ErrorRow {
  return errorTable[kind];
}

/** The canonical kind of each node JSON-RPC code: for errors that arrive as a code (a remote node's answer). */
const kindByRpcCode: ReadonlyMap<number, ErrorKind> = new Map<number, ErrorKind>([
  [C.ParseError, 'parse_error'],
  [C.InvalidRequest, 'invalid_request'],
  [C.MethodNotFound, 'method_not_found'],
  [C.InvalidParams, 'invalid_params'],
  [C.InternalError, 'internal'],
  [C.ServerError, 'server_error'],
  [C.Unauthorized, 'unauthorized'],
  [C.Forbidden, 'forbidden'],
  [C.LimitExceeded, 'limit_exceeded'],
  [C.InsufficientBalance, 'insufficient_balance'],
  [C.InvalidAddress, 'invalid_address'],
  [C.TransactionRejected, 'transaction_rejected'],
  [C.BlockNotFound, 'block_not_found'],
  [C.MiningError, 'mining_error'],
  [C.PrivacyError, 'privacy_error'],
  [C.SmartContractError, 'smart_contract_error'],
]);

/** A node JSON-RPC code → its kind (unknown codes: `server_error`). For clients reading a node's answer. */
export function kindOfRpcCode(code: number): ErrorKind {
  return kindByRpcCode.get(code) ?? 'server_error';
}

const stacklessKinds: ReadonlySet<ErrorKind> = new Set<ErrorKind>(['limit_exceeded', 'unauthorized', 'forbidden', 'payload_too_large']);

export class WeftError extends Error {
  readonly kind: ErrorKind;
  readonly details: unknown;
  readonly hint: string | undefined;

  constructor(kind: ErrorKind, message: string, options: { details?: unknown; hint?: string; cause?: unknown } = {}) {
    // Refusals at the edge (a rate limit, bad credentials, an oversized body) are answers, not faults: they carry no
    // stack, whose capture was the largest single cost of a 429 under load.
    const limit = Error.stackTraceLimit;
    if (stacklessKinds.has(kind)) Error.stackTraceLimit = 0;
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    Error.stackTraceLimit = limit;
    this.name = new.target.name;
    this.kind = kind;
    this.details = options.details;
    this.hint = options.hint;
  }

  /** The JSON-RPC code of this error's kind (a read-only convenience; boundaries call `rpcCodeOf`). */
  get code(): number {
    return errorRow(this.kind).rpc;
  }
}

/** An error raised at the RPC boundary itself (envelope, params, routing, access), with JSON-RPC
 * `data`. It sits beside WeftError so that src/auth, below src/rpc, can raise it too. */
export class RpcError extends WeftError {
  constructor(kind: ErrorKind, message: string, data?: unknown) {
    super(kind, message, { details: data });
  }
}

/** The JSON-RPC code an error is answered with: its kind's code, or -32603 for anything that is no WeftError. */
export function rpcCodeOf(error: unknown): number {
  return error instanceof WeftError ? errorRow(error.kind).rpc : errorRow('internal').rpc;
}

/** Malformed bytes: a codec refused its input (bad length, out-of-range field, trailing data). */
export class DecodeError extends WeftError {
  constructor(message: string, details?: unknown) {
    super('decode_error', message, { details });
  }
}

/** A broken invariant: a bug, never bad input. Crashes loudly (TigerBeetle style). */
export class AssertionError extends WeftError {
  constructor(message: string) {
    super('internal', `assertion failed: ${message}`);
  }
}

export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new AssertionError(message);
}
