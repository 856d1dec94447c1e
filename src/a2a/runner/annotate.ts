/**
 * Metadata the node adds to a task after the executor (the task anchor's settlement status, settlement-follower.ts):
 * merged into the stored task and sent as a status update with the same status.
 */
import { closesStream } from '../state-machine.ts';
import type { JsonObject, Task } from '../types.ts';
import { commit } from './commit.ts';
import { serial } from './serial.ts';
import type { RunnerState } from './state.ts';

/** Merges `metadata` into the stored task in its queue; undefined when no such task is stored. */
export function annotateTask(state: RunnerState, taskId: string, metadata: JsonObject): Promise<Task | undefined> {
  return serial(state, taskId, async () => {
    const stored = state.store.get(taskId);
    if (stored === undefined) return undefined;
    const exec = state.executions.get(taskId);
    const current = exec?.task ?? stored.task;
    const task: Task = { ...current, metadata: { ...current.metadata, ...metadata } };
    if (exec) exec.task = task;
    await commit(state, stored.owner, task, { statusUpdate: { taskId, contextId: task.contextId, status: task.status, metadata } }, closesStream(task.status.state));
    return task;
  });
}
