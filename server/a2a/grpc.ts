/**
 * The gRPC binding: `lf.a2a.v1.A2AService` from proto/a2a.proto on the node's gRPC port, over the same handlers as
 * every other binding. Service parameters and credentials travel as metadata (`a2a-version`, `a2a-extensions`,
 * `authorization`, the API-key header, the `a2a-chain-*` headers); a chain signature covers method "POST", the
 * gRPC path `/lf.a2a.v1.A2AService/<Method>` and the request's protobuf bytes. Errors carry the gRPC code of
 * A2A 1.0.1 §5.4 and google.rpc.Status with ErrorInfo in `grpc-status-details-bin`.
 */
import * as grpc from '@grpc/grpc-js';
import type protobuf from 'protobufjs';
import { authenticate, type AuthInput } from '../../src/a2a/auth.ts';
import { toA2aError } from '../../src/a2a/errors.ts';
import { a2aMethods, type A2aHandler } from '../../src/a2a/handler.ts';
import type { CallContext } from '../../src/a2a/handler/state.ts';
import { negotiate } from '../../src/a2a/negotiate.ts';
import type { Subscription } from '../../src/a2a/stream-hub.ts';
import { a2aProtoRoot, protoCodec, statusDetails } from './grpc-json.ts';
import type { A2aService } from './service.ts';

const a2aGrpcServiceName = 'lf.a2a.v1.A2AService';

interface Decoded {
  readonly raw: Buffer;
  readonly json: Record<string, unknown>;
}

function grpcError(error: unknown): Partial<grpc.StatusObject> {
  const e = toA2aError(error);
  const metadata = new grpc.Metadata();
  metadata.set('grpc-status-details-bin', statusDetails(e.row.grpc, e.message, e.errorInfo()));
  metadata.set('a2a-error-reason', e.row.a2a.reason);
  return { code: e.row.grpc, details: e.message, metadata };
}

function first(metadata: grpc.Metadata, name: string): string | undefined {
  const v = metadata.get(name)[0];
  return v === undefined ? undefined : String(v);
}

async function callContext(service: A2aService, call: grpc.ServerUnaryCall<Decoded, unknown> | grpc.ServerWritableStream<Decoded, unknown>, path: string): Promise<CallContext> {
  const md = call.metadata;
  const negotiated = negotiate(service.card, first(md, 'a2a-version'), first(md, 'a2a-extensions'), service.lenientVersion);
  const cert = (call as unknown as { getAuthContext?: () => { sslPeerCertificate?: { fingerprint256?: string } } }).getAuthContext?.()?.sslPeerCertificate;
  const input: AuthInput = {
    method: 'POST',
    path,
    body: call.request.raw,
    header: (name) => first(md, name),
    query: () => undefined,
    cookie: () => undefined,
    ...(cert?.fingerprint256 ? { tlsPeerFingerprint: cert.fingerprint256 } : {}),
  };
  return { principal: await authenticate(input, service.auth), extensions: negotiated.extensions };
}

/** The service definition with ProtoJSON in and out of every method. */
export function a2aServiceDefinition(): grpc.ServiceDefinition {
  const root = a2aProtoRoot();
  const svc = root.lookupService(a2aGrpcServiceName);
  const def: Record<string, grpc.MethodDefinition<Record<string, unknown>, unknown>> = {};
  for (const method of svc.methodsArray) {
    const req = protoCodec(method.resolvedRequestType as protobuf.Type);
    const res = protoCodec(method.resolvedResponseType as protobuf.Type);
    def[method.name] = {
      path: `/${a2aGrpcServiceName}/${method.name}`,
      requestStream: false,
      responseStream: Boolean(method.responseStream),
      requestSerialize: (value: Record<string, unknown>) => req.encode(value),
      requestDeserialize: (raw: Buffer) => ({ raw, json: req.decode(raw) }) as unknown as Record<string, unknown>,
      responseSerialize: (value: unknown) => res.encode(value),
      responseDeserialize: (raw: Buffer) => res.decode(raw),
      originalName: method.name,
    };
  }
  return def as grpc.ServiceDefinition;
}

/** Adds lf.a2a.v1.A2AService to a gRPC server (the node's, on the gRPC port, or a test's). */
export function registerA2aGrpc(server: grpc.Server, service: A2aService): void {
  const definition = a2aServiceDefinition();
  const impl: grpc.UntypedServiceImplementation = {};
  for (const name of Object.keys(definition)) {
    const entry = (a2aMethods as Record<string, { op: keyof A2aHandler; stream: boolean }>)[name]!;
    const op = service.handler[entry.op] as (params: unknown, ctx: CallContext) => Promise<unknown>;
    const path = `/${a2aGrpcServiceName}/${name}`;
    if (entry.stream) {
      impl[name] = (call: grpc.ServerWritableStream<Decoded, unknown>) => {
        let subscription: Subscription | undefined;
        call.on('cancelled', () => subscription?.close());
        void (async () => {
          try {
            const ctx = await callContext(service, call, path);
            subscription = (await op(call.request.json, ctx)) as Subscription;
            for await (const event of subscription) call.write(event);
            call.end();
          } catch (error) {
            // grpc-js ends a server stream with a status when the call emits 'error' with a status object.
            call.emit('error', grpcError(error));
          }
        })();
      };
    } else {
      impl[name] = (call: grpc.ServerUnaryCall<Decoded, unknown>, callback: grpc.sendUnaryData<unknown>) => {
        callContext(service, call, path)
          .then((ctx) => op(call.request.json, ctx))
          .then(
            (result) => callback(null, result),
            (error: unknown) => callback(grpcError(error) as grpc.ServiceError),
          );
      };
    }
  }
  server.addService(definition, impl);
}
