/**
 * A2A 1.0 data structures as they travel on the wire: ProtoJSON of `lf.a2a.v1` (a2aproject/A2A
 * specification/a2a.proto) — camelCase fields, enums as their names (`TASK_STATE_WORKING`, `ROLE_USER`), timestamps
 * as ISO 8601 UTC strings, no `kind` discriminators. Optional fields are left out when absent (proto3 presence), so
 * a serialized object never carries `undefined` or a default the proto would omit.
 */

export const taskStates = [
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_REJECTED',
  'TASK_STATE_AUTH_REQUIRED',
] as const;
export type TaskState = (typeof taskStates)[number];

export type Role = 'ROLE_USER' | 'ROLE_AGENT';
export type JsonObject = { [key: string]: unknown };

/** Exactly one of text | raw (base64) | url | data, plus optional metadata, filename and media type. */
export interface Part {
  readonly text?: string;
  readonly raw?: string;
  readonly url?: string;
  readonly data?: unknown;
  readonly metadata?: JsonObject;
  readonly filename?: string;
  readonly mediaType?: string;
}

export interface Message {
  readonly messageId: string;
  readonly contextId?: string;
  readonly taskId?: string;
  readonly role: Role;
  readonly parts: readonly Part[];
  readonly metadata?: JsonObject;
  readonly extensions?: readonly string[];
  readonly referenceTaskIds?: readonly string[];
}

export interface TaskStatus {
  readonly state: TaskState;
  readonly message?: Message;
  readonly timestamp?: string;
}

export interface Artifact {
  readonly artifactId: string;
  readonly name?: string;
  readonly description?: string;
  readonly parts: readonly Part[];
  readonly metadata?: JsonObject;
  readonly extensions?: readonly string[];
}

export interface Task {
  readonly id: string;
  readonly contextId: string;
  readonly status: TaskStatus;
  readonly artifacts?: readonly Artifact[];
  readonly history?: readonly Message[];
  readonly metadata?: JsonObject;
}

export interface TaskStatusUpdateEvent {
  readonly taskId: string;
  readonly contextId: string;
  readonly status: TaskStatus;
  readonly metadata?: JsonObject;
}

export interface TaskArtifactUpdateEvent {
  readonly taskId: string;
  readonly contextId: string;
  readonly artifact: Artifact;
  readonly append?: boolean;
  readonly lastChunk?: boolean;
  readonly metadata?: JsonObject;
}

/** One event of a stream or push delivery: exactly one member is set. */
export type StreamResponse =
  | { readonly task: Task }
  | { readonly message: Message }
  | { readonly statusUpdate: TaskStatusUpdateEvent }
  | { readonly artifactUpdate: TaskArtifactUpdateEvent };

export type SendMessageResponse = { readonly task: Task } | { readonly message: Message };

interface AuthenticationInfo {
  readonly scheme: string;
  readonly credentials?: string;
}

export interface TaskPushNotificationConfig {
  readonly tenant?: string;
  readonly id?: string;
  readonly taskId?: string;
  readonly url: string;
  readonly token?: string;
  readonly authentication?: AuthenticationInfo;
}

export interface ListTasksResponse {
  readonly tasks: readonly Task[];
  readonly nextPageToken: string;
  readonly pageSize: number;
  readonly totalSize: number;
}

export interface ListTaskPushNotificationConfigsResponse {
  readonly configs: readonly TaskPushNotificationConfig[];
  readonly nextPageToken?: string;
}
