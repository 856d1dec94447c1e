/**
 * The transport-agnostic JSON-RPC 2.0 engine: validates the envelope (single calls, batches, notifications, id
 * types), routes to the method table, parses params once with the method's zod schema, and maps every failure to
 * one error object (errors.ts). Transports hand it parsed JSON or raw text and get back what to send, or nothing
 * (notifications). JSON-RPC 2.0 §4–§6; the public flow at `/` (seed: body with `method` and `params` only) answers
 * with id null.
 */
import type { z } from 'zod';
import { ErrorCode, WeftError } from '../errors.ts';
import { rpcBatchCallsMax } from '../limits.ts';
import {
  InvalidParamsError,
  InvalidRequestError,
  MethodNotFoundError,
  ParseError,
  toErrorObject,
  type JsonRpcErrorObject,
  type ParamIssue,
} from './errors.ts';
import { stringifyJson } from './json.ts';
import type { AnyRpcMethod, JsonRpcId, RpcCallContext, RpcTransport, SubscriptionScope } from './method.ts';
import { rpcMethods, plannedMethods } from './method-table.ts';
import { buildOpenRpc } from './openrpc.ts';
import type { RpcServices } from './ports.ts';

export type JsonRpcResponse =
  | { readonly jsonrpc: '2.0'; readonly result: unknown; readonly id: JsonRpcId }
  | { readonly jsonrpc: '2.0'; readonly error: JsonRpcErrorObject; readonly id: JsonRpcId };

export interface EnvelopeContext {
  readonly transport: RpcTransport;
  readonly subscriptions?: SubscriptionScope;
  /** POST `/`: a body without `jsonrpc` and `id` is a call that still gets an answer (id null). */
  readonly publicFlow?: boolean;
  /** What the caller's credentials grant (RpcCallContext `scopes`). */
  readonly scopes?: ReadonlySet<string>;
}

/** Called once per executed call: method ('' when the envelope failed first), error code or 0, seconds taken. */
export type CallObserver = (method: string, code: number, seconds: number, transport: RpcTransport) => void;

export interface Dispatcher {
  readonly services: RpcServices;
  readonly methods: ReadonlyMap<string, AnyRpcMethod>;
  /** One call by name; throws the coded error. gRPC and REST use this directly. */
  call(method: string, params: unknown, ctx: Omit<RpcCallContext, 'services'>): Promise<unknown>;
  /** A parsed JSON payload → the response(s), or undefined when nothing is to be sent. */
  handle(payload: unknown, ctx: EnvelopeContext): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined>;
  /** Raw text → response text, or undefined. Parse errors become -32700. */
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

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is JsonRpcId => v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

function issuesOf(error: z.ZodError): ParamIssue[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.') || '(params)', message: issue.message }));
}

/** By-name params as given; by-position params map onto the schema's keys in declaration order. */
function namedParams(method: AnyRpcMethod, params: unknown): unknown {
  if (params === undefined) return {};
  if (!Array.isArray(params)) return params;
  const names = Object.keys(method.params.shape);
  if (params.length > names.length) {
    throw new InvalidParamsError(`${method.name} takes at most ${names.length} positional params, got ${params.length}`);
  }
  const named: Record<string, unknown> = {};
  params.forEach((value, i) => {
    if (value !== undefined && value !== null) named[names[i]!] = value;
  });
  return named;
}

export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { services, observe } = options;
  const methods = new Map((options.methods ?? rpcMethods).map((m) => [m.name, m] as const));
  let openRpc: Record<string, unknown> | undefined;

