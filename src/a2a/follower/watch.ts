/** Starting to follow a finished settled task: when it ends (the runner's terminal hook), or on start-up (resume). */
import { escrowIdBytes, followsChain, taskAnchorOf } from '../settlement-index.ts';
import type { TaskAnchor } from '../settlement.ts';
import type { JsonObject, Task } from '../types.ts';
import type { FollowerState } from './state.ts';
import { tickFollower } from './tick.ts';

/** The terminal hook: follows an anchored task; a completed one's anchor gains `claim: waiting` (returned to send). */
export function watchTerminal(state: FollowerState, task: Task): JsonObject | undefined {
  const anchor = taskAnchorOf(task);
  if (anchor === undefined) return undefined;
  const completed = task.status.state === 'TASK_STATE_COMPLETED';
  const next: TaskAnchor = completed ? { ...anchor, claim: { status: 'waiting' } } : anchor;
  state.watched.set(task.id, { anchor: next, escrowId: escrowIdBytes(anchor.escrow_id), completed });
  // After the terminal state is stored (the runner's queue runs annotate after it).
  queueMicrotask(() => void tickFollower(state));
  return completed ? { taskAnchor: { ...next } as unknown as JsonObject } : undefined;
}

/** Follows again a finished task stored before a restart, from its anchor as stored. */
export function resumeTask(state: FollowerState, task: Task): void {
  const anchor = taskAnchorOf(task);
  if (anchor === undefined || !followsChain(task) || state.watched.has(task.id)) return;
  const completed = task.status.state === 'TASK_STATE_COMPLETED';
  // A completed task stored by a process that never followed it (recover() marks only unfinished ones failed).
  const next: TaskAnchor = completed && anchor.claim === undefined ? { ...anchor, claim: { status: 'waiting' } } : anchor;
  state.watched.set(task.id, { anchor: next, escrowId: escrowIdBytes(anchor.escrow_id), completed });
}
