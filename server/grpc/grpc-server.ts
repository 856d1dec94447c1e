/**
 * gRPC on port 8082 with mutual TLS (@grpc/grpc-js): the `weft.v1.Node` service of proto/weft/v1/node.proto. Every
 * unary RPC is the JSON-RPC method of the same name run through the same dispatcher (so params, auth, errors and
 * metrics agree): typed request fields are its params, a `JsonParams` request carries them as JSON text (the RPCs
 * generated from the method table, server/grpc/generate-proto.ts); Subscribe streams a hub subscription. Errors map to gRPC status codes through the error table (src/errors.ts), with the JSON-RPC code and data in
 * the `weft-error-code` / `weft-error-data` trailers.
 */
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { grpcMessageBytesMax } from '../../src/limits.ts';
import type { Identity } from '../../src/auth/identity.ts';
import type { Dispatcher } from '../../src/rpc/dispatcher.ts';
import { ParseError, toErrorObject, toWireError } from '../../src/rpc/errors.ts';
import { stringifyJson } from '../../src/rpc/json.ts';
import type { SubscriptionHub } from '../../src/rpc/subscription-hub.ts';
import type { Logger } from '../logger.ts';
import { snakeCase } from './rpc-names.ts';

export const nodeProtoPath = fileURLToPath(new URL('../../proto/weft/v1/node.proto', import.meta.url));
export const protoLoaderOptions: protoLoader.Options = { keepCase: true, longs: Number, enums: String, defaults: false, oneofs: false };

/** The proto message name of an RPC's request or response: proto-loader keeps the descriptors beside grpc-js's fields. */
const messageName = (method: object, side: 'requestType' | 'responseType'): string | undefined =>
  (method as Partial<Record<typeof side, { type?: { name?: string } }>>)[side]?.type?.name;

export interface GrpcServerHandle {
  readonly port: number;
  /** More services (A2A's lf.a2a.v1.A2AService) may be added to the running server. */
  readonly server: grpc.Server;
  close(): Promise<void>;
}

export interface GrpcServerOptions {
  readonly dispatcher: Dispatcher;
  readonly hub: SubscriptionHub;
  readonly host: string;
  readonly port: number;
  readonly tls: { readonly cert: Buffer; readonly key: Buffer; readonly clientCa: Buffer };
  /**
   * The caller of each call (docs/auth.md): mutual TLS admits the connection, and the call's metadata carries the
   * same credentials as HTTP (x-api-key, authorization). Throws the -32001/-32005 error the call is refused with; the
   * dispatcher checks the method's scope against the identity (-32001/-32002).
   */
  readonly authorize?: (metadata: grpc.Metadata, peer: string, method: string, params: unknown) => Promise<Identity | undefined>;
  readonly logger: Logger;
}

function serviceError(error: unknown): Partial<grpc.StatusObject> {
  const { object, row } = toWireError(error);
  const metadata = new grpc.Metadata();
  metadata.set('weft-error-code', String(object.code));
  if (object.data !== undefined) metadata.set('weft-error-data', stringifyJson(object.data));
  return { code: row.grpc as grpc.status, details: object.message, metadata };
}

/** A JsonParams request → JSON-RPC params (an object or an array); empty text is no params, bad JSON is -32700. */
function jsonParamsOf(request: Record<string, unknown>): { params: unknown } | { params: undefined; error: ParseError } {
  const text = typeof request.json === 'string' ? request.json.trim() : '';
  if (text === '') return { params: {} };
  try {
    return { params: JSON.parse(text) as unknown };
  } catch (error) {
    return { params: undefined, error: new ParseError(error instanceof SyntaxError ? error.message : 'invalid JSON') };
  }
}

/** proto3 request → JSON-RPC params: unset optional fields are absent, empty repeated fields too. */
function paramsOf(request: Record<string, unknown>): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(request)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value) && value.length === 0) continue;
    params[key] = value;
  }
  return params;
}

/** Typed results: bigints (block nonces) as decimal strings, which protobufjs reads into uint64 exactly; null → unset. */
function typedResult(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value === null) return undefined;
  if (Array.isArray(value)) return value.map(typedResult);
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = typedResult(v);
    return out;
  }
  return value;
}

export async function startGrpcServer(options: GrpcServerOptions): Promise<GrpcServerHandle> {
  const { dispatcher, hub, logger } = options;
  const definition = protoLoader.loadSync(nodeProtoPath, protoLoaderOptions);
  const loaded = grpc.loadPackageDefinition(definition) as unknown as { weft: { v1: { Node: grpc.ServiceClientConstructor } } };
  const service = loaded.weft.v1.Node.service;
  const server = new grpc.Server({ 'grpc.max_receive_message_length': grpcMessageBytesMax, 'grpc.max_send_message_length': grpcMessageBytesMax });

  const handlers: grpc.UntypedServiceImplementation = {};
  for (const [rpc, method] of Object.entries(service)) {
    if (method.responseStream) continue;
    const jsonName = snakeCase(rpc);
    const jsonParams = messageName(method, 'requestType') === 'JsonParams';
    const jsonResult = messageName(method, 'responseType') === 'JsonResult';
    handlers[rpc] = (call: grpc.ServerUnaryCall<Record<string, unknown>, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      Promise.resolve()
        .then(async () => {
          // As on HTTP, a refusal (bad credentials, a rate limit) answers before a parse error does.
          const parsed = jsonParams ? jsonParamsOf(call.request) : { params: paramsOf(call.request) };
          const identity = await options.authorize?.(call.metadata, call.getPeer(), jsonName, parsed.params);
          if ('error' in parsed) throw parsed.error;
          return dispatcher.call(jsonName, parsed.params, { transport: 'grpc', id: undefined, ...(identity ? { identity } : {}) });
        })
        .then(
        (result) => callback(null, jsonResult ? { json: stringifyJson(result) } : typedResult(result)),
        (error: unknown) => callback(serviceError(error)),
      );
    };
  }
  handlers.Subscribe = (call: grpc.ServerWritableStream<Record<string, unknown>, unknown>) => {
    const request = paramsOf(call.request);
    const topic = String(request.topic ?? '');
    // One stream = one subscription; the hub's notification text is split back into its payload without re-parsing.
    const idJson = '"grpc"';
    const head = `{"jsonrpc":"2.0","method":"subscription","params":{"subscription":${idJson},"result":`;
    const connection = hub.connect((text) => {
      call.write({ topic, result_json: text.slice(head.length, -2) });
    });
    const params = { topic, ...(request.address === undefined ? {} : { address: request.address }) };
    Promise.resolve(options.authorize?.(call.metadata, call.getPeer(), 'subscribe', params))
      .then((identity) => dispatcher.call('subscribe', params, { transport: 'grpc', id: 'grpc', subscriptions: connection, ...(identity ? { identity } : {}) }))
      .catch((error: unknown) => {
      connection.close();
      call.destroy(Object.assign(new Error(toErrorObject(error).message), serviceError(error)));
    });
    call.on('cancelled', () => connection.close());
    call.on('close', () => connection.close());
  };
  server.addService(service, handlers);

  const credentials = grpc.ServerCredentials.createSsl(
    options.tls.clientCa,
    [{ private_key: options.tls.key, cert_chain: options.tls.cert }],
    true,
  );
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`${options.host}:${options.port}`, credentials, (error, bound) => (error ? reject(error) : resolve(bound)));
  });
  logger.debug({ port, rpcs: Object.keys(service).length }, 'grpc service bound');
  return {
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.tryShutdown(() => resolve());
        setTimeout(() => server.forceShutdown(), 2_000).unref();
      }),
  };
}
