/** CancelTask's change: the executor is told to stop, then the task moves to CANCELED in its queue. */
import { isTerminal } from '../state-machine.ts';
import type { StoredTask } from '../task-store.ts';
import type { Task } from '../types.ts';
import { commit, terminalChange } from './commit.ts';
import { serial } from './serial.ts';
import { nowIso, type RunnerState } from './state.ts';

/** Cancels a task that is not terminal; resolves with the task after the change (unchanged if it had ended). */
export async function cancelTask(state: RunnerState, stored: StoredTask): Promise<Task> {
  const taskId = stored.task.id;
  const exec = state.executions.get(taskId);
  if (exec) {
    exec.abort.abort();
    await state.executor.cancel?.(exec.context, exec.events).catch(() => undefined);
  }
  return serial(state, taskId, async () => {
    const current = exec?.task ?? state.store.get(taskId)?.task ?? stored.task;
    if (isTerminal(current.status.state)) return current;
    const { task, event } = terminalChange(state, current, { state: 'TASK_STATE_CANCELED', timestamp: nowIso(state) });
    if (exec) exec.task = task;
    await commit(state, stored.owner, task, event, true);
    exec?.done.resolve({ task });
    return task;
  });
}
