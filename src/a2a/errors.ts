/**
 * A2A errors (A2A 1.0.1 §5.4 and the agent seed's table) as a view of the one error table (src/errors.ts): an
 * A2aError is a WeftError whose kind's row gives the A2A JSON-RPC code (A2A's numbering, `row.a2a.rpc`), the
 * google.rpc.ErrorInfo `reason` and domain ("a2a-protocol.org", or "weft.dev" for the node's and the chain
 * extension's kinds), the HTTP status of the HTTP+JSON binding and the gRPC status code. Every binding maps an
 * error once: JSON-RPC `error.data` = [ErrorInfo], REST body = google.rpc.Status, gRPC status + message.
 */
import { errorRow, WeftError, type ErrorKind, type ErrorRow } from '../errors.ts';

/** Status names of google.rpc.Status bodies, by HTTP status. */
const httpStatusNames: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  413: 'RESOURCE_EXHAUSTED',
  422: 'FAILED_PRECONDITION',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

export class A2aError extends WeftError {
  /** google.rpc.ErrorInfo.metadata: string values only. */
  readonly metadata: Record<string, string>;

  constructor(kind: ErrorKind, message: string, metadata: Record<string, string> = {}) {
    super(kind, message, { details: metadata });
    this.metadata = metadata;
  }

  /** This error's row of the one table. */
  get row(): ErrorRow {
    return errorRow(this.kind);
  }

  /** The JSON-RPC code in A2A's numbering (A2A's -32001… differ from the node's). */
  override get code(): number {
    return this.row.a2a.rpc;
  }

  errorInfo(): JsonErrorInfo {
    const info: JsonErrorInfo = { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: this.row.a2a.reason, domain: this.row.a2a.domain };
    return Object.keys(this.metadata).length > 0 ? { ...info, metadata: this.metadata } : info;
  }
}

export interface JsonErrorInfo {
  readonly '@type': 'type.googleapis.com/google.rpc.ErrorInfo';
  readonly reason: string;
  readonly domain: string;
  readonly metadata?: Record<string, string>;
}

export const taskNotFound = (id: string) => new A2aError('task_not_found', `task not found: ${id}`, { taskId: id });
export const invalidParams = (message: string, field?: string) => new A2aError('invalid_params', message, field === undefined ? {} : { field });
export const unsupportedOperation = (message: string) => new A2aError('unsupported_operation', message);
export const unauthenticated = (message: string) => new A2aError('unauthorized', message);
/** An executor broke the protocol or the task lifecycle (the runner refuses the event). */
export const invalidAgentResponse = (message: string) => new A2aError('invalid_agent_response', message);

/**
 * Any thrown value as an A2aError: WeftErrors keep kind and message (the node's errors — an unknown API key, a
 * missing scope, a rate limit — take their kind's A2A presentation), anything else is an internal error.
 */
export function toA2aError(error: unknown): A2aError {
  if (error instanceof A2aError) return error;
  if (error instanceof WeftError) return new A2aError(errorRow(error.kind).wire ? error.kind : 'internal', error.message);
  return new A2aError('internal', 'internal error');
}

/** The JSON-RPC error object: code, message and `data` = [google.rpc.ErrorInfo]. */
export function jsonRpcErrorObject(error: A2aError): { code: number; message: string; data: JsonErrorInfo[] } {
  return { code: error.code, message: error.message, data: [error.errorInfo()] };
}

/** The HTTP+JSON error body (google.rpc.Status, AIP-193) and its HTTP status. */
export function restErrorBody(error: A2aError): { status: number; body: { error: { code: number; status: string; message: string; details: JsonErrorInfo[] } } } {
  const status = error.row.http;
  return { status, body: { error: { code: status, status: httpStatusNames[status] ?? 'UNKNOWN', message: error.message, details: [error.errorInfo()] } } };
}
