/** GetTask, ListTasks, CancelTask and SubscribeToTask (A2A 1.0 §3.1): the caller's own tasks only. */
import { anonymous } from '../auth.ts';
import { A2aError, invalidParams, unsupportedOperation } from '../errors.ts';
import { a2aListPageSizeDefault, a2aListPageSizeMax } from '../limits.ts';
import { cancelTaskSchema, getTaskSchema, listTasksSchema, parseParams, rfc3339Ms, subscribeSchema } from '../protojson.ts';
import { isTerminal } from '../state-machine.ts';
import type { Subscription } from '../stream-hub.ts';
import { viewTask } from '../task-apply.ts';
import type { ListTasksResponse, Task } from '../types.ts';
import { ownedTask, requireStreaming } from './access.ts';
import type { CallContext, HandlerState } from './state.ts';

export async function getTask(state: HandlerState, params: unknown, ctx: CallContext): Promise<Task> {
  const req = parseParams(getTaskSchema, params);
  return viewTask(ownedTask(state, req.id, ctx).task, { historyLength: req.historyLength });
}

export async function listTasks(state: HandlerState, params: unknown, ctx: CallContext): Promise<ListTasksResponse> {
  const req = parseParams(listTasksSchema, params);
  const pageSize = req.pageSize ?? a2aListPageSizeDefault;
  if (pageSize < 1 || pageSize > a2aListPageSizeMax) throw invalidParams(`pageSize: got ${pageSize}, expected 1..${a2aListPageSizeMax}`, 'pageSize');
  if (ctx.principal.id === anonymous.id) return { tasks: [], nextPageToken: '', pageSize, totalSize: 0 };
  let page;
  try {
    page = state.store.list(
      {
        owner: ctx.principal.id,
        ...(req.contextId ? { contextId: req.contextId } : {}),
        ...(req.status ? { status: req.status } : {}),
        ...(req.statusTimestampAfter ? { statusAfterMs: rfc3339Ms(req.statusTimestampAfter) } : {}),
      },
      pageSize,
      req.pageToken ?? '',
    );
  } catch (error) {
    if (error instanceof RangeError) throw invalidParams(error.message, 'pageToken');
    throw error;
  }
  const tasks = page.tasks.map((s) => viewTask(s.task, { historyLength: req.historyLength, includeArtifacts: req.includeArtifacts ?? false }));
  return { tasks, nextPageToken: page.nextPageToken, pageSize, totalSize: page.totalSize };
}

export async function cancelTask(state: HandlerState, params: unknown, ctx: CallContext): Promise<Task> {
  const req = parseParams(cancelTaskSchema, params);
  const stored = ownedTask(state, req.id, ctx);
  if (isTerminal(stored.task.status.state)) {
    throw new A2aError('task_not_cancelable', `task ${req.id} is ${stored.task.status.state} and cannot be canceled`, { taskId: req.id });
  }
  return state.runner.cancel(stored);
}

export async function subscribeToTask(state: HandlerState, params: unknown, ctx: CallContext): Promise<Subscription> {
  requireStreaming(state);
  const req = parseParams(subscribeSchema, params);
  ownedTask(state, req.id, ctx);
  // Snapshot and subscription in the task's queue, so no event falls between them (first event = the Task).
  return state.runner.serial(req.id, async () => {
    const task = ownedTask(state, req.id, ctx).task;
    if (isTerminal(task.status.state)) throw unsupportedOperation(`task ${req.id} is ${task.status.state}; nothing more will happen`);
    return state.hub.subscribe(req.id, [{ task }]);
  });
}
