/**
 * Runs executors and owns every change to a task: each event is checked, applied (task-apply.ts), stored, and only
 * then sent to the task's streams and webhooks — so what a client saw is never lost on a crash. Changes to one task
 * are serialized through a per-task queue; a task keeps running when the client that started it goes away, because
 * execution is tied to the task, never to a connection (a2a-dotnet#344).
 */
import { ErrorCode } from '../errors.ts';
import type { Clock } from '../util/clock.ts';
import type { Principal } from './auth.ts';
import { A2aError, toA2aError } from './errors.ts';
import type { AgentExecutor, ExecutionEvents, RequestContext } from './executor.ts';
import { a2aRunningTasksMax } from './limits.ts';
import { isoTimestamp } from './protojson.ts';
import { closesStream, isTerminal } from './state-machine.ts';
import type { StreamHub } from './stream-hub.ts';
import { appendHistory, applyArtifact, applyStatus } from './task-apply.ts';
import type { StoredTask, TaskStore } from './task-store.ts';
import type { JsonObject, Message, Part, SendMessageResponse, StreamResponse, Task, TaskPushNotificationConfig, TaskState } from './types.ts';

/** Delivers task events to webhooks; the node's sender retries with backoff (server/a2a/push-sender.ts). */
export interface PushDispatcher {
  dispatch(config: TaskPushNotificationConfig, event: StreamResponse): void;
}

export interface StartInput {
  readonly message: Message;
  readonly principal: Principal;
  readonly existing: StoredTask | undefined;
  readonly metadata: JsonObject | undefined;
  readonly extensions: readonly string[];
  /** Created with the task, before its first event is sent (SendMessageConfiguration.taskPushNotificationConfig). */
  readonly pushConfig?: TaskPushNotificationConfig;
}

export interface Started {
  readonly taskId: string;
  /** Resolves with the first response: the reply Message, or the Task once it exists. */
  readonly first: Promise<SendMessageResponse>;
  /** Resolves when the task reaches a terminal or interrupted state, or the executor returns. */
  readonly done: Promise<SendMessageResponse>;
}

