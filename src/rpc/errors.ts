/**
 * RPC error families and their one mapping onto the JSON-RPC 2.0 error object (§5.1 of the JSON-RPC 2.0 spec and the
 * seed's Errors table). Standard codes keep the spec's exact message and put the particulars in `data`; the seed's
 * domain codes (-40001…-40007) and -32000 carry a message that says what was wrong, with `data` for machines.
 */
import { ErrorCode, errorRow, RpcError, WeftError, type ErrorKind, type ErrorRow } from '../errors.ts';

const standardMessages: Readonly<Record<number, string>> = {
  [ErrorCode.ParseError]: 'Parse error',
  [ErrorCode.InvalidRequest]: 'Invalid Request',
  [ErrorCode.MethodNotFound]: 'Method not found',
  [ErrorCode.InvalidParams]: 'Invalid params',
  [ErrorCode.InternalError]: 'Internal error',
};

export interface JsonRpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

export { RpcError } from '../errors.ts';

export class ParseError extends RpcError {
  constructor(detail: string) {
    super('parse_error', `Parse error: ${detail}`, { reason: detail });
  }
}

export class InvalidRequestError extends RpcError {
  constructor(detail: string) {
    super('invalid_request', `Invalid Request: ${detail}`, { reason: detail });
  }
}

export class MethodNotFoundError extends RpcError {
  constructor(method: string, reason?: string) {
    super('method_not_found', `Method not found: ${method}`, { method, ...(reason === undefined ? {} : { reason }) });
  }
}

export interface ParamIssue {
  readonly path: string;
  readonly message: string;
}

export class InvalidParamsError extends RpcError {
  constructor(detail: string, issues: readonly ParamIssue[] = []) {
    super('invalid_params', `Invalid params: ${detail}`, { reason: detail, ...(issues.length ? { issues } : {}) });
  }
}

/** A method whose backing service is not wired into this node: -32603 naming the service, never made-up data. */
export class ServiceUnavailableError extends RpcError {
  readonly service: string;
  constructor(service: string, method: string) {
    super('service_unavailable', `${method} needs the ${service} service, which this node has not configured`, {
      service,
      reason: 'service_not_configured',
    });
    this.service = service;
  }
}

/** -40004: the seed's "Block not found". */
export class BlockNotFoundError extends RpcError {
  constructor(what: string) {
    super('block_not_found', `Block not found: ${what}`, { reason: 'block_not_found' });
  }
}

/** An unknown transaction hash. The seed has no code for it: -32000 (Server error), like Bitcoin Core's -5. */
export class TransactionNotFoundError extends RpcError {
  constructor(hash: string) {
    super('transaction_not_found', `Transaction not found: ${hash} is neither in the mempool nor in the chain`, {
      reason: 'transaction_not_found',
      hash,
    });
  }
}

/**
 * Data this node had and deleted with the blocks below its pruning point (docs/storage.md "Pruning"). -32000 with
 * reason `data_pruned`, HTTP 410: not "not found" — it exists, and an archive node (`--archive`) serves it.
 */
export class DataPrunedError extends RpcError {
  constructor(what: string, pruningPoint: { readonly hash: string; readonly blueScore: number }) {
    super('data_pruned', `${what} is pruned: this node keeps bodies, transactions and state only from its pruning point ${pruningPoint.hash} (blue score ${pruningPoint.blueScore}) on; ask an archive node`, {
      reason: 'data_pruned',
      pruning_point: pruningPoint.hash,
      pruning_point_blue_score: pruningPoint.blueScore,
    });
  }
}

/** A transaction that is known but in no block yet (pending): nothing to prove inclusion against. -32000. */
export class TransactionPendingError extends RpcError {
  constructor(hash: string) {
    super('transaction_pending', `Transaction ${hash} is pending: it is in no block yet, so there is no inclusion proof`, {
      reason: 'transaction_pending',
      hash,
    });
  }
}

/** -40001: the seed's "Insufficient balance". */
export class InsufficientBalanceError extends RpcError {
  constructor(available: string, needed: string) {
    super('insufficient_balance', `Insufficient balance: ${available} coins available, ${needed} needed`, {
      reason: 'insufficient_balance',
      available,
      needed,
    });
  }
}

