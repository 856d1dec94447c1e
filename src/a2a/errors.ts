/**
 * A2A errors (A2A 1.0.1 §5.4 and the agent seed's table). Each carries its JSON-RPC code, the google.rpc.ErrorInfo
 * `reason` (domain "a2a-protocol.org", or "weft.dev" for the chain extension's codes), the HTTP status of the
 * HTTP+JSON binding (spec 1.0.1: 404/400/500) and the gRPC status code. Every binding maps an A2aError once:
 * JSON-RPC `error.data` = [ErrorInfo], REST body = google.rpc.Status, gRPC status + message.
 */
import { ErrorCode, WeftError } from '../errors.ts';

export const A2aErrorCode = {
  TaskNotFound: -32001,
  TaskNotCancelable: -32002,
  PushNotificationNotSupported: -32003,
  UnsupportedOperation: -32004,
  ContentTypeNotSupported: -32005,
  InvalidAgentResponse: -32006,
  ExtendedAgentCardNotConfigured: -32007,
  ExtensionSupportRequired: -32008,
  VersionNotSupported: -32009,
  ChainIdentityVerificationFailed: -32100,
  ChainSignatureInvalid: -32101,
  ChainSessionKeyExpired: -32102,
  ChainAccountFrozen: -32103,
  ChainEscrowFailed: -32104,
} as const;

/** gRPC status codes (google.rpc.Code) used by the mapping. */
export const GrpcCode = {
  InvalidArgument: 3,
  NotFound: 5,
  PermissionDenied: 7,
  FailedPrecondition: 9,
  Unimplemented: 12,
  Internal: 13,
  Unauthenticated: 16,
} as const;

interface ErrorKind {
  readonly reason: string;
  readonly http: number;
  readonly grpc: number;
  readonly domain: string;
}

const a2aDomain = 'a2a-protocol.org';
const weftDomain = 'weft.dev';

const kinds: Record<number, ErrorKind> = {
  [ErrorCode.ParseError]: { reason: 'PARSE_ERROR', http: 400, grpc: GrpcCode.InvalidArgument, domain: a2aDomain },
  [ErrorCode.InvalidRequest]: { reason: 'INVALID_REQUEST', http: 400, grpc: GrpcCode.InvalidArgument, domain: a2aDomain },
  [ErrorCode.MethodNotFound]: { reason: 'METHOD_NOT_FOUND', http: 404, grpc: GrpcCode.Unimplemented, domain: a2aDomain },
  [ErrorCode.InvalidParams]: { reason: 'INVALID_PARAMS', http: 400, grpc: GrpcCode.InvalidArgument, domain: a2aDomain },
  [ErrorCode.InternalError]: { reason: 'INTERNAL', http: 500, grpc: GrpcCode.Internal, domain: a2aDomain },
  [A2aErrorCode.TaskNotFound]: { reason: 'TASK_NOT_FOUND', http: 404, grpc: GrpcCode.NotFound, domain: a2aDomain },
  [A2aErrorCode.TaskNotCancelable]: { reason: 'TASK_NOT_CANCELABLE', http: 400, grpc: GrpcCode.FailedPrecondition, domain: a2aDomain },
  [A2aErrorCode.PushNotificationNotSupported]: { reason: 'PUSH_NOTIFICATION_NOT_SUPPORTED', http: 400, grpc: GrpcCode.FailedPrecondition, domain: a2aDomain },
  [A2aErrorCode.UnsupportedOperation]: { reason: 'UNSUPPORTED_OPERATION', http: 400, grpc: GrpcCode.FailedPrecondition, domain: a2aDomain },
  [A2aErrorCode.ContentTypeNotSupported]: { reason: 'CONTENT_TYPE_NOT_SUPPORTED', http: 400, grpc: GrpcCode.InvalidArgument, domain: a2aDomain },
  [A2aErrorCode.InvalidAgentResponse]: { reason: 'INVALID_AGENT_RESPONSE', http: 500, grpc: GrpcCode.Internal, domain: a2aDomain },
  [A2aErrorCode.ExtendedAgentCardNotConfigured]: { reason: 'EXTENDED_AGENT_CARD_NOT_CONFIGURED', http: 400, grpc: GrpcCode.FailedPrecondition, domain: a2aDomain },
  [A2aErrorCode.ExtensionSupportRequired]: { reason: 'EXTENSION_SUPPORT_REQUIRED', http: 400, grpc: GrpcCode.FailedPrecondition, domain: a2aDomain },
  [A2aErrorCode.VersionNotSupported]: { reason: 'VERSION_NOT_SUPPORTED', http: 400, grpc: GrpcCode.FailedPrecondition, domain: a2aDomain },
  [A2aErrorCode.ChainIdentityVerificationFailed]: { reason: 'CHAIN_IDENTITY_VERIFICATION_FAILED', http: 401, grpc: GrpcCode.Unauthenticated, domain: weftDomain },
  [A2aErrorCode.ChainSignatureInvalid]: { reason: 'CHAIN_SIGNATURE_INVALID', http: 401, grpc: GrpcCode.Unauthenticated, domain: weftDomain },
  [A2aErrorCode.ChainSessionKeyExpired]: { reason: 'CHAIN_SESSION_KEY_EXPIRED', http: 401, grpc: GrpcCode.Unauthenticated, domain: weftDomain },
  [A2aErrorCode.ChainAccountFrozen]: { reason: 'CHAIN_ACCOUNT_FROZEN', http: 403, grpc: GrpcCode.PermissionDenied, domain: weftDomain },
  [A2aErrorCode.ChainEscrowFailed]: { reason: 'CHAIN_ESCROW_FAILED', http: 400, grpc: GrpcCode.FailedPrecondition, domain: weftDomain },
};

