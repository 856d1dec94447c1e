/**
 * The executor port: where agent logic plugs in (as in the A2A SDKs' AgentExecutor). The server hands an executor
 * the request context and an event sink; the executor publishes either one Message (a reply with no task) or task
 * events — a Task, status updates and artifact updates — and returns when it has nothing more to say. The runner
 * (task-runner.ts) checks each event against the lifecycle, persists it, and fans it out to streams and webhooks.
 */
import type { Principal } from './principal.ts';
import type { Artifact, JsonObject, Message, Part, StreamResponse, Task, TaskState } from './types.ts';

export interface RequestContext {
  readonly taskId: string;
  readonly contextId: string;
  /** The client's message, with taskId and contextId filled in. */
  readonly message: Message;
  /** The task when the message continues one (INPUT_REQUIRED / AUTH_REQUIRED follow-ups); undefined for new work. */
  readonly task: Task | undefined;
  readonly metadata: JsonObject | undefined;
  readonly principal: Principal;
  /** Extension URIs the client activated (A2A-Extensions) that this server supports. */
  readonly extensions: readonly string[];
  /** Aborted when the task is canceled; a long-running executor should stop then. */
  readonly signal: AbortSignal;
  /** Another task of the same caller (its current state); undefined when unknown or someone else's (docs/a2a.md "Visibility"). */
  readonly lookupTask?: (taskId: string) => Task | undefined;
}

export interface ExecutionEvents {
  /** Publishes one event; resolves once it is applied, stored and sent. Throws when it breaks the lifecycle. */
  publish(event: StreamResponse): Promise<void>;
  /** A status update for this task, with an optional agent message made from `text`. */
  status(state: TaskState, text?: string): Promise<void>;
  /** An artifact update for this task. */
  artifact(artifact: Artifact, options?: { append?: boolean; lastChunk?: boolean }): Promise<void>;
  /** A reply with no task (allowed only as the first and only event of new work). */
  reply(parts: readonly Part[]): Promise<void>;
}

export interface AgentExecutor {
  execute(context: RequestContext, events: ExecutionEvents): Promise<void>;
  /** Called on CancelTask while the executor runs, after `context.signal` aborts; the runner then marks the task CANCELED. */
  cancel?(context: RequestContext, events: ExecutionEvents): Promise<void>;
}
