/**
 * The transport-agnostic JSON-RPC 2.0 engine. A request goes through four steps, each once:
 *
 *   1. the envelope (src/rpc/envelope.ts): JSON, single call or batch, `jsonrpc`/`id`/`method`/`params`, bounds;
 *   2. a refusal decided before dispatch by the transport (bad credentials, a rate limit) answers the whole request;
 *   3. per call: the method's declared `scope` is checked against the caller's identity, its params are parsed once
 *      with its zod schema; a method that declares `scopeOf(params)` is checked on its parsed params instead (its
 *      declared scope then applies only to params that do not parse).
 *      A batch is checked whole before any call runs: one refused call refuses the batch (docs/auth.md);
 *   4. the calls run, and every failure maps to one error object through the error table (errors.ts).
 *
 * Transports hand it parsed JSON or raw text and get back what to send, or nothing (notifications), and the
 * refusal, if any, to give its HTTP status and challenges. JSON-RPC 2.0 §4–§6; the public flow at `/` (seed: body
 * with `method` and `params` only) answers with id null.
 */
import { authorizeScope, type Identity } from '../auth/identity.ts';
import { ErrorCode, WeftError, rpcCodeOf } from '../errors.ts';
import { MethodNotFoundError, toErrorObject, type JsonRpcErrorObject } from './errors.ts';
import { envelopeId, nodeEnvelopeRules, parseEnvelope, parseEnvelopeText, type CallEntry, type Envelope, type EnvelopeRules, type RpcCall } from './envelope.ts';
import { stringifyJson } from './json.ts';
import type { AnyRpcMethod, JsonRpcId, RpcCallContext, RpcTransport, SubscriptionScope } from './method.ts';
import { rpcMethods } from './method-table.ts';
import { buildOpenRpc } from './openrpc.ts';
import { parseParams } from './params.ts';
import type { RpcServices } from './ports.ts';

export type JsonRpcResponse =
  | { readonly jsonrpc: '2.0'; readonly result: unknown; readonly id: JsonRpcId }
  | { readonly jsonrpc: '2.0'; readonly error: JsonRpcErrorObject; readonly id: JsonRpcId };

export interface AccessContext {
  /**
   * Who is calling, where the transport runs access control: each call's scope is checked against it (401 for an
   * anonymous caller, 403 for credentials without the scope). Absent: the node runs without access control.
   */
  readonly identity?: Identity;
  /** A refusal the transport decided before dispatch (bad credentials, a rate limit): it answers the whole request. */
  readonly refusal?: WeftError;
}

export interface EnvelopeContext extends AccessContext {
  readonly transport: RpcTransport;
  readonly subscriptions?: SubscriptionScope;
  /** POST `/`: a body without `jsonrpc` and `id` is a call that still gets an answer (id null). */
  readonly publicFlow?: boolean;
}

type CallContext = Omit<RpcCallContext, 'services' | 'scopes'> & AccessContext;

/** What to send back, and the refusal (access, rate limit) the whole request was answered with, if any. */
export interface DispatchResult {
  readonly answer: JsonRpcResponse | JsonRpcResponse[] | undefined;
  readonly refused?: WeftError;
}

/** Called once per call: method ('' when the envelope failed first), error code or 0, seconds taken. */
export type CallObserver = (method: string, code: number, seconds: number, transport: RpcTransport) => void;

export interface Dispatcher {
  readonly services: RpcServices;
  readonly methods: ReadonlyMap<string, AnyRpcMethod>;
  /** One call by name; throws the error it fails with (refusals included). gRPC and REST use this directly. */
  call(method: string, params: unknown, ctx: CallContext): Promise<unknown>;
  /** A parsed JSON payload → the response(s), and the refusal if the request was refused as a whole. */
  dispatch(payload: unknown, ctx: EnvelopeContext): Promise<DispatchResult>;
  /** Raw text → the same; text that is not JSON is -32700. */
  dispatchText(text: string, ctx: EnvelopeContext): Promise<DispatchResult>;
  /** Step 4 for a request already prepared (`prepareRequest`, with this dispatcher's `methods`). */
  run(request: PreparedRequest, ctx: EnvelopeContext): Promise<DispatchResult>;
  /** A parsed JSON payload → the response(s), or undefined when nothing is to be sent. */
  handle(payload: unknown, ctx: EnvelopeContext): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined>;
  /** Raw text → response text, or undefined. */
  handleText(text: string, ctx: EnvelopeContext): Promise<string | undefined>;
}

