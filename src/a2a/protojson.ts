/**
 * Parsing of every A2A request at the edge, once (docs/style.md habit 4). Inputs are ProtoJSON (a2a.proto, camelCase)
 * and also the forms the seed and A2A 0.3 show: lowercase roles and states (`user`, `submitted`, `input-required`),
 * proto enum numbers, and 0.3 `kind`-tagged parts. Unknown fields are ignored (A2A 1.0 §5.7). Output is always
 * canonical ProtoJSON (src/a2a/types.ts). A bad request throws InvalidParams (-32602) naming the field.
 */
import { z } from 'zod';
import { invalidParams } from './errors.ts';
import { a2aIdCharsMax, a2aPartsMax } from './limits.ts';
import { taskStates, type JsonObject, type Part, type Role, type TaskState } from './types.ts';

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

const id = z.string().min(1).max(a2aIdCharsMax);
const jsonObject = z.record(z.string(), z.unknown());
const role = z.unknown().transform((v, ctx) => {
  const r = parseRole(v);
  if (!r) ctx.addIssue({ code: 'custom', message: `role: got ${JSON.stringify(v)}, expected ROLE_USER or ROLE_AGENT` });
  return r as Role;
});
export const taskStateSchema = z.unknown().transform((v, ctx) => {
  const s = parseTaskState(v);
  if (!s) ctx.addIssue({ code: 'custom', message: `state: got ${JSON.stringify(v)}, expected a TASK_STATE_* name` });
  return s as TaskState;
});

/** A part in 1.0 form, or 0.3 `{kind:"file", file:{bytes|uri, mimeType, name}}` converted to it. */
const part = z
  .object({
    text: z.string().optional(),
    raw: z.string().optional(),
    url: z.string().optional(),
    data: z.unknown().optional(),
    metadata: jsonObject.optional(),
    filename: z.string().optional(),
    mediaType: z.string().optional(),
    file: z.object({ bytes: z.string().optional(), uri: z.string().optional(), mimeType: z.string().optional(), name: z.string().optional() }).optional(),
  })
  .transform((p, ctx): Part => {
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

export const messageSchema = z.object({
  messageId: id,
  contextId: id.optional(),
  taskId: id.optional(),
  role,
  parts: z.array(part).min(1).max(a2aPartsMax),
  metadata: jsonObject.optional(),
  extensions: z.array(z.string()).optional(),
  referenceTaskIds: z.array(z.string()).optional(),
});

const authentication = z.object({ scheme: z.string().min(1), credentials: z.string().optional() });

export const pushConfigSchema = z.object({
  tenant: z.string().optional(),
  id: id.optional(),
  taskId: z.string().optional(),
  url: z.string().url(),
  token: z.string().optional(),
  authentication: authentication.optional(),
});

const int = z.number().int();

export const sendMessageSchema = z.object({
  tenant: z.string().optional(),
  message: messageSchema,
  configuration: z
    .object({
      acceptedOutputModes: z.array(z.string()).optional(),
      taskPushNotificationConfig: pushConfigSchema.optional(),
      // 0.3 spelling of the same field.
      pushNotificationConfig: pushConfigSchema.optional(),
      historyLength: int.min(0).optional(),
      returnImmediately: z.boolean().optional(),
      // 0.3 polarity: blocking=false means return immediately.
      blocking: z.boolean().optional(),
    })
    .optional(),
  metadata: jsonObject.optional(),
});

export const getTaskSchema = z.object({ tenant: z.string().optional(), id, historyLength: int.min(0).optional() });
export const cancelTaskSchema = z.object({ tenant: z.string().optional(), id, metadata: jsonObject.optional() });
export const subscribeSchema = z.object({ tenant: z.string().optional(), id });
export const listTasksSchema = z.object({
  tenant: z.string().optional(),
  contextId: z.string().optional(),
  status: taskStateSchema.optional(),
  pageSize: int.optional(),
  pageToken: z.string().optional(),
  historyLength: int.min(0).optional(),
  statusTimestampAfter: z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'expected an ISO 8601 timestamp').optional(),
  includeArtifacts: z.boolean().optional(),
});
export const pushConfigRefSchema = z.object({ tenant: z.string().optional(), taskId: id, id });
export const listPushConfigsSchema = z.object({ tenant: z.string().optional(), taskId: id, pageSize: int.min(0).optional(), pageToken: z.string().optional() });

/** Parses `input` with `schema` or throws InvalidParams naming the first bad field. */
export function parseParams<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.join('.');
  throw invalidParams(field ? `${field}: ${issue.message}` : issue.message, field || undefined);
}

/** Drops undefined members so that serialized output carries only present fields. */
export function compact<T extends object>(value: T): T {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = v;
  return out as T;
}

/** ISO 8601 UTC with milliseconds and a Z suffix (A2A 1.0 §5.6.1). */
export function isoTimestamp(ms: number): string {
  return new Date(ms).toISOString();
}