export interface TaskRunner {
  start(input: StartInput): Started;
  /** Cancels a task that is not terminal; resolves with the task after the change. */
  cancel(stored: StoredTask): Promise<Task>;
  running(taskId: string): boolean;
  /** Serializes `fn` with every other change to the task. */
  serial<T>(taskId: string, fn: () => Promise<T>): Promise<T>;
  /** Marks tasks left SUBMITTED or WORKING by a previous process as FAILED (they have no executor any more). */
  recover(): Promise<number>;
  /**
   * Merges `metadata` into a stored task's metadata and sends it as a status update (same status) to the task's
   * streams and webhooks: how the on-chain settlement of a finished task reaches its client.
   */
  annotate(taskId: string, metadata: JsonObject): Promise<Task | undefined>;
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

interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

interface Execution {
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

export function createTaskRunner(options: TaskRunnerOptions): TaskRunner {
  const { store, hub, executor, clock, newId, push, onTerminal } = options;
  const locks = new Map<string, Promise<unknown>>();
  const executions = new Map<string, Execution>();

  function serial<T>(taskId: string, fn: () => Promise<T>): Promise<T> {
    const prior = locks.get(taskId) ?? Promise.resolve();
    const next = prior.then(fn, fn);
    const tail = next.catch(() => undefined);
    locks.set(taskId, tail);
    void tail.then(() => locks.get(taskId) === tail && locks.delete(taskId));
    return next;
  }

  const now = () => isoTimestamp(clock.nowMs());

  /** Stores the task, then sends the event to streams and webhooks (store first: nothing sent is ever lost). */
  async function commit(owner: string, task: Task, event: StreamResponse, last: boolean): Promise<void> {
    await store.put({ task, owner });
    hub.publish(task.id, event, last);
    if (push) for (const config of store.listPushConfigs(task.id)) push.dispatch(config, event);
  }

  async function createTask(exec: Execution, seed: Task | undefined): Promise<Task> {
    const { context } = exec;
    const task: Task = {
      id: context.taskId,
      contextId: context.contextId,
      status: { state: seed?.status.state ?? 'TASK_STATE_SUBMITTED', timestamp: now(), ...(seed?.status.message ? { message: seed.status.message } : {}) },
      history: [context.message, ...(seed?.history ?? [])],
      ...(seed?.artifacts?.length ? { artifacts: seed.artifacts } : {}),
      ...(seed?.metadata ?? context.metadata ? { metadata: seed?.metadata ?? context.metadata } : {}),
    };
    if (exec.pushConfig) await store.putPushConfig({ ...exec.pushConfig, taskId: task.id, id: exec.pushConfig.id ?? newId() });
    exec.task = task;
    await commit(exec.owner, task, { task }, closesStream(task.status.state));
    exec.first.resolve({ task });
    if (closesStream(task.status.state)) exec.done.resolve({ task });
    return task;
  }

  async function apply(exec: Execution, event: StreamResponse): Promise<void> {
    const { context } = exec;
    // A follow-up message has started a newer execution of this task: this one may no longer change it.
    if (executions.get(context.taskId) !== exec) throw new A2aError('invalid_agent_response', 'events after the task was handed to a newer execution');
    if ('message' in event) {
      if (!exec.task && !exec.replied) {
        exec.replied = true;
        hub.publish(context.taskId, event, true);
        exec.first.resolve(event);
        exec.done.resolve(event);
        return;
      }
      if (!exec.task) throw new A2aError('invalid_agent_response', 'a reply message must be the only event');
      const message: Message = { ...event.message, taskId: exec.task.id, contextId: exec.task.contextId };
      exec.task = appendHistory(exec.task, message);
      await commit(exec.owner, exec.task, { message }, false);
      return;
    }
    if (exec.replied) throw new A2aError('invalid_agent_response', 'task events after a reply message');
    if ('task' in event) {
      if (!exec.task) await createTask(exec, event.task);
      else throw new A2aError('invalid_agent_response', 'a Task event for a task that already exists');
      return;
    }
    const task = exec.task ?? (await createTask(exec, undefined));
    if (isTerminal(task.status.state)) throw new A2aError('invalid_agent_response', `task ${task.id} is already ${task.status.state}`);
    if ('statusUpdate' in event) {
      const status = { ...event.statusUpdate.status, timestamp: now() };
      exec.task = applyStatus(task, status);
      const extra = isTerminal(status.state) ? onTerminal?.(exec.task) : undefined;
      if (extra !== undefined) exec.task = { ...exec.task, metadata: { ...exec.task.metadata, ...extra } };
      const last = closesStream(status.state);
      const update = { ...event.statusUpdate, taskId: task.id, contextId: task.contextId, status, ...(extra === undefined ? {} : { metadata: { ...event.statusUpdate.metadata, ...extra } }) };
      await commit(exec.owner, exec.task, { statusUpdate: update }, last);
      if (last) exec.done.resolve({ task: exec.task });
      return;
    }
    exec.task = applyArtifact(task, event.artifactUpdate);
    await commit(exec.owner, exec.task, { artifactUpdate: { ...event.artifactUpdate, taskId: task.id, contextId: task.contextId } }, false);
  }

  function agentMessage(context: RequestContext, parts: readonly Part[]): Message {
    return { messageId: newId(), role: 'ROLE_AGENT', parts, taskId: context.taskId, contextId: context.contextId };
  }

  function eventsFor(getExec: () => Execution): ExecutionEvents {
    const events: ExecutionEvents = {
      publish: (event) => {
        const exec = getExec();
        return serial(exec.context.taskId, () => apply(exec, event));
      },
      status: (state: TaskState, text?: string) => {
        const { context } = getExec();
        const status = { state, ...(text === undefined ? {} : { message: agentMessage(context, [{ text }]) }) };
        return events.publish({ statusUpdate: { taskId: context.taskId, contextId: context.contextId, status } });
      },
      artifact: (artifact, opts = {}) => {
        const { context } = getExec();
        return events.publish({ artifactUpdate: { taskId: context.taskId, contextId: context.contextId, artifact, ...opts } });
      },
      reply: (parts) => {
        const { context } = getExec();
        // A reply creates no task, so it names none (A2A 1.0 §3.1.1: a Message response).
        return events.publish({ message: { messageId: newId(), role: 'ROLE_AGENT', parts, contextId: context.contextId } });
      },
    };
    return events;
  }

  async function finish(exec: Execution, error: unknown): Promise<void> {
    const taskId = exec.context.taskId;
    const current = executions.get(taskId) === exec;
    await serial(taskId, async () => {
      if (current && error !== undefined && exec.task && !isTerminal(exec.task.status.state)) {
        const text = error instanceof A2aError ? error.message : 'the agent failed';
        const status = { state: 'TASK_STATE_FAILED' as const, timestamp: now(), message: agentMessage(exec.context, [{ text }]) };
        exec.task = applyStatus(exec.task, status);
        const extra = onTerminal?.(exec.task);
        if (extra !== undefined) exec.task = { ...exec.task, metadata: { ...exec.task.metadata, ...extra } };
        await commit(exec.owner, exec.task, { statusUpdate: { taskId, contextId: exec.task.contextId, status, ...(extra === undefined ? {} : { metadata: extra }) } }, true);
      }
    }).catch(() => undefined);
    if (executions.get(taskId) === exec) executions.delete(taskId);
    if (!exec.task && !exec.replied) {
      const failure = error === undefined ? new A2aError('invalid_agent_response', 'the agent returned without a reply or a task') : toA2aError(error);
      exec.first.reject(failure);
      exec.done.reject(failure);
      return;
    }
    if (!exec.task) return; // a reply: both promises already hold it
    exec.first.resolve({ task: exec.task });
    exec.done.resolve({ task: exec.task });
  }

  return {
    serial,
    // An execution whose task is waiting for input (or done) no longer blocks a follow-up, even while its
    // executor is still unwinding: the blocking SendMessage has answered already.
    running: (taskId) => {
      const exec = executions.get(taskId);
      return exec !== undefined && !(exec.task && closesStream(exec.task.status.state));
    },
    start(input) {
      if (executions.size >= a2aRunningTasksMax) throw new A2aError('unsupported_operation', `the agent is running ${a2aRunningTasksMax} tasks; try again later`);
      const taskId = input.existing?.task.id ?? newId();
      const contextId = input.existing?.task.contextId ?? input.message.contextId ?? newId();
      const message: Message = { ...input.message, taskId, contextId };
      const abort = new AbortController();
      const context: RequestContext = {
        taskId,
        contextId,
        message,
        task: input.existing?.task,
        metadata: input.metadata,
        principal: input.principal,
        extensions: input.extensions,
        signal: abort.signal,
        lookupTask: (id) => {
          const found = store.get(id);
          return found && found.owner === input.principal.id ? found.task : undefined;
        },
      };
      let exec!: Execution;
      exec = {
        context,
        events: eventsFor(() => exec),
        abort,
        owner: input.existing?.owner ?? input.principal.id,
        task: undefined,
        replied: false,
        first: deferred(),
        done: deferred(),
        pushConfig: input.pushConfig,
      };
      executions.set(taskId, exec);
      const begin = input.existing
        ? serial(taskId, async () => {
            // A follow-up: the client's message joins the history; streams open with the updated task.
            exec.task = appendHistory(input.existing!.task, message);
            await commit(exec.owner, exec.task, { task: exec.task }, false);
            exec.first.resolve({ task: exec.task });
          })
        : Promise.resolve();
      void begin
        .then(() => executor.execute(context, exec.events))
        .then(
          () => finish(exec, undefined),
          (error: unknown) => finish(exec, error ?? new A2aError('internal', 'agent failed')),
        );
      return { taskId, first: exec.first.promise, done: exec.done.promise };
    },
    async cancel(stored) {
      const taskId = stored.task.id;
      const exec = executions.get(taskId);
      if (exec) {
        exec.abort.abort();
        await executor.cancel?.(exec.context, exec.events).catch(() => undefined);
      }
      return serial(taskId, async () => {
        const current = exec?.task ?? store.get(taskId)?.task ?? stored.task;
        if (isTerminal(current.status.state)) return current;
        const status = { state: 'TASK_STATE_CANCELED' as const, timestamp: now() };
        let task = applyStatus(current, status);
        const extra = onTerminal?.(task);
        if (extra !== undefined) task = { ...task, metadata: { ...task.metadata, ...extra } };
        if (exec) exec.task = task;
        await commit(stored.owner, task, { statusUpdate: { taskId, contextId: task.contextId, status, ...(extra === undefined ? {} : { metadata: extra }) } }, true);
        exec?.done.resolve({ task });
        return task;
      });
    },
    annotate(taskId, metadata) {
      return serial(taskId, async () => {
        const stored = store.get(taskId);
        if (stored === undefined) return undefined;
        const exec = executions.get(taskId);
        const current = exec?.task ?? stored.task;
        const task: Task = { ...current, metadata: { ...current.metadata, ...metadata } };
        if (exec) exec.task = task;
        await commit(stored.owner, task, { statusUpdate: { taskId, contextId: task.contextId, status: task.status, metadata } }, closesStream(task.status.state));
        return task;
      });
    },
    async recover() {
      let count = 0;
      for (const stored of store.unfinished()) {
        const state = stored.task.status.state;
        if (state !== 'TASK_STATE_SUBMITTED' && state !== 'TASK_STATE_WORKING') continue;
        const status = { state: 'TASK_STATE_FAILED' as const, timestamp: now(), message: { messageId: newId(), role: 'ROLE_AGENT' as const, parts: [{ text: 'the node restarted while the task was running' }], taskId: stored.task.id, contextId: stored.task.contextId } };
        await store.put({ owner: stored.owner, task: applyStatus(stored.task, status) });
        count++;
      }
      return count;
    },
  };
}
