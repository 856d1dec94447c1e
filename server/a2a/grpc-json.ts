/**
 * ProtoJSON ↔ protobuf for the gRPC binding, driven by the reflection of proto/a2a.proto (protobufjs, which
 * @grpc/proto-loader already brings). protobufjs converts messages, enums (by name), bytes (base64) and oneofs;
 * this adds the three well-known types whose JSON form is special in ProtoJSON: google.protobuf.Struct (a JSON
 * object), Value (any JSON value) and Timestamp (an RFC 3339 string). The handlers thus see the same ProtoJSON on
 * every binding. Fields the proto lacks are dropped on the way out (the card has none: its chain fields travel in
 * the chain extension's `params`, a Struct).
 */
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';

const a2aProtoPath = fileURLToPath(new URL('../../proto/a2a.proto', import.meta.url));

type Json = unknown;
type Obj = Record<string, unknown>;

function valueToProto(v: Json): Obj {
  if (v === null || v === undefined) return { nullValue: 0 };
  if (typeof v === 'number') return { numberValue: v };
  if (typeof v === 'string') return { stringValue: v };
  if (typeof v === 'boolean') return { boolValue: v };
  if (Array.isArray(v)) return { listValue: { values: v.map(valueToProto) } };
  return { structValue: structToProto(v as Obj) };
}

function structToProto(o: Obj): Obj {
  return { fields: Object.fromEntries(Object.entries(o).map(([k, v]) => [k, valueToProto(v)])) };
}

function valueFromProto(v: Obj | undefined): Json {
  if (!v) return null;
  if ('numberValue' in v) return v.numberValue;
  if ('stringValue' in v) return v.stringValue;
  if ('boolValue' in v) return v.boolValue;
  if ('listValue' in v) return (((v.listValue as Obj | undefined)?.values as Obj[] | undefined) ?? []).map(valueFromProto);
  if ('structValue' in v) return structFromProto(v.structValue as Obj);
  return null;
}

function structFromProto(o: Obj | undefined): Obj {
  return Object.fromEntries(Object.entries((o?.fields as Record<string, Obj> | undefined) ?? {}).map(([k, v]) => [k, valueFromProto(v)]));
}

function timestampToProto(text: Json): Obj {
  const ms = Date.parse(String(text));
  if (Number.isNaN(ms)) return {};
  return { seconds: Math.floor(ms / 1000), nanos: (((ms % 1000) + 1000) % 1000) * 1_000_000 };
}

function timestampFromProto(o: Obj): string {
  const ms = Number(o.seconds ?? 0) * 1000 + Math.floor(Number(o.nanos ?? 0) / 1_000_000);
  return new Date(ms).toISOString();
}

const special: Record<string, { in: (v: Json) => Json; out: (v: Obj) => Json }> = {
  '.google.protobuf.Struct': { in: (v) => structToProto(v as Obj), out: structFromProto },
  '.google.protobuf.Value': { in: valueToProto, out: valueFromProto },
  '.google.protobuf.Timestamp': { in: timestampToProto, out: timestampFromProto },
};

function walk(type: protobuf.Type, value: Obj, dir: 'in' | 'out'): Obj {
  const out: Obj = {};
  for (const field of type.fieldsArray) {
    const v = value[field.name];
    if (v === undefined || v === null) continue;
    const rt = field.resolvedType;
    const one = (x: Json): Json => {
      if (rt instanceof protobuf.Type) {
        const s = special[rt.fullName];
        if (s) return dir === 'in' ? s.in(x) : s.out(x as Obj);
        return walk(rt, x as Obj, dir);
      }
      return x;
    };
    if (field.map) out[field.name] = Object.fromEntries(Object.entries(v as Obj).map(([k, x]) => [k, one(x)]));
    else if (field.repeated) out[field.name] = (v as Json[]).map(one);
    else out[field.name] = one(v);
  }
  return out;
}

export interface ProtoCodec {
  encode(json: Json): Buffer;
  decode(bytes: Buffer): Obj;
}

export function protoCodec(type: protobuf.Type): ProtoCodec {
  return {
    encode: (json) => Buffer.from(type.encode(type.fromObject(walk(type, (json ?? {}) as Obj, 'in'))).finish()),
    decode: (bytes) =>
      walk(type, type.toObject(type.decode(bytes), { enums: String, longs: Number, bytes: String, defaults: false, arrays: false, objects: false, oneofs: false }), 'out'),
  };
}

let root: protobuf.Root | undefined;

/** The parsed proto/a2a.proto (once per process). */
export function a2aProtoRoot(): protobuf.Root {
  if (!root) {
    root = protobuf.loadSync(a2aProtoPath);
    root.resolveAll();
  }
  return root;
}

/** google.rpc.Status with ErrorInfo details, for the `grpc-status-details-bin` trailer (AIP-193). */
const statusRoot = protobuf.parse(`
syntax = "proto3";
package google.rpc;
// Wire-identical to google.protobuf.Any; declared here so this small schema needs no import.
message Any { string type_url = 1; bytes value = 2; }
message Status { int32 code = 1; string message = 2; repeated Any details = 3; }
message ErrorInfo { string reason = 1; string domain = 2; map<string, string> metadata = 3; }
`).root;
statusRoot.resolveAll();

const errorInfoTypeUrl = 'type.googleapis.com/google.rpc.ErrorInfo';

export function statusDetails(code: number, message: string, info: { reason: string; domain: string; metadata?: Record<string, string> }): Buffer {
  const ErrorInfo = statusRoot.lookupType('google.rpc.ErrorInfo');
  const Status = statusRoot.lookupType('google.rpc.Status');
  // protobufjs names fields in camelCase (`typeUrl`); `type_url` would be dropped by fromObject, leaving the Any untyped.
  const detail = { typeUrl: errorInfoTypeUrl, value: ErrorInfo.encode(ErrorInfo.fromObject(info)).finish() };
  return Buffer.from(Status.encode(Status.fromObject({ code, message, details: [detail] })).finish());
}

export function decodeStatusDetails(bytes: Buffer): { code: number; message: string; typeUrl: string; reason: string; domain: string } {
  const Status = statusRoot.lookupType('google.rpc.Status');
  const ErrorInfo = statusRoot.lookupType('google.rpc.ErrorInfo');
  const status = Status.toObject(Status.decode(bytes)) as { code: number; message: string; details: { typeUrl?: string; value: Uint8Array }[] };
  const detail = status.details[0]!;
  const info = ErrorInfo.toObject(ErrorInfo.decode(detail.value)) as { reason: string; domain: string };
  return { code: status.code, message: status.message, typeUrl: detail.typeUrl ?? '', reason: info.reason, domain: info.domain };
}
