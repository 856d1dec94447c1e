/**
 * One JSON-RPC method: its name, a zod schema for its params (the single place they are parsed and bounded), a zod
 * schema of its result (its type, and the JSON Schema OpenRPC shows), the auth scope it will need (docs/design.md "Node APIs and access"), and its handler. Adding a method is
 * one file under methods/ and one line in method-table.ts; HTTP, WebSocket, REST and gRPC are views over it.
 */
import type { z } from 'zod';
import { ServiceUnavailableError } from './errors.ts';
import type { RpcServices } from './ports.ts';

export type JsonRpcId = string | number | null;
export type JsonSchema = Readonly<Record<string, unknown>>;
export type RpcTransport = 'http' | 'rest' | 'ws' | 'grpc';
/** docs/design.md "Node APIs and access" scopes; `public` needs no credentials. */
type RpcScope = 'public' | 'read_balance' | 'send_transactions' | 'mine_blocks';

/** What a connection that can carry notifications offers to subscribe/unsubscribe. */
export interface SubscriptionScope {
  subscribe(id: JsonRpcId | undefined, topic: string, filter: { readonly address?: Uint8Array; readonly addressText?: string }): {
    subscription: JsonRpcId;
    topic: string;
  };
  unsubscribe(subscription: JsonRpcId): boolean;
}

export interface RpcCallContext {
  readonly services: RpcServices;
  readonly transport: RpcTransport;
  readonly id: JsonRpcId | undefined;
  readonly subscriptions?: SubscriptionScope;
  /**
   * The scopes the caller's credentials grant, where the transport checks access (absent: the node runs without
   * access control). A method whose default view depends on who asks reads it (get_balance, docs/auth.md).
   */
  readonly scopes?: ReadonlySet<string>;
}

export interface RpcMethod<S extends z.ZodObject = z.ZodObject, R extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly summary: string;
  readonly params: S;
  /**
   * The result's zod schema (src/rpc/result-schemas.ts): rpc.discover's result schema, the type `run` returns and
   * the type the web's actions give (docs/api.md "Typed results"). Never parsed while serving: tests parse answers.
   */
  readonly result: R;
  /**
   * The scope a call needs (docs/auth.md "Scopes"): checked by the dispatcher once per call, before its params are
   * parsed. A method whose need depends on what is asked adds `scopeOf`, checked once after parsing.
   */
  readonly scope: RpcScope;
  /** The scope these parsed params need, where it depends on them (get_balance's `privacy_view: owner`). */
  readonly scopeOf?: (params: z.output<S>) => RpcScope;
  /** One example call for OpenRPC and docs/api.md. */
  readonly example?: { readonly params: Record<string, unknown>; readonly result: z.output<R> };
  run(params: z.output<S>, ctx: RpcCallContext): RpcRunResult<R>;
}

/** What `run` returns: the input side of its result schema (the same as the output side unless the schema is a recordResult). */
type RpcRunResult<R extends z.ZodType> = z.input<R> | Promise<z.input<R>>;
/** What a caller sends to a method (z.input: params with defaults may be left out). */
export type RpcMethodParams<M extends AnyRpcMethod> = z.input<M['params']>;
/** What a caller gets back from a method: the output side of its result schema. */
export type RpcMethodResult<M extends AnyRpcMethod> = z.output<M['result']>;

// The table holds methods of different param types; the dispatcher parses params with each method's own schema.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRpcMethod = RpcMethod<any, any>;

/** `N` keeps the method's name as its literal type, so the table's type maps each name to its params and result (packages/client). */
export function defineMethod<const N extends string, S extends z.ZodObject, R extends z.ZodType>(
  method: RpcMethod<S, R> & { readonly name: N },
): RpcMethod<S, R> & { readonly name: N } {
  return method;
}

type Service = 'ledger' | 'mempool' | 'wallet' | 'privacy' | 'mining' | 'peers' | 'templates';

/** The named optional port, or -32603 naming it when the node runs without it. */
export function need<K extends Service>(ctx: RpcCallContext, service: K, method: string): NonNullable<RpcServices[K]> {
  const port = ctx.services[service];
  if (port === undefined || port === null) throw new ServiceUnavailableError(service, method);
  return port as NonNullable<RpcServices[K]>;
}
