/**
 * One event from an executor, checked against what the execution has done so far and against the lifecycle, then
 * applied (task-apply.ts) and committed. A reply message is the whole answer of work that makes no task; anything
 * else is about the execution's task, created by its first event.
 */
import { invalidAgentResponse } from '../errors.ts';
import { closesStream, isTerminal } from '../state-machine.ts';
import { appendHistory, applyArtifact, applyStatus } from '../task-apply.ts';
import type { Message, StreamResponse, Task, TaskStatusUpdateEvent } from '../types.ts';
import { commit, terminalTask } from './commit.ts';
import { nowIso, type Execution, type RunnerState } from './state.ts';

/** Creates the execution's task from the request (and the executor's Task event, if it sent one) and commits it. */
async function createTask(state: RunnerState, exec: Execution, seed: Task | undefined): Promise<Task> {
  const { context } = exec;
  const task: Task = {
    id: context.taskId,
    contextId: context.contextId,
    status: { state: seed?.status.state ?? 'TASK_STATE_SUBMITTED', timestamp: nowIso(state), ...(seed?.status.message ? { message: seed.status.message } : {}) },
    history: [context.message, ...(seed?.history ?? [])],
    ...(seed?.artifacts?.length ? { artifacts: seed.artifacts } : {}),
    ...(seed?.metadata ?? context.metadata ? { metadata: seed?.metadata ?? context.metadata } : {}),
  };
  if (exec.pushConfig) await state.store.putPushConfig({ ...exec.pushConfig, taskId: task.id, id: exec.pushConfig.id ?? state.newId() });
  exec.task = task;
  await commit(state, exec.owner, task, { task }, closesStream(task.status.state));
  exec.first.resolve({ task });
  if (closesStream(task.status.state)) exec.done.resolve({ task });
  return task;
}

/** Applies one executor event; throws (and changes nothing) when the event breaks the protocol or the lifecycle. */
export async function applyEvent(state: RunnerState, exec: Execution, event: StreamResponse): Promise<void> {
  // A follow-up message has started a newer execution of this task: this one may no longer change it.
  if (state.executions.get(exec.context.taskId) !== exec) throw invalidAgentResponse('events after the task was handed to a newer execution');
  if ('message' in event) return applyMessage(state, exec, event);
  if (exec.replied) throw invalidAgentResponse('task events after a reply message');
  if ('task' in event) {
    if (exec.task) throw invalidAgentResponse('a Task event for a task that already exists');
    await createTask(state, exec, event.task);
    return;
  }
  const task = exec.task ?? (await createTask(state, exec, undefined));
  if (isTerminal(task.status.state)) throw invalidAgentResponse(`task ${task.id} is already ${task.status.state}`);
  if ('statusUpdate' in event) return applyStatusUpdate(state, exec, task, event.statusUpdate);
  exec.task = applyArtifact(task, event.artifactUpdate);
  await commit(state, exec.owner, exec.task, { artifactUpdate: { ...event.artifactUpdate, taskId: task.id, contextId: task.contextId } }, false);
}

/** The first event as a reply (no task is made), or an agent message joining the task's history. */
async function applyMessage(state: RunnerState, exec: Execution, event: { readonly message: Message }): Promise<void> {
  if (!exec.task && !exec.replied) {
    exec.replied = true;
    state.hub.publish(exec.context.taskId, event, true);
    exec.first.resolve(event);
    exec.done.resolve(event);
    return;
  }
  if (!exec.task) throw invalidAgentResponse('a reply message must be the only event');
  const message: Message = { ...event.message, taskId: exec.task.id, contextId: exec.task.contextId };
  exec.task = appendHistory(exec.task, message);
  await commit(state, exec.owner, exec.task, { message }, false);
}

/** A status move stamped with the node's time; a terminal one carries the terminal hook's metadata. */
async function applyStatusUpdate(state: RunnerState, exec: Execution, task: Task, statusUpdate: TaskStatusUpdateEvent): Promise<void> {
  const status = { ...statusUpdate.status, timestamp: nowIso(state) };
  const { task: next, extra } = isTerminal(status.state) ? terminalTask(state, task, status) : { task: applyStatus(task, status), extra: undefined };
  exec.task = next;
  const last = closesStream(status.state);
  const update = { ...statusUpdate, taskId: task.id, contextId: task.contextId, status, ...(extra === undefined ? {} : { metadata: { ...statusUpdate.metadata, ...extra } }) };
  await commit(state, exec.owner, exec.task, { statusUpdate: update }, last);
  if (last) exec.done.resolve({ task: exec.task });
}
