/**
 * The task runner's state (task-runner.ts wires it): its ports, the per-task queues that serialize every change to a
 * task, and the execution now allowed to change each running task. The operations are free functions over it, one
 * file each (runner/*.ts).
 */
import type { Clock } from '../../util/clock.ts';
import type { AgentExecutor, ExecutionEvents, RequestContext } from '../executor.ts';
import { isoTimestamp } from '../protojson.ts';
import type { StreamHub } from '../stream-hub.ts';
import type { TaskStore } from '../task-store.ts';
import type { JsonObject, Message, Part, SendMessageResponse, StreamResponse, Task, TaskPushNotificationConfig } from '../types.ts';

/** Delivers task events to webhooks; the node's sender retries with backoff (server/a2a/push-sender.ts). */
export interface PushDispatcher {
  dispatch(config: TaskPushNotificationConfig, event: StreamResponse): void;
}

/**
 * Told when a task reaches a terminal state, before that state is stored and sent: the metadata it returns joins the
 * task's and the final status update's (the task anchor's settlement status, src/a2a/settlement-follower.ts).
 */
export type TerminalHook = (task: Task) => JsonObject | undefined;

export interface TaskRunnerOptions {
  readonly store: TaskStore;
  readonly hub: StreamHub;
  readonly executor: AgentExecutor;
  readonly clock: Clock;
  readonly newId: () => string;
  readonly push?: PushDispatcher;
  readonly onTerminal?: TerminalHook;
}

export interface RunnerState extends TaskRunnerOptions {
  /** Tail of each task's queue of changes (serial.ts); dropped once the queue drains. */
  readonly locks: Map<string, Promise<unknown>>;
  /** The execution allowed to change each running task: a follow-up message replaces it. */
  readonly executions: Map<string, Execution>;
}

export interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

/** A promise settled from outside; never an unhandled rejection (nobody may be waiting on it). */
export function deferred<T>(): Deferred<T> {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/** One run of the executor on a task: what it has made of the task so far, and the promises start() hands out. */
export interface Execution {
  readonly context: RequestContext;
  readonly events: ExecutionEvents;
  readonly abort: AbortController;
  owner: string;
  task: Task | undefined;
  replied: boolean;
  readonly first: Deferred<SendMessageResponse>;
  readonly done: Deferred<SendMessageResponse>;
  readonly pushConfig: TaskPushNotificationConfig | undefined;
}

export const nowIso = (state: RunnerState): string => isoTimestamp(state.clock.nowMs());

/** A message from the agent on the task `ids` names. */
export function agentMessage(state: RunnerState, ids: { readonly taskId: string; readonly contextId: string }, parts: readonly Part[]): Message {
  return { messageId: state.newId(), role: 'ROLE_AGENT', parts, taskId: ids.taskId, contextId: ids.contextId };
}
