/**
 * SendMessage and SendStreamingMessage (A2A 1.0 §3.1): the message is checked, settlement and the anonymous key
 * are settled, and the runner starts the work; a blocking send waits for the task to stop, a stream subscribes in
 * the same tick as the start so it misses no event.
 */
import { anonymousKeyMetadata, anonymousPrincipal, mintAnonymousKey } from '../anonymous.ts';
import { anonymous } from '../auth.ts';
import { invalidParams, unsupportedOperation } from '../errors.ts';
import { parseParams, sendMessageSchema } from '../protojson.ts';
import { isTerminal } from '../state-machine.ts';
import type { Subscription } from '../stream-hub.ts';
import { viewTask } from '../task-apply.ts';
import type { StoredTask } from '../task-store.ts';
import type { Message, SendMessageResponse, TaskPushNotificationConfig } from '../types.ts';
import { checkParts, ownedTask, requirePush, requireStreaming } from './access.ts';
import { releaseEscrowWhenStored, settledMetadata } from './settle.ts';
import type { CallContext, HandlerState } from './state.ts';

export async function sendMessage(state: HandlerState, params: unknown, ctx: CallContext): Promise<SendMessageResponse> {
  const { started, config } = await begin(state, params, ctx, false);
  const immediately = config?.returnImmediately ?? config?.blocking === false;
  const response = await (immediately ? started.first : started.done);
  return 'task' in response ? { task: viewTask(response.task, { historyLength: config?.historyLength }) } : response;
}

export async function sendStreamingMessage(state: HandlerState, params: unknown, ctx: CallContext): Promise<Subscription> {
  requireStreaming(state);
  const { started, subscription } = await begin(state, params, ctx, true);
  try {
    await started.first;
    return subscription!;
  } catch (error) {
    subscription!.close();
    throw error;
  }
}

/** Checks the request and starts its work; with `stream`, subscribes to the task before any event is sent. */
async function begin(state: HandlerState, params: unknown, ctx: CallContext, stream: boolean) {
  const req = parseParams(sendMessageSchema, params);
  const message = req.message as Message;
  if (message.role !== 'ROLE_USER') throw invalidParams('message.role: expected ROLE_USER', 'message.role');
  checkParts(state, message.parts);
  const existing = message.taskId === undefined ? undefined : followedUpTask(state, message.taskId, message, ctx);
  // Before any task exists: an escrow that cannot pay refuses the request (-32104) and changes nothing.
  let metadata = settledMetadata(state, req.metadata);
  // A new task of a caller with no credentials and no key gets its own key (anonymous.ts), returned in metadata.
  let principal = ctx.principal;
  if (existing === undefined && principal.id === anonymous.id) {
    const key = mintAnonymousKey(state.newId);
    principal = anonymousPrincipal(key);
    metadata = { ...metadata, [anonymousKeyMetadata]: key };
  }
  const config = req.configuration;
  const push = config?.taskPushNotificationConfig ?? config?.pushNotificationConfig;
  if (push) {
    requirePush(state);
    await state.validatePushUrl?.(push.url);
    if (message.taskId !== undefined && state.runner.running(message.taskId)) throw unsupportedOperation(`task ${message.taskId} is still working`);
  }
  const started = state.runner.start({
    message,
    principal,
    existing,
    metadata,
    extensions: ctx.extensions,
    ...(push ? { pushConfig: push as TaskPushNotificationConfig } : {}),
  });
  // Subscribing in the same tick as start(), before any event can be published (they come on later ticks).
  const subscription = stream ? state.hub.subscribe(started.taskId, []) : undefined;
  releaseEscrowWhenStored(state, metadata, started);
  return { started, config, subscription };
}

/** The caller's task a follow-up message continues: one waiting for input, in the message's context, not running. */
function followedUpTask(state: HandlerState, taskId: string, message: Message, ctx: CallContext): StoredTask {
  const existing = ownedTask(state, taskId, ctx);
  if (isTerminal(existing.task.status.state)) throw unsupportedOperation(`task ${taskId} is ${existing.task.status.state}; start a new task in its context`);
  if (message.contextId !== undefined && message.contextId !== existing.task.contextId) throw invalidParams(`message.contextId: task ${taskId} belongs to another context`, 'message.contextId');
  if (state.runner.running(taskId)) throw unsupportedOperation(`task ${taskId} is still working; wait for it or cancel it`);
  return existing;
}
