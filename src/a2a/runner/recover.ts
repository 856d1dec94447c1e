/** Start-up: tasks a previous process left SUBMITTED or WORKING have no executor any more; they are marked FAILED. */
import { applyStatus } from '../task-apply.ts';
import { agentMessage, nowIso, type RunnerState } from './state.ts';

/** Marks each such task FAILED in the store (nobody is subscribed yet); resolves with how many. */
export async function recoverTasks(state: RunnerState): Promise<number> {
  let count = 0;
  for (const stored of state.store.unfinished()) {
    const taskState = stored.task.status.state;
    if (taskState !== 'TASK_STATE_SUBMITTED' && taskState !== 'TASK_STATE_WORKING') continue;
    const ids = { taskId: stored.task.id, contextId: stored.task.contextId };
    const status = { state: 'TASK_STATE_FAILED' as const, timestamp: nowIso(state), message: agentMessage(state, ids, [{ text: 'the node restarted while the task was running' }]) };
    await state.store.put({ owner: stored.owner, task: applyStatus(stored.task, status) });
    count++;
  }
  return count;
}
