/**
 * Parsing of every A2A request at the edge, once (docs/style.md habit 4). Inputs are ProtoJSON (a2a.proto, camelCase)
 * and also the forms the seed and A2A 0.3 show: lowercase roles and states (`user`, `submitted`, `input-required`),
 * proto enum numbers, and 0.3 `kind`-tagged parts. Like every ProtoJSON parser, each message also accepts its fields'
 * original proto names (`context_id`, `task_id`, `history_length`, …); both spellings of one field with different
 * values are refused. Unknown fields are ignored (A2A 1.0 §5.7). Output is always canonical ProtoJSON
 * (src/a2a/types.ts). A bad request throws InvalidParams (-32602) naming the field.
 */
import { z } from 'zod';
import { invalidParams } from './errors.ts';
import { a2aIdCharsMax, a2aPartsMax } from './limits.ts';
import { taskStates, type Part, type Role, type TaskState } from './types.ts';

const roleAliases: Record<string, Role> = { role_user: 'ROLE_USER', user: 'ROLE_USER', '1': 'ROLE_USER', role_agent: 'ROLE_AGENT', agent: 'ROLE_AGENT', '2': 'ROLE_AGENT' };

export function parseRole(value: unknown): Role | undefined {
  return roleAliases[String(value).toLowerCase()];
}

/** `TASK_STATE_WORKING`, `working`, `input-required`, `input_required` or the proto number 1..8. */
export function parseTaskState(value: unknown): TaskState | undefined {
  if (typeof value === 'number') return taskStates[value - 1];
  if (typeof value !== 'string') return undefined;
  const upper = value.toUpperCase().replace(/-/g, '_');
  const name = upper.startsWith('TASK_STATE_') ? upper : `TASK_STATE_${upper}`;
  return (taskStates as readonly string[]).includes(name) ? (name as TaskState) : undefined;
}

/** `context_id` → `contextId`: the lowerCamelCase JSON name protoc gives a proto field. */
const protoJsonName = (name: string): string => name.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/**
 * A proto message's object schema that also reads its fields' proto names (ProtoJSON: "parsers accept both the
 * lowerCamelCase name and the original proto field name"): `history_length` is read as `historyLength`. When both
 * spellings are present with different values the request is refused, naming the snake_case field.
 */
function protoMessage<T extends z.ZodRawShape>(shape: T) {
  const fields = new Set(Object.keys(shape));
  return z.preprocess((input, ctx) => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
    const given = input as Record<string, unknown>;
    let out: Record<string, unknown> | undefined;
    for (const [key, value] of Object.entries(given)) {
      const name = protoJsonName(key);
      if (name === key || !fields.has(name)) continue;
      if (name in given && JSON.stringify(given[name]) !== JSON.stringify(value)) {
        ctx.addIssue({ code: 'custom', message: `the proto name of ${name}, given twice with different values`, path: [key] });
      }
      out ??= { ...given };
      delete out[key];
      if (!(name in given)) out[name] = value;
    }
    return out ?? input;
  }, z.object(shape));
}

/** A task-state filter that proto3 clients leave unset: TASK_STATE_UNSPECIFIED (0), or @a2a-js/sdk's "UNRECOGNIZED". */
function isUnsetTaskState(value: unknown): boolean {
  return value === 0 || value === '' || (typeof value === 'string' && ['TASK_STATE_UNSPECIFIED', 'UNSPECIFIED', 'UNRECOGNIZED'].includes(value.toUpperCase()));
}

