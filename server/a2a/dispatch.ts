/**
 * JSON-RPC 2.0 dispatch of the A2A methods, shared by the HTTP endpoint and the WebSocket: parses the envelope,
 * names the handler member from `a2aMethods`, and returns a plain result, an error, or a stream subscription for
 * the binding to frame (SSE events or WebSocket messages, each a JSON-RPC response with the request's id).
 */
import { ErrorCode } from '../../src/errors.ts';
import { A2aError, jsonRpcErrorObject, toA2aError } from '../../src/a2a/errors.ts';
import { a2aMethods, type A2aHandler, type CallContext } from '../../src/a2a/handler.ts';
import type { Subscription } from '../../src/a2a/stream-hub.ts';

export type JsonRpcId = string | number | null;

export type RpcOutcome =
  | { readonly kind: 'result'; readonly id: JsonRpcId; readonly result: unknown }
  | { readonly kind: 'error'; readonly id: JsonRpcId; readonly error: A2aError }
  | { readonly kind: 'stream'; readonly id: JsonRpcId; readonly subscription: Subscription }
  /** A notification (no id): nothing is sent back. */
  | { readonly kind: 'none' };

export interface Envelope {
  readonly id: JsonRpcId;
  readonly method: string;
  readonly params: unknown;
  readonly notification: boolean;
}

/** Checks the JSON-RPC 2.0 request object; throws -32600 with the id when one could be read. */
export function parseEnvelope(message: unknown): Envelope {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    throw Object.assign(new A2aError(ErrorCode.InvalidRequest, Array.isArray(message) ? 'batches are not supported by the A2A endpoint' : 'expected a JSON-RPC request object'), { rpcId: null });
  }
  const m = message as Record<string, unknown>;
  const id = m.id;
  const validId = id === undefined || id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
  const rpcId: JsonRpcId = validId && id !== undefined ? (id as JsonRpcId) : null;
  if (m.jsonrpc !== '2.0' || typeof m.method !== 'string' || !validId) {
    throw Object.assign(new A2aError(ErrorCode.InvalidRequest, 'expected {"jsonrpc":"2.0","method":string,"id":string|number}'), { rpcId });
  }
  if (m.params !== undefined && (typeof m.params !== 'object' || m.params === null || Array.isArray(m.params))) {
    throw Object.assign(new A2aError(ErrorCode.InvalidParams, 'params: expected an object'), { rpcId });
  }
  return { id: rpcId, method: m.method, params: m.params ?? {}, notification: id === undefined };
}

export function envelopeId(error: unknown): JsonRpcId {
  return (error as { rpcId?: JsonRpcId }).rpcId ?? null;
}

export async function dispatch(handler: A2aHandler, envelope: Envelope, ctx: CallContext): Promise<RpcOutcome> {
  const { id } = envelope;
  const entry = (a2aMethods as Record<string, { op: keyof A2aHandler; stream: boolean }>)[envelope.method];
  try {
    if (!entry) throw new A2aError(ErrorCode.MethodNotFound, `method ${envelope.method}: not found`, { method: envelope.method });
    const fn = handler[entry.op] as (params: unknown, ctx: CallContext) => Promise<unknown>;
    const value = await fn(envelope.params, ctx);
    if (envelope.notification) {
      if (entry.stream) (value as Subscription).close();
      return { kind: 'none' };
    }
    return entry.stream ? { kind: 'stream', id, subscription: value as Subscription } : { kind: 'result', id, result: value };
  } catch (error) {
    return envelope.notification ? { kind: 'none' } : { kind: 'error', id, error: toA2aError(error) };
  }
}

export const rpcResult = (id: JsonRpcId, result: unknown) => ({ jsonrpc: '2.0' as const, id, result });
export const rpcError = (id: JsonRpcId, error: A2aError) => ({ jsonrpc: '2.0' as const, id, error: jsonRpcErrorObject(error) });
