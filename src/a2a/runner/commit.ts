/**
 * Where every change to a task ends: stored first, then sent to its streams and webhooks, so what a client saw is
 * never lost on a crash. A terminal status goes through `terminalTask`, which lets the terminal hook add its
 * metadata (the task anchor) to the task and to the final status update.
 */
import type { JsonObject, StreamResponse, Task, TaskStatus } from '../types.ts';
import { applyStatus } from '../task-apply.ts';
import type { RunnerState } from './state.ts';

/** Stores the task, then sends the event to streams and webhooks (store first: nothing sent is ever lost). */
export async function commit(state: RunnerState, owner: string, task: Task, event: StreamResponse, last: boolean): Promise<void> {
  await state.store.put({ task, owner });
  state.hub.publish(task.id, event, last);
  if (state.push) for (const config of state.store.listPushConfigs(task.id)) state.push.dispatch(config, event);
}

/** The task in `status`, with the terminal hook's metadata merged in; `extra` is that metadata, if any. */
export function terminalTask(state: RunnerState, task: Task, status: TaskStatus): { readonly task: Task; readonly extra: JsonObject | undefined } {
  const next = applyStatus(task, status);
  const extra = state.onTerminal?.(next);
  return { task: extra === undefined ? next : { ...next, metadata: { ...next.metadata, ...extra } }, extra };
}

/**
 * The task moved to a terminal `status` the runner decided (failed, canceled) and the status update that says so,
 * carrying the hook's metadata; the caller commits it as the last event of the task's streams.
 */
export function terminalChange(state: RunnerState, current: Task, status: TaskStatus): { readonly task: Task; readonly event: StreamResponse } {
  const { task, extra } = terminalTask(state, current, status);
  return { task, event: { statusUpdate: { taskId: task.id, contextId: task.contextId, status, ...(extra === undefined ? {} : { metadata: extra }) } } };
}