/** RFC 3339 date-time (A2A 1.0 timestamps; google.protobuf.Timestamp's JSON form): `2025-01-31T12:00:00.5Z`, `…+02:00`. */
const rfc3339 = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt]([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d{1,9})?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

export function isRfc3339(text: string): boolean {
  if (!rfc3339.test(text)) return false;
  const [year, month, day] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  // A real calendar day (Date.parse would roll 2025-02-30 over into March).
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Milliseconds of an RFC 3339 timestamp (a leap second :60 counts as :59.999). */
export function rfc3339Ms(text: string): number {
  const leap = /:60(?=[.Zz+-])/.test(text);
  return Date.parse(leap ? text.replace(/:60(?=[.Zz+-])/, ':59') : text) + (leap ? 999 : 0);
}

const id = z.string().min(1).max(a2aIdCharsMax);
const jsonObject = z.record(z.string(), z.unknown());
const role = z.unknown().transform((v, ctx) => {
  const r = parseRole(v);
  if (!r) ctx.addIssue({ code: 'custom', message: `role: got ${JSON.stringify(v)}, expected ROLE_USER or ROLE_AGENT` });
  return r as Role;
});
const taskStateSchema = z.unknown().transform((v, ctx) => {
  const s = parseTaskState(v);
  if (!s) ctx.addIssue({ code: 'custom', message: `state: got ${JSON.stringify(v)}, expected a TASK_STATE_* name` });
  return s as TaskState;
});

/** A part in 1.0 form, or 0.3 `{kind:"file", file:{bytes|uri, mimeType, name}}` converted to it. */
const part = protoMessage({
  text: z.string().optional(),
  raw: z.string().optional(),
  url: z.string().optional(),
  data: z.unknown().optional(),
  metadata: jsonObject.optional(),
  filename: z.string().optional(),
  mediaType: z.string().optional(),
  file: z.object({ bytes: z.string().optional(), uri: z.string().optional(), mimeType: z.string().optional(), name: z.string().optional() }).optional(),
}).transform((p, ctx): Part => {
  const out: Record<string, unknown> = {};
  if (p.file) {
    if (p.file.bytes !== undefined) out.raw = p.file.bytes;
    if (p.file.uri !== undefined) out.url = p.file.uri;
    if (p.file.name !== undefined) out.filename = p.file.name;
    if (p.file.mimeType !== undefined) out.mediaType = p.file.mimeType;
  }
  for (const key of ['text', 'raw', 'url', 'data', 'metadata', 'filename', 'mediaType'] as const) if (p[key] !== undefined) out[key] = p[key];
  const contents = ['text', 'raw', 'url', 'data'].filter((k) => out[k] !== undefined).length;
  if (contents !== 1) ctx.addIssue({ code: 'custom', message: `part: got ${contents} of text/raw/url/data, expected exactly one` });
  if (typeof out.raw === 'string' && !/^[A-Za-z0-9+/_-]*={0,2}$/.test(out.raw)) ctx.addIssue({ code: 'custom', message: 'part.raw: expected base64' });
  return out as Part;
});

const messageSchema = protoMessage({
  messageId: id,
  contextId: id.optional(),
  taskId: id.optional(),
  role,
  parts: z.array(part).min(1).max(a2aPartsMax),
  metadata: jsonObject.optional(),
  extensions: z.array(z.string()).optional(),
  referenceTaskIds: z.array(z.string()).optional(),
});

const authentication = protoMessage({ scheme: z.string().min(1), credentials: z.string().optional() });

export const pushConfigSchema = protoMessage({
  tenant: z.string().optional(),
  id: id.optional(),
  taskId: z.string().optional(),
  url: z.string().url(),
  token: z.string().optional(),
  authentication: authentication.optional(),
});

const int = z.number().int();

export const sendMessageSchema = protoMessage({
  tenant: z.string().optional(),
  message: messageSchema,
  configuration: protoMessage({
    acceptedOutputModes: z.array(z.string()).optional(),
    taskPushNotificationConfig: pushConfigSchema.optional(),
    // 0.3 spelling of the same field.
    pushNotificationConfig: pushConfigSchema.optional(),
    historyLength: int.min(0).optional(),
    returnImmediately: z.boolean().optional(),
    // 0.3 polarity: blocking=false means return immediately.
    blocking: z.boolean().optional(),
  }).optional(),
  metadata: jsonObject.optional(),
});

export const getTaskSchema = protoMessage({ tenant: z.string().optional(), id, historyLength: int.min(0).optional() });
export const cancelTaskSchema = protoMessage({ tenant: z.string().optional(), id, metadata: jsonObject.optional() });
export const subscribeSchema = protoMessage({ tenant: z.string().optional(), id });
export const listTasksSchema = protoMessage({
  tenant: z.string().optional(),
  contextId: z.string().optional(),
  // Unset (TASK_STATE_UNSPECIFIED, the SDK's "UNRECOGNIZED") means no status filter.
  status: z.preprocess((v) => (isUnsetTaskState(v) ? undefined : v), taskStateSchema.optional()),
  pageSize: int.optional(),
  pageToken: z.string().optional(),
  historyLength: int.min(0).optional(),
  statusTimestampAfter: z.string().refine(isRfc3339, 'expected an RFC 3339 timestamp such as 2025-01-31T12:00:00Z').optional(),
  includeArtifacts: z.boolean().optional(),
});
export const pushConfigRefSchema = protoMessage({ tenant: z.string().optional(), taskId: id, id });
export const listPushConfigsSchema = protoMessage({ tenant: z.string().optional(), taskId: id, pageSize: int.min(0).optional(), pageToken: z.string().optional() });

/** Parses `input` with `schema` or throws InvalidParams naming the first bad field. */
export function parseParams<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.join('.');
  throw invalidParams(field ? `${field}: ${issue.message}` : issue.message, field || undefined);
}

/** ISO 8601 UTC with milliseconds and a Z suffix (A2A 1.0 §5.6.1). */
export function isoTimestamp(ms: number): string {
  return new Date(ms).toISOString();
}