/** Authentication failures carry no A2A code (spec §7.4): -32000 with these reasons, HTTP 401/403. */
const authKinds: Record<string, ErrorKind> = {
  UNAUTHENTICATED: { reason: 'UNAUTHENTICATED', http: 401, grpc: GrpcCode.Unauthenticated, domain: weftDomain },
  PERMISSION_DENIED: { reason: 'PERMISSION_DENIED', http: 403, grpc: GrpcCode.PermissionDenied, domain: weftDomain },
};

const httpStatusNames: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  500: 'INTERNAL',
};

export class A2aError extends WeftError {
  readonly kind: ErrorKind;
  /** google.rpc.ErrorInfo.metadata: string values only. */
  readonly metadata: Record<string, string>;

  constructor(code: number, message: string, metadata: Record<string, string> = {}, authReason?: keyof typeof authKinds) {
    super(code, message, { details: metadata });
    this.kind = (authReason ? authKinds[authReason] : kinds[code]) ?? kinds[ErrorCode.InternalError]!;
    this.metadata = metadata;
  }

  errorInfo(): JsonErrorInfo {
    const info: JsonErrorInfo = { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: this.kind.reason, domain: this.kind.domain };
    return Object.keys(this.metadata).length > 0 ? { ...info, metadata: this.metadata } : info;
  }
}

export interface JsonErrorInfo {
  readonly '@type': 'type.googleapis.com/google.rpc.ErrorInfo';
  readonly reason: string;
  readonly domain: string;
  readonly metadata?: Record<string, string>;
}

export const taskNotFound = (id: string) => new A2aError(A2aErrorCode.TaskNotFound, `task not found: ${id}`, { taskId: id });
export const invalidParams = (message: string, field?: string) =>
  new A2aError(ErrorCode.InvalidParams, message, field === undefined ? {} : { field });
export const unsupportedOperation = (message: string) => new A2aError(A2aErrorCode.UnsupportedOperation, message);
export const unauthenticated = (message: string) => new A2aError(ErrorCode.ServerError, message, {}, 'UNAUTHENTICATED');
export const permissionDenied = (message: string) => new A2aError(ErrorCode.ServerError, message, {}, 'PERMISSION_DENIED');

/** Any thrown value as an A2aError: WeftErrors keep code and message, anything else is an internal error. */
export function toA2aError(error: unknown): A2aError {
  if (error instanceof A2aError) return error;
  if (error instanceof WeftError) return new A2aError(error.code, error.message);
  return new A2aError(ErrorCode.InternalError, 'internal error');
}

/** The JSON-RPC error object: code, message and `data` = [google.rpc.ErrorInfo]. */
export function jsonRpcErrorObject(error: A2aError): { code: number; message: string; data: JsonErrorInfo[] } {
  return { code: error.code, message: error.message, data: [error.errorInfo()] };
}

/** The HTTP+JSON error body (google.rpc.Status, AIP-193) and its HTTP status. */
export function restErrorBody(error: A2aError): { status: number; body: { error: { code: number; status: string; message: string; details: JsonErrorInfo[] } } } {
  const status = error.kind.http;
  return { status, body: { error: { code: status, status: httpStatusNames[status] ?? 'UNKNOWN', message: error.message, details: [error.errorInfo()] } } };
}
