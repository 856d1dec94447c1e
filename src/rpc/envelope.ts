/**
 * The JSON-RPC 2.0 envelope (§4–§6 of the spec), transport-neutral: one request or a batch, each call's `jsonrpc`,
 * `id`, `method` and `params` checked, batch bounds applied. Used by the node's dispatcher (src/rpc/dispatcher.ts:
 * HTTP, WebSocket) and by A2A's JSON-RPC binding (server/a2a/dispatch.ts: HTTP, WebSocket), each with its own rules.
 * It parses nothing of a method's params: that is the method's zod schema (node) or handler (A2A).
 */
import { rpcBatchCallsMax } from '../limits.ts';
import { InvalidParamsError, InvalidRequestError, ParseError, type RpcError } from './errors.ts';
import type { JsonRpcId } from './method.ts';

export type { JsonRpcId } from './method.ts';

export interface EnvelopeRules {
  /** Largest batch; 0 refuses batches (A2A). */
  readonly batchCallsMax: number;
  /** Params by position (an array) are allowed; otherwise only an object. */
  readonly positionalParams: boolean;
  /** Params of the wrong type: -32600 (JSON-RPC 2.0 §4.2, the node) or -32602 (A2A's binding). */
  readonly paramsError: 'invalid_request' | 'invalid_params';
  /** POST `/`: a body without `jsonrpc` and `id` is a call that still gets an answer (id null). */
  readonly publicFlow?: boolean;
}

/** The node's rules (JSON-RPC over HTTP and WebSocket). */
export const nodeEnvelopeRules: EnvelopeRules = { batchCallsMax: rpcBatchCallsMax, positionalParams: true, paramsError: 'invalid_request' };

/** One well-formed call. */
export interface RpcCall {
  readonly id: JsonRpcId;
  readonly method: string;
  /** As sent: an object, an array (positional) or undefined. */
  readonly params: unknown;
  /** No `id` (and not a public-flow call): nothing is answered, not even an error. */
  readonly notification: boolean;
}

/** A call, or why it is not one (answered with the id that could be read, else null). */
export type CallEntry = { readonly ok: true; readonly call: RpcCall } | { readonly ok: false; readonly error: RpcError; readonly id: JsonRpcId };

export type Envelope =
  | { readonly kind: 'single'; readonly entry: CallEntry }
  | { readonly kind: 'batch'; readonly entries: readonly CallEntry[] }
  /** The request as a whole is refused (not JSON, an empty or too large batch, a batch where none is allowed): id null. */
  | { readonly kind: 'invalid'; readonly error: RpcError };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is JsonRpcId => v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/** One request object of a single call or a batch. */
function parseCall(request: unknown, rules: EnvelopeRules): CallEntry {
  if (!isObject(request)) return { ok: false, error: new InvalidRequestError('a request must be a JSON object'), id: null };
  const hasId = 'id' in request;
  const publicCall = rules.publicFlow === true && !('jsonrpc' in request) && !hasId;
  if (hasId && !isId(request.id)) return { ok: false, error: new InvalidRequestError('id must be a string, a number or null'), id: null };
  const id = hasId ? (request.id as JsonRpcId) : null;
  if (!publicCall && request.jsonrpc !== '2.0') return { ok: false, error: new InvalidRequestError('jsonrpc must be exactly "2.0"'), id };
  if (typeof request.method !== 'string') return { ok: false, error: new InvalidRequestError('method must be a string'), id };
  const params = request.params;
  if (params !== undefined) {
    const structured = typeof params === 'object' && params !== null && (rules.positionalParams || !Array.isArray(params));
    if (!structured) {
      const expected = rules.positionalParams ? 'params must be an object or an array' : 'params must be an object';
      return { ok: false, error: rules.paramsError === 'invalid_params' ? new InvalidParamsError(expected) : new InvalidRequestError(expected), id };
    }
  }
  return { ok: true, call: { id, method: request.method, params, notification: !hasId && !publicCall } };
}

/** A parsed JSON payload → the envelope. */
export function parseEnvelope(payload: unknown, rules: EnvelopeRules): Envelope {
  if (!Array.isArray(payload)) return { kind: 'single', entry: parseCall(payload, rules) };
  if (rules.batchCallsMax === 0) return { kind: 'invalid', error: new InvalidRequestError('batches are not supported by this endpoint') };
  if (payload.length === 0) return { kind: 'invalid', error: new InvalidRequestError('an empty batch is not a request') };
  if (payload.length > rules.batchCallsMax) {
    return { kind: 'invalid', error: new InvalidRequestError(`a batch holds at most ${rules.batchCallsMax} calls, got ${payload.length}`) };
  }
  return { kind: 'batch', entries: payload.map((request) => parseCall(request, rules)) };
}

/** Request text → the envelope; text that is not JSON is a -32700 for the whole request. */
export function parseEnvelopeText(text: string, rules: EnvelopeRules): Envelope {
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch (error) {
    return { kind: 'invalid', error: new ParseError(error instanceof SyntaxError ? error.message : 'invalid JSON') };
  }
  return parseEnvelope(payload, rules);
}

/** The id a refusal of the whole request is answered with: a single call's id, else null. */
export function envelopeId(envelope: Envelope): JsonRpcId {
  return envelope.kind === 'single' ? (envelope.entry.ok ? envelope.entry.call.id : envelope.entry.id) : null;
}