export interface DispatcherOptions {
  readonly services: RpcServices;
  readonly version: string;
  readonly methods?: readonly AnyRpcMethod[];
  readonly observe?: CallObserver;
  /** Unexpected (non-Weft) errors: the node logs them; the wire only sees -32603. */
  readonly onInternalError?: (method: string, error: unknown) => void;
}

/** A call whose access was checked and whose params were parsed: it only has to run. */
type PreparedCall =
  | { readonly ok: true; readonly call: RpcCall; readonly method: AnyRpcMethod | undefined; readonly params: unknown }
  | { readonly ok: false; readonly call: RpcCall | undefined; readonly id: JsonRpcId; readonly error: unknown };

/**
 * A request after steps 1–3: either answered already (an invalid envelope, or a refusal of the whole request), or
 * calls ready to run. Transports that must decide before running (the WebSocket guard) prepare, then `run`.
 */
export type PreparedRequest =
  | { readonly kind: 'answer'; readonly answer: JsonRpcResponse; readonly error: WeftError; readonly refused: boolean }
  | { readonly kind: 'calls'; readonly single: boolean; readonly calls: readonly PreparedCall[] };

const refusalKinds = new Set(['unauthorized', 'forbidden']);
const defaultMethods: ReadonlyMap<string, AnyRpcMethod> = new Map(rpcMethods.map((m) => [m.name, m] as const));

const failure = (error: unknown, id: JsonRpcId): JsonRpcResponse => ({ jsonrpc: '2.0', error: toErrorObject(error), id });

/**
 * Step 3a–3c for one call: the declared scope, the params, the params' scope. Throws the refusal or -32601/-32602.
 * Returns the method (undefined for rpc.discover) and its parsed params.
 */
function prepareCall(methods: ReadonlyMap<string, AnyRpcMethod>, name: string, params: unknown, identity: Identity | undefined): { method: AnyRpcMethod | undefined; params: unknown } {
  if (name === 'rpc.discover') return { method: undefined, params: undefined };
  const method = methods.get(name);
  // A method whose need depends on its params (scopeOf) is checked on them alone, so a need below the declared
  // scope (call_smart_contract's public dry run) is honoured; params that do not parse meet the declared scope first.
  if (identity !== undefined && method?.scopeOf === undefined) authorizeScope(identity, name, method?.scope ?? 'public');
  if (method === undefined) throw new MethodNotFoundError(name);
  let parsed: unknown;
  try {
    parsed = parseParams(method, params);
  } catch (error) {
    if (identity !== undefined) authorizeScope(identity, name, method.scope);
    throw error;
  }
  if (identity !== undefined && method.scopeOf !== undefined) authorizeScope(identity, name, method.scopeOf(parsed as never));
  return { method, params: parsed };
}

function prepareEntry(methods: ReadonlyMap<string, AnyRpcMethod>, entry: CallEntry, identity: Identity | undefined): PreparedCall {
  if (!entry.ok) return { ok: false, call: undefined, id: entry.id, error: entry.error };
  try {
    return { ok: true, call: entry.call, ...prepareCall(methods, entry.call.method, entry.call.params, identity) };
  } catch (error) {
    return { ok: false, call: entry.call, id: entry.call.id, error };
  }
}

/**
 * Steps 2–3 for a parsed envelope: the transport's refusal (before anything else, even a -32600), then every
 * call's access and params. Access is all or
 * nothing: a call refused for its scope refuses the whole request (a batch runs whole or not at all), answered
 * with the single call's id, or null for a batch.
 */
export function prepareRequest(envelope: Envelope, access: AccessContext, methods: ReadonlyMap<string, AnyRpcMethod> = defaultMethods): PreparedRequest {
  const refuse = (error: WeftError): PreparedRequest => ({ kind: 'answer', answer: failure(error, envelopeId(envelope)), error, refused: true });
  if (access.refusal !== undefined) return refuse(access.refusal);
  if (envelope.kind === 'invalid') return { kind: 'answer', answer: failure(envelope.error, null), error: envelope.error, refused: false };
  const entries = envelope.kind === 'single' ? [envelope.entry] : envelope.entries;
  const calls = entries.map((entry) => prepareEntry(methods, entry, access.identity));
  for (const p of calls) {
    if (!p.ok && p.error instanceof WeftError && refusalKinds.has(p.error.kind)) return refuse(p.error);
  }
  return { kind: 'calls', single: envelope.kind === 'single', calls };
}

