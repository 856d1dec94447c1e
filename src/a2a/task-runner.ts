/**
 * Runs executors and owns every change to a task: each event is checked, applied (task-apply.ts), stored, and only
 * then sent to the task's streams and webhooks — so what a client saw is never lost on a crash. Changes to one task
 * are serialized through a per-task queue; a task keeps running when the client that started it goes away, because
 * execution is tied to the task, never to a connection (a2a-dotnet#344).
 *
 * The state is `RunnerState` (runner/state.ts); each operation is a free function over it in runner/: start.ts
 * (start, and the end of an execution), apply.ts (one executor event), cancel.ts, annotate.ts, recover.ts, with
 * commit.ts (store, then send) and serial.ts (the per-task queue) under them. This file wires them.
 */
import { annotateTask } from './runner/annotate.ts';
import { cancelTask } from './runner/cancel.ts';
import { recoverTasks } from './runner/recover.ts';
import { serial } from './runner/serial.ts';
import { startTask, type StartInput, type Started } from './runner/start.ts';
import type { RunnerState, TaskRunnerOptions } from './runner/state.ts';
import { closesStream } from './state-machine.ts';
import type { StoredTask } from './task-store.ts';
import type { JsonObject, Task } from './types.ts';

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

export function createTaskRunner(options: TaskRunnerOptions): TaskRunner {
  const state: RunnerState = { ...options, locks: new Map(), executions: new Map() };
  return {
    serial: (taskId, fn) => serial(state, taskId, fn),
    // An execution whose task is waiting for input (or done) no longer blocks a follow-up, even while its
    // executor is still unwinding: the blocking SendMessage has answered already.
    running: (taskId) => {
      const exec = state.executions.get(taskId);
      return exec !== undefined && !(exec.task && closesStream(exec.task.status.state));
    },
    start: (input) => startTask(state, input),
    cancel: (stored) => cancelTask(state, stored),
    annotate: (taskId, metadata) => annotateTask(state, taskId, metadata),
    recover: () => recoverTasks(state),
  };
}