  const run = async (name: string, params: unknown, ctx: RpcCallContext): Promise<unknown> => {
    if (name === 'rpc.discover') {
      openRpc ??= buildOpenRpc([...methods.values()], { version: options.version, network: services.chain.params.name });
      return openRpc;
    }
    const method = methods.get(name);
    if (method === undefined) {
      throw new MethodNotFoundError(name, plannedMethods.has(name) ? 'not_implemented_yet' : undefined);
    }
    const parsed = method.params.safeParse(namedParams(method, params));
    if (!parsed.success) {
      const issues = issuesOf(parsed.error);
      throw new InvalidParamsError(issues.map((i) => `${i.path}: ${i.message}`).join('; '), issues);
    }
    const result = await method.run(parsed.data, ctx);
    return result === undefined ? null : result;
  };

  const timed = async (name: string, params: unknown, ctx: RpcCallContext): Promise<unknown> => {
    const began = performance.now();
    try {
      const result = await run(name, params, ctx);
      observe?.(name, 0, (performance.now() - began) / 1000, ctx.transport);
      return result;
    } catch (error) {
      const code = toErrorObject(error).code;
      if (!(error instanceof WeftError)) options.onInternalError?.(name, error);
      observe?.(methods.has(name) ? name : '(unknown)', code, (performance.now() - began) / 1000, ctx.transport);
      throw error;
    }
  };

  const failure = (error: unknown, id: JsonRpcId): JsonRpcResponse => ({ jsonrpc: '2.0', error: toErrorObject(error), id });

  const handleOne = async (request: unknown, ctx: EnvelopeContext): Promise<JsonRpcResponse | undefined> => {
    if (!isObject(request)) return failure(new InvalidRequestError('a request must be a JSON object'), null);
    const hasId = 'id' in request;
    const publicCall = ctx.publicFlow === true && !('jsonrpc' in request) && !hasId;
    const id = hasId && isId(request.id) ? request.id : null;
    if (hasId && !isId(request.id)) return failure(new InvalidRequestError('id must be a string, a number or null'), null);
    if (!publicCall && request.jsonrpc !== '2.0') return failure(new InvalidRequestError('jsonrpc must be exactly "2.0"'), id);
    if (typeof request.method !== 'string') return failure(new InvalidRequestError('method must be a string'), id);
    const params = request.params;
    if (params !== undefined && typeof params !== 'object') return failure(new InvalidRequestError('params must be an object or an array'), id);
    if (params === null) return failure(new InvalidRequestError('params must be an object or an array'), id);
    const notification = !hasId && !publicCall;
    try {
      const result = await timed(request.method, params, { services, transport: ctx.transport, id: hasId ? id : undefined, ...(ctx.subscriptions ? { subscriptions: ctx.subscriptions } : {}), ...(ctx.scopes ? { scopes: ctx.scopes } : {}) });
      return notification ? undefined : { jsonrpc: '2.0', result, id };
    } catch (error) {
      return notification ? undefined : failure(error, id);
    }
  };

  const handle: Dispatcher['handle'] = async (payload, ctx) => {
    if (!Array.isArray(payload)) return handleOne(payload, ctx);
    if (payload.length === 0) return failure(new InvalidRequestError('an empty batch is not a request'), null);
    if (payload.length > rpcBatchCallsMax) {
      return failure(new InvalidRequestError(`a batch holds at most ${rpcBatchCallsMax} calls, got ${payload.length}`), null);
    }
    const answers = await Promise.all(payload.map((request) => handleOne(request, ctx)));
    const responses = answers.filter((a): a is JsonRpcResponse => a !== undefined);
    return responses.length === 0 ? undefined : responses;
  };

  return {
    services,
    methods,
    call: (name, params, ctx) => timed(name, params, { ...ctx, services }),
    handle,
    async handleText(text, ctx) {
      let payload: unknown;
      try {
        payload = JSON.parse(text);
      } catch (error) {
        const detail = error instanceof SyntaxError ? error.message : 'invalid JSON';
        observe?.('', ErrorCode.ParseError, 0, ctx.transport);
        return stringifyJson(failure(new ParseError(detail), null));
      }
      const answer = await handle(payload, ctx);
      return answer === undefined ? undefined : stringifyJson(answer);
    },
  };
}
