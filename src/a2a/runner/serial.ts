/** The per-task queue: every change to one task runs after the previous one settles, whatever its outcome. */
import type { RunnerState } from './state.ts';

/** Runs `fn` after every change to the task queued before it; the queue's entry goes once it drains. */
export function serial<T>(state: RunnerState, taskId: string, fn: () => Promise<T>): Promise<T> {
  const { locks } = state;
  const prior = locks.get(taskId) ?? Promise.resolve();
  const next = prior.then(fn, fn);
  const tail = next.catch(() => undefined);
  locks.set(taskId, tail);
  void tail.then(() => locks.get(taskId) === tail && locks.delete(taskId));
  return next;
}