export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { services, observe } = options;
  const methods = new Map((options.methods ?? rpcMethods).map((m) => [m.name, m] as const));
  let openRpc: Record<string, unknown> | undefined;

  const execute = async (name: string, method: AnyRpcMethod | undefined, params: unknown, ctx: RpcCallContext): Promise<unknown> => {
    if (method === undefined) {
      openRpc ??= buildOpenRpc([...methods.values()], { version: options.version, network: services.chain.params.name });
      return openRpc;
    }
    const result = await method.run(params, ctx);
    return result === undefined ? null : result;
  };

  const observed = (name: string, error: unknown, began: number, transport: RpcTransport): void => {
    if (error !== undefined && !(error instanceof WeftError)) options.onInternalError?.(name, error);
    const code = error === undefined ? 0 : rpcCodeOf(error);
    observe?.(methods.has(name) || name === 'rpc.discover' ? name : '(unknown)', code, (performance.now() - began) / 1000, transport);
  };

  const callContext = (ctx: EnvelopeContext | CallContext, id: JsonRpcId | undefined): RpcCallContext => ({
    services,
    transport: ctx.transport,
    id,
    ...(ctx.subscriptions ? { subscriptions: ctx.subscriptions } : {}),
    ...(ctx.identity ? { scopes: ctx.identity.scopes } : {}),
  });

  const runPrepared = async (prepared: PreparedCall, ctx: EnvelopeContext): Promise<JsonRpcResponse | undefined> => {
    if (!prepared.ok) {
      if (prepared.call !== undefined) observed(prepared.call.method, prepared.error, performance.now(), ctx.transport);
      return prepared.call?.notification ? undefined : failure(prepared.error, prepared.id);
    }
    const call = prepared.call;
    const began = performance.now();
    try {
      const result = await execute(call.method, prepared.method, prepared.params, callContext(ctx, call.notification ? undefined : call.id));
      observed(call.method, undefined, began, ctx.transport);
      return call.notification ? undefined : { jsonrpc: '2.0', result, id: call.id };
    } catch (error) {
      observed(call.method, error, began, ctx.transport);
      return call.notification ? undefined : failure(error, call.id);
    }
  };

  const run: Dispatcher['run'] = async (request, ctx) => {
    if (request.kind === 'answer') {
      if (request.error.kind === 'parse_error') observe?.('', ErrorCode.ParseError, 0, ctx.transport);
      return request.refused ? { answer: request.answer, refused: request.error } : { answer: request.answer };
    }
    if (request.single) return { answer: await runPrepared(request.calls[0]!, ctx) };
    const answers = await Promise.all(request.calls.map((p) => runPrepared(p, ctx)));
    const responses = answers.filter((a): a is JsonRpcResponse => a !== undefined);
    return { answer: responses.length === 0 ? undefined : responses };
  };

  const dispatchEnvelope = (envelope: Envelope, ctx: EnvelopeContext): Promise<DispatchResult> => run(prepareRequest(envelope, ctx, methods), ctx);

  const rulesOf = (ctx: EnvelopeContext): EnvelopeRules => (ctx.publicFlow ? { ...nodeEnvelopeRules, publicFlow: true } : nodeEnvelopeRules);

  const dispatch: Dispatcher['dispatch'] = (payload, ctx) => dispatchEnvelope(parseEnvelope(payload, rulesOf(ctx)), ctx);
  const dispatchText: Dispatcher['dispatchText'] = (text, ctx) => dispatchEnvelope(parseEnvelopeText(text, rulesOf(ctx)), ctx);

  return {
    services,
    methods,
    async call(name, params, ctx) {
      const began = performance.now();
      try {
        if (ctx.refusal !== undefined) throw ctx.refusal;
        const prepared = prepareCall(methods, name, params, ctx.identity);
        const result = await execute(name, prepared.method, prepared.params, callContext(ctx, ctx.id));
        observed(name, undefined, began, ctx.transport);
        return result;
      } catch (error) {
        observed(name, error, began, ctx.transport);
        throw error;
      }
    },
    dispatch,
    dispatchText,
    run,
    handle: async (payload, ctx) => (await dispatch(payload, ctx)).answer,
    async handleText(text, ctx) {
      const { answer } = await dispatchText(text, ctx);
      return answer === undefined ? undefined : stringifyJson(answer);
    },
  };
}