/** -40003: the seed's "Transaction rejected". */
export class TransactionRejectedError extends RpcError {
  constructor(detail: string, data: Record<string, unknown> = {}) {
    super('transaction_rejected', `Transaction rejected: ${detail}`, { reason: 'rejected', ...data });
  }
}

/** -40006: a privacy feature this node does not offer (yet). */
export class PrivacyError extends RpcError {
  constructor(detail: string, reason = 'privacy_unavailable') {
    super('privacy_error', `Privacy error: ${detail}`, { reason });
  }
}

/** -40007: contract execution requested where no contract VM is available. */
export class SmartContractError extends RpcError {
  constructor(detail: string) {
    super('smart_contract_error', `Smart contract error: ${detail}`, { reason: 'contracts_unavailable' });
  }
}

/** -32005: a per-connection or per-client limit (subscriptions, batch size, buffered sends). */
export class LimitExceededError extends RpcError {
  constructor(detail: string, data: Record<string, unknown> = {}) {
    super('limit_exceeded', `Limit exceeded: ${detail}`, { reason: 'limit_exceeded', ...data });
  }
}

/** A request body over its route's byte limit (HTTP 413, -32600 on the wire). */
export class PayloadTooLargeError extends RpcError {
  constructor(limitBytes: number) {
    super('payload_too_large', `Invalid Request: the body is larger than ${limitBytes} bytes`, { reason: 'request_too_large', limit_bytes: limitBytes });
  }
}

/** A request that ran past the per-request time limit (HTTP 504). The handler's work is not cancelled. */
export class RequestTimeoutError extends RpcError {
  constructor(timeoutMs: number) {
    super('timeout', `Server error: the request took longer than ${timeoutMs / 1000} s`, { reason: 'request_timeout', timeout_ms: timeoutMs });
  }
}

/** An HTTP path no route serves (404; -32601 in REST bodies). */
export class RouteNotFoundError extends RpcError {
  constructor(path: string) {
    super('method_not_found', `Method not found: no route ${path}`, { reason: 'no_such_route', path });
  }
}

/** An error as every boundary sees it: its kind, that kind's row of the one table, and the JSON-RPC error object. */
export interface WireError {
  readonly kind: ErrorKind;
  readonly row: ErrorRow;
  readonly object: JsonRpcErrorObject;
}

const internal: WireError = { kind: 'internal', row: errorRow('internal'), object: { code: ErrorCode.InternalError, message: 'Internal error' } };

/**
 * Any thrown value → its wire form. WeftErrors are mapped by kind through src/errors.ts; anything else is a bug
 * or an environment failure and is answered with a bare -32603 (its text stays in the node's log, never on the wire).
 */
export function toWireError(error: unknown): WireError {
  if (!(error instanceof WeftError)) return internal;
  const row = errorRow(error.kind);
  if (!row.wire) return internal;
  const code = row.rpc;
  const standard = standardMessages[code];
  if (error instanceof RpcError) {
    const data = error.details;
    const object = { code, message: standard ?? error.message, ...(data === undefined ? {} : { data }) };
    return { kind: error.kind, row, object };
  }
  // Errors from lower layers (codecs, addresses, amounts, consensus rules): their message is already specific.
  const data: Record<string, unknown> = {};
  if (error.details !== undefined) {
    if (typeof error.details === 'object' && error.details !== null) Object.assign(data, error.details);
    else data.details = error.details;
  }
  if ('rule' in error && typeof error.rule === 'string') data.rule = error.rule;
  if (standard !== undefined) data.message = error.message;
  const hasData = Object.keys(data).length > 0;
  return { kind: error.kind, row, object: { code, message: standard ?? error.message, ...(hasData ? { data } : {}) } };
}

/** Any thrown value → a JSON-RPC error object (toWireError's `object`). */
export function toErrorObject(error: unknown): JsonRpcErrorObject {
  return toWireError(error).object;
}

/** The `reason` of a REST error body: the error's own `data.reason`, else its kind's. */
export function reasonOf(wire: WireError): string {
  const own = (wire.object.data as { reason?: unknown } | undefined)?.reason;
  return typeof own === 'string' ? own : wire.row.reason;
}
