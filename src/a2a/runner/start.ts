/**
 * Starting work: a new task, or a follow-up message on one waiting for input. The executor runs tied to the task,
 * never to a connection (a2a-dotnet#344): a client that goes away leaves it running. When the executor returns or
 * throws, `finishExecution` settles what start() handed out and fails a task it left unfinished.
 */
import type { Principal } from '../principal.ts';
import { A2aError, invalidAgentResponse, toA2aError } from '../errors.ts';
import type { RequestContext } from '../executor.ts';
import { a2aRunningTasksMax } from '../limits.ts';
import { isTerminal } from '../state-machine.ts';
import { appendHistory } from '../task-apply.ts';
import type { StoredTask } from '../task-store.ts';
import type { JsonObject, Message, SendMessageResponse, TaskPushNotificationConfig } from '../types.ts';
import { commit, terminalChange } from './commit.ts';
import { executionEvents } from './events.ts';
import { serial } from './serial.ts';
import { agentMessage, deferred, nowIso, type Execution, type RunnerState } from './state.ts';

export interface StartInput {
  readonly message: Message;
  readonly principal: Principal;
  readonly existing: StoredTask | undefined;
  readonly metadata: JsonObject | undefined;
  readonly extensions: readonly string[];
  /** Created with the task, before its first event is sent (SendMessageConfiguration.taskPushNotificationConfig). */
  readonly pushConfig?: TaskPushNotificationConfig;
}

export interface Started {
  readonly taskId: string;
  /** Resolves with the first response: the reply Message, or the Task once it exists. */
  readonly first: Promise<SendMessageResponse>;
  /** Resolves when the task reaches a terminal or interrupted state, or the executor returns. */
  readonly done: Promise<SendMessageResponse>;
}

/** Runs the executor on the input's task; refuses when `a2aRunningTasksMax` tasks are running. */
export function startTask(state: RunnerState, input: StartInput): Started {
  if (state.executions.size >= a2aRunningTasksMax) throw new A2aError('unsupported_operation', `the agent is running ${a2aRunningTasksMax} tasks; try again later`);
  const exec = newExecution(state, input);
  const { taskId } = exec.context;
  state.executions.set(taskId, exec);
  const begin = input.existing
    ? serial(state, taskId, async () => {
        // A follow-up: the client's message joins the history; streams open with the updated task.
        exec.task = appendHistory(input.existing!.task, exec.context.message);
        await commit(state, exec.owner, exec.task, { task: exec.task }, false);
        exec.first.resolve({ task: exec.task });
      })
    : Promise.resolve();
  void begin
    .then(() => state.executor.execute(exec.context, exec.events))
    .then(
      () => finishExecution(state, exec, undefined),
      (error: unknown) => finishExecution(state, exec, error ?? new A2aError('internal', 'agent failed')),
    );
  return { taskId, first: exec.first.promise, done: exec.done.promise };
}

/** The execution of the input's task (new ids for new work), with its request context and event sink. */
function newExecution(state: RunnerState, input: StartInput): Execution {
  const taskId = input.existing?.task.id ?? state.newId();
  const contextId = input.existing?.task.contextId ?? input.message.contextId ?? state.newId();
  const abort = new AbortController();
  const context: RequestContext = {
    taskId,
    contextId,
    message: { ...input.message, taskId, contextId },
    task: input.existing?.task,
    metadata: input.metadata,
    principal: input.principal,
    extensions: input.extensions,
    signal: abort.signal,
    lookupTask: (id) => {
      const found = state.store.get(id);
      return found && found.owner === input.principal.id ? found.task : undefined;
    },
  };
  const exec: Execution = {
    context,
    events: executionEvents(state, () => exec),
    abort,
    owner: input.existing?.owner ?? input.principal.id,
    task: undefined,
    replied: false,
    first: deferred(),
    done: deferred(),
    pushConfig: input.pushConfig,
  };
  return exec;
}

/** After the executor: a task it left unfinished on an error fails; start()'s promises get their answer. */
async function finishExecution(state: RunnerState, exec: Execution, error: unknown): Promise<void> {
  const taskId = exec.context.taskId;
  const current = state.executions.get(taskId) === exec;
  await serial(state, taskId, async () => {
    if (current && error !== undefined && exec.task && !isTerminal(exec.task.status.state)) {
      const text = error instanceof A2aError ? error.message : 'the agent failed';
      const status = { state: 'TASK_STATE_FAILED' as const, timestamp: nowIso(state), message: agentMessage(state, exec.context, [{ text }]) };
      const { task, event } = terminalChange(state, exec.task, status);
      exec.task = task;
      await commit(state, exec.owner, task, event, true);
    }
  }).catch(() => undefined);
  if (state.executions.get(taskId) === exec) state.executions.delete(taskId);
  if (!exec.task && !exec.replied) {
    const failure = error === undefined ? invalidAgentResponse('the agent returned without a reply or a task') : toA2aError(error);
    exec.first.reject(failure);
    exec.done.reject(failure);
    return;
  }
  if (!exec.task) return; // a reply: both promises already hold it
  exec.first.resolve({ task: exec.task });
  exec.done.resolve({ task: exec.task });
}
