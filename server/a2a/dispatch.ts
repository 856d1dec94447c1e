/**
 * JSON-RPC 2.0 dispatch of the A2A methods, shared by the HTTP endpoint and the WebSocket: parses the envelope with
 * the node's transport-neutral parser (src/rpc/envelope.ts, A2A's rules),
 * names the handler member from `a2aMethods`, and returns a plain result, an error, or a stream subscription for
 * the binding to frame (SSE events or WebSocket messages, each a JSON-RPC response with the request's id).
 */
import { parseEnvelope as parseRpcEnvelope, type EnvelopeRules } from '../../src/rpc/envelope.ts';
import { A2aError, jsonRpcErrorObject, toA2aError } from '../../src/a2a/errors.ts';
import { a2aMethods, type A2aHandler } from '../../src/a2a/handler.ts';
import type { CallContext } from '../../src/a2a/handler/state.ts';
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

/** A2A's rules for the shared envelope parser (src/rpc/envelope.ts): no batches, params by name only (-32602). */
const a2aEnvelopeRules: EnvelopeRules = { batchCallsMax: 0, positionalParams: false, paramsError: 'invalid_params' };

/** Checks the JSON-RPC 2.0 request object with the shared parser; throws its -32600/-32602 with the id when one could be read. */
export function parseEnvelope(message: unknown): Envelope {
  const envelope = parseRpcEnvelope(message, a2aEnvelopeRules);
  if (envelope.kind === 'invalid') throw Object.assign(toA2aError(envelope.error), { rpcId: null });
  if (envelope.kind !== 'single') throw Object.assign(new A2aError('invalid_request', 'batches are not supported by the A2A endpoint'), { rpcId: null });
  const entry = envelope.entry;
  if (!entry.ok) throw Object.assign(toA2aError(entry.error), { rpcId: entry.id });
  const { id, method, params, notification } = entry.call;
  return { id, method, params: params ?? {}, notification };
}

export function envelopeId(error: unknown): JsonRpcId {
  return (error as { rpcId?: JsonRpcId }).rpcId ?? null;
}

export async function dispatch(handler: A2aHandler, envelope: Envelope, ctx: CallContext): Promise<RpcOutcome> {
  const { id } = envelope;
  // Own keys only: a method named 'constructor' or '__proto__' must not find Object.prototype's members.
  const methods = a2aMethods as Record<string, { op: keyof A2aHandler; stream: boolean }>;
  const entry = Object.hasOwn(methods, envelope.method) ? methods[envelope.method] : undefined;
  try {
    if (!entry) throw new A2aError('method_not_found', `method ${envelope.method}: not found`, { method: envelope.method });
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
