/** The event sink an executor is handed: each call becomes one event, applied in the task's queue. */
import type { ExecutionEvents } from '../executor.ts';
import type { TaskState } from '../types.ts';
import { applyEvent } from './apply.ts';
import { serial } from './serial.ts';
import { agentMessage, type Execution, type RunnerState } from './state.ts';

/** Events for the execution `getExec` returns (it is made after its sink, which it holds). */
export function executionEvents(state: RunnerState, getExec: () => Execution): ExecutionEvents {
  const events: ExecutionEvents = {
    publish: (event) => {
      const exec = getExec();
      return serial(state, exec.context.taskId, () => applyEvent(state, exec, event));
    },
    status: (taskState: TaskState, text?: string) => {
      const { context } = getExec();
      const status = { state: taskState, ...(text === undefined ? {} : { message: agentMessage(state, context, [{ text }]) }) };
      return events.publish({ statusUpdate: { taskId: context.taskId, contextId: context.contextId, status } });
    },
    artifact: (artifact, opts = {}) => {
      const { context } = getExec();
      return events.publish({ artifactUpdate: { taskId: context.taskId, contextId: context.contextId, artifact, ...opts } });
    },
    reply: (parts) => {
      const { context } = getExec();
      // A reply creates no task, so it names none (A2A 1.0 §3.1.1: a Message response).
      return events.publish({ message: { messageId: state.newId(), role: 'ROLE_AGENT', parts, contextId: context.contextId } });
    },
  };
  return events;
}
