/**
 * The node's JSON-RPC error object as a thrown error: one class per code of the node's error table (src/errors.ts,
 * the seed's Errors table plus the access-control codes), each a WeftError whose `kind` is that code's kind in the
 * table. `catch (e) { if (e instanceof BlockNotFoundError) … }`, or switch on `e.kind` / `e.code`.
 */
import { ErrorCode, kindOfRpcCode, WeftError, type ErrorKind } from '../../../src/errors.ts';

/** A JSON-RPC error answer, kept whole: the method called, the node's `code`, `message` and `data`. */
export class RpcCallError extends WeftError {
  readonly data: unknown;
  readonly method: string;
  /** The code on the wire (an unknown code keeps its number; its kind is then `server_error`). */
  readonly rpcCode: number;
  constructor(method: string, code: number, message: string, data: unknown) {
    super(kindOfRpcCode(code), `${method}: ${message}`, { details: data });
    this.data = data;
    this.method = method;
    this.rpcCode = code;
  }

  override get code(): number {
    return this.rpcCode;
  }
}

export class ParseError extends RpcCallError {}
export class InvalidRequestError extends RpcCallError {}
export class MethodNotFoundError extends RpcCallError {}
export class InvalidParamsError extends RpcCallError {}
export class InternalError extends RpcCallError {}
export class ServerError extends RpcCallError {}
export class UnauthorizedError extends RpcCallError {}
export class ForbiddenError extends RpcCallError {}
export class LimitExceededError extends RpcCallError {}
export class InsufficientBalanceError extends RpcCallError {}
export class InvalidAddressError extends RpcCallError {}
export class TransactionRejectedError extends RpcCallError {}
export class BlockNotFoundError extends RpcCallError {}
export class MiningError extends RpcCallError {}
export class PrivacyError extends RpcCallError {}
export class SmartContractError extends RpcCallError {}

type RpcErrorClass = new (method: string, code: number, message: string, data: unknown) => RpcCallError;

/** The class of each code's kind: every code in ErrorCode has one (test: packages/client/test/errors.test.ts). */
export const rpcErrorClasses: Readonly<Partial<Record<ErrorKind, RpcErrorClass>>> = {
  parse_error: ParseError,
  invalid_request: InvalidRequestError,
  method_not_found: MethodNotFoundError,
  invalid_params: InvalidParamsError,
  internal: InternalError,
  server_error: ServerError,
  unauthorized: UnauthorizedError,
  forbidden: ForbiddenError,
  limit_exceeded: LimitExceededError,
  insufficient_balance: InsufficientBalanceError,
  invalid_address: InvalidAddressError,
  transaction_rejected: TransactionRejectedError,
  block_not_found: BlockNotFoundError,
  mining_error: MiningError,
  privacy_error: PrivacyError,
  smart_contract_error: SmartContractError,
};

/** The node's error object → the class of its code's kind (an unknown code: ServerError, kind `server_error`). */
export function rpcCallError(method: string, code: number, message: string, data?: unknown): RpcCallError {
  const ErrorClass = rpcErrorClasses[kindOfRpcCode(code)] ?? ServerError;
  return new ErrorClass(method, code, message, data);
}

/** A call the node never answered (timeout, closed socket): -32603 on the client's side. */
export const noAnswer = (method: string, why: string): RpcCallError => rpcCallError(method, ErrorCode.InternalError, why, null);

/** An answer the client refused to read (too long, not JSON): -32700 on the client's side. */
export const refusedAnswer = (method: string, why: string): RpcCallError => rpcCallError(method, ErrorCode.ParseError, `refused the node's ${why}`, null);
