/**
 * The task lifecycle (docs/a2a.md "Task states"). A2A 1.0 gives no formal table; this one follows its prose:
 * terminal states are final (§3.1.5: a follow-up opens a new task in the same context), interrupted states wait for
 * the client (INPUT_REQUIRED: a message with the same taskId; AUTH_REQUIRED: credentials in band or out of band)
 * and resume as WORKING, and anything not yet terminal may be canceled, failed or rejected.
 */
import type { TaskState } from './types.ts';

const terminalStates: ReadonlySet<TaskState> = new Set([
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
]);
const interruptedStates: ReadonlySet<TaskState> = new Set(['TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_AUTH_REQUIRED']);

export const isTerminal = (s: TaskState): boolean => terminalStates.has(s);
const isInterrupted = (s: TaskState): boolean => interruptedStates.has(s);

const endings: readonly TaskState[] = ['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED', 'TASK_STATE_REJECTED'];

/** from → the states it may move to. A state may also repeat itself (a new status message, same state). */
export const transitions: Readonly<Record<TaskState, readonly TaskState[]>> = {
  TASK_STATE_SUBMITTED: ['TASK_STATE_WORKING', 'TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_AUTH_REQUIRED', ...endings],
  TASK_STATE_WORKING: ['TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_AUTH_REQUIRED', ...endings],
  TASK_STATE_INPUT_REQUIRED: ['TASK_STATE_WORKING', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED', 'TASK_STATE_REJECTED'],
  TASK_STATE_AUTH_REQUIRED: ['TASK_STATE_WORKING', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED', 'TASK_STATE_REJECTED'],
  TASK_STATE_COMPLETED: [],
  TASK_STATE_FAILED: [],
  TASK_STATE_CANCELED: [],
  TASK_STATE_REJECTED: [],
};

export function canTransition(from: TaskState, to: TaskState): boolean {
  return (from === to && !isTerminal(from)) || transitions[from].includes(to);
}

/** Streams close after a terminal or interrupted state (docs/a2a.md "Streams"). */
export const closesStream = (s: TaskState): boolean => isTerminal(s) || isInterrupted(s);
