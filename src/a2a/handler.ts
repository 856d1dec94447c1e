/**
 * The 11 A2A operations (A2A 1.0 §3.1), once, behind every binding: JSON-RPC, HTTP+JSON, SSE, WebSocket and gRPC
 * all parse their transport into (params, CallContext) and call these. Params are ProtoJSON, validated here.
 */
import { fromHex } from '../util/bytes.ts';
import type { Clock } from '../util/clock.ts';
import { anonymousKeyMetadata, anonymousPrincipal, mintAnonymousKey } from './anonymous.ts';
import { anonymous, type Principal } from './auth.ts';
import type { AgentCard } from './card.ts';
import { A2aError, invalidParams, taskNotFound, unauthenticated, unsupportedOperation } from './errors.ts';
import type { AgentExecutor } from './executor.ts';
import { a2aListPageSizeDefault, a2aListPageSizeMax, a2aPushConfigPageSizeMax, a2aPushConfigsPerTaskMax } from './limits.ts';
import {
  cancelTaskSchema,
  getTaskSchema,
  listPushConfigsSchema,
  listTasksSchema,
  parseParams,
  pushConfigRefSchema,
  pushConfigSchema,
  rfc3339Ms,
  sendMessageSchema,
  subscribeSchema,
} from './protojson.ts';
import { checkChainSettlement, parseChainSettlement, settlementRefused, type SettlementPolicy } from './settlement.ts';
import { isTerminal } from './state-machine.ts';
import { createStreamHub, type StreamHub, type Subscription } from './stream-hub.ts';
import { viewTask } from './task-apply.ts';
import type { PushDispatcher, TerminalHook } from './runner/state.ts';
import { createTaskRunner, type TaskRunner } from './task-runner.ts';
import type { StoredTask, TaskStore } from './task-store.ts';
import type {
  JsonObject,
  ListTaskPushNotificationConfigsResponse,
  ListTasksResponse,
  Message,
  Part,
  SendMessageResponse,
  Task,
  TaskPushNotificationConfig,
} from './types.ts';

export interface CallContext {
  readonly principal: Principal;
  /** Extensions the client activated that the card declares (negotiate.ts). */
  readonly extensions: readonly string[];
}

export interface A2aHandlerOptions {
  readonly store: TaskStore;
  readonly executor: AgentExecutor;
  readonly clock: Clock;
  /** Fresh ids for tasks, contexts, messages and push configs (UUID v4 from a random source). */
  readonly newId: () => string;
  readonly card: AgentCard;
  /** Served by GetExtendedAgentCard to authenticated callers when the card declares extendedAgentCard. */
  readonly extendedCard?: AgentCard;
  readonly push?: PushDispatcher;
  /** Refuses webhook URLs the node must not call (the SSRF guard); throws InvalidParams. */
  readonly validatePushUrl?: (url: string) => Promise<void>;
  /** On-chain settlement (settlement.ts): escrows named in `metadata.chainSettlement` are checked against it. */
  readonly settlement?: SettlementPolicy;
  /** Told of each task reaching a terminal state (the settlement follower's claim, settlement-follower.ts). */
  readonly onTerminal?: TerminalHook;
}

export interface A2aHandler {
  readonly card: AgentCard;
  readonly runner: TaskRunner;
  readonly hub: StreamHub;
  sendMessage(params: unknown, ctx: CallContext): Promise<SendMessageResponse>;
  sendStreamingMessage(params: unknown, ctx: CallContext): Promise<Subscription>;
  getTask(params: unknown, ctx: CallContext): Promise<Task>;
  listTasks(params: unknown, ctx: CallContext): Promise<ListTasksResponse>;
  cancelTask(params: unknown, ctx: CallContext): Promise<Task>;
  subscribeToTask(params: unknown, ctx: CallContext): Promise<Subscription>;
  createTaskPushNotificationConfig(params: unknown, ctx: CallContext): Promise<TaskPushNotificationConfig>;
  getTaskPushNotificationConfig(params: unknown, ctx: CallContext): Promise<TaskPushNotificationConfig>;
  listTaskPushNotificationConfigs(params: unknown, ctx: CallContext): Promise<ListTaskPushNotificationConfigsResponse>;
  deleteTaskPushNotificationConfig(params: unknown, ctx: CallContext): Promise<Record<string, never>>;
  getExtendedAgentCard(params: unknown, ctx: CallContext): Promise<AgentCard>;
}

/** JSON-RPC method name → handler member; `stream` methods answer with a Subscription. */
export const a2aMethods = {
  SendMessage: { op: 'sendMessage', stream: false },
  SendStreamingMessage: { op: 'sendStreamingMessage', stream: true },
  GetTask: { op: 'getTask', stream: false },
  ListTasks: { op: 'listTasks', stream: false },
  CancelTask: { op: 'cancelTask', stream: false },
  SubscribeToTask: { op: 'subscribeToTask', stream: true },
  CreateTaskPushNotificationConfig: { op: 'createTaskPushNotificationConfig', stream: false },
  // The agent seed's name for Create (A2A 0.3 called it set); accepted as an alias.
  SetTaskPushNotificationConfig: { op: 'createTaskPushNotificationConfig', stream: false },
  GetTaskPushNotificationConfig: { op: 'getTaskPushNotificationConfig', stream: false },
  ListTaskPushNotificationConfigs: { op: 'listTaskPushNotificationConfigs', stream: false },
  // The seed's singular spelling.
  ListTaskPushNotificationConfig: { op: 'listTaskPushNotificationConfigs', stream: false },
  DeleteTaskPushNotificationConfig: { op: 'deleteTaskPushNotificationConfig', stream: false },
  GetExtendedAgentCard: { op: 'getExtendedAgentCard', stream: false },
} as const satisfies Record<string, { op: keyof A2aHandler; stream: boolean }>;
export type A2aMethod = keyof typeof a2aMethods;

function pageOffset(token: string | undefined): number {
  if (!token) return 0;
  const n = Number(token);
  if (!Number.isSafeInteger(n) || n < 0) throw invalidParams('pageToken: not a token this server issued', 'pageToken');
  return n;
}

export function createA2aHandler(options: A2aHandlerOptions): A2aHandler {
  const { store, card, newId } = options;
  const hub = createStreamHub();
  const runner = createTaskRunner({ store, hub, executor: options.executor, clock: options.clock, newId, ...(options.push ? { push: options.push } : {}), ...(options.onTerminal ? { onTerminal: options.onTerminal } : {}) });
  const caps = card.capabilities;
  const inputModes = card.defaultInputModes;

  /** A task the caller may see; anyone else's task is reported as not found (spec §7.4: reveal nothing). */
  function owned(id: string, ctx: CallContext): StoredTask {
    const stored = store.get(id);
    // The bare anonymous principal owns nothing (anonymous.ts): tasks stored under it by an older node stay hidden.
    if (!stored || stored.owner !== ctx.principal.id || ctx.principal.id === anonymous.id) throw taskNotFound(id);
    return stored;
  }

  function checkParts(parts: readonly Part[]): void {
    if (inputModes.includes('*/*')) return;
    for (const part of parts) {
      if (part.mediaType !== undefined && part.mediaType !== '' && !inputModes.includes(part.mediaType)) {
        throw new A2aError('content_type_not_supported', `media type ${part.mediaType}: not accepted (accepted: ${inputModes.join(', ')})`, { mediaType: part.mediaType });
      }
    }
  }

  /**
   * Escrows taken by a request whose task is not stored yet. Once stored, the task store's escrow index has it
   * (settlement-index.ts), which a restart keeps.
   */
  const escrowsInUse = new Set<string>();
  const inUse = (escrowId: string): boolean => escrowsInUse.has(escrowId) || options.store.taskOfEscrow(fromHex(escrowId.slice(2))) !== undefined;

  /**
   * The task's metadata: the request's, plus the task anchor when it names an escrow that can pay. Only the agent
   * writes `taskAnchor`: a client's would have the node follow, claim and hold an escrow nobody checked.
   */
  function settle(requested: JsonObject | undefined): JsonObject | undefined {
    let metadata = requested;
    if (metadata !== undefined && (Object.hasOwn(metadata, 'taskAnchor') || Object.hasOwn(metadata, anonymousKeyMetadata))) {
      const { taskAnchor: _ignored, [anonymousKeyMetadata]: _key, ...rest } = metadata;
      metadata = rest;
    }
    const policy = options.settlement;
    if (policy === undefined) {
      if (metadata !== undefined && Object.hasOwn(metadata, 'chainSettlement')) {
        throw settlementRefused('settlement_not_offered', 'this agent runs no agent account; send the task without chainSettlement');
      }
      return metadata;
    }
    const request = parseChainSettlement(metadata, policy.hrp);
    if (request === undefined) return metadata;
    const anchor = checkChainSettlement(request, policy);
    // One escrow pays for one task: a second task on it would be work the agent can never be paid for.
    if (inUse(anchor.escrow_id)) throw settlementRefused('escrow_in_use', `escrow ${anchor.escrow_id} already pays for another task`);
    escrowsInUse.add(anchor.escrow_id);
    return { ...metadata, taskAnchor: { ...anchor } };
  }

  function requirePush(): void {
    if (!caps.pushNotifications) throw new A2aError('push_notification_not_supported', 'push notifications are not supported by this agent');
  }

  async function begin(params: unknown, ctx: CallContext, stream: boolean) {
    const req = parseParams(sendMessageSchema, params);
    const message = req.message as Message;
    if (message.role !== 'ROLE_USER') throw invalidParams('message.role: expected ROLE_USER', 'message.role');
    checkParts(message.parts);
    let existing: StoredTask | undefined;
    if (message.taskId !== undefined) {
      existing = owned(message.taskId, ctx);
      if (isTerminal(existing.task.status.state)) throw unsupportedOperation(`task ${message.taskId} is ${existing.task.status.state}; start a new task in its context`);
      if (message.contextId !== undefined && message.contextId !== existing.task.contextId) throw invalidParams(`message.contextId: task ${message.taskId} belongs to another context`, 'message.contextId');
      if (runner.running(message.taskId)) throw unsupportedOperation(`task ${message.taskId} is still working; wait for it or cancel it`);
    }
    // Before any task exists: an escrow that cannot pay refuses the request (-32104) and changes nothing.
    let metadata = settle(req.metadata);
    // A new task of a caller with no credentials and no key gets its own key (anonymous.ts), returned in metadata.
    let principal = ctx.principal;
    if (existing === undefined && principal.id === anonymous.id) {
      const key = mintAnonymousKey(newId);
      principal = anonymousPrincipal(key);
      metadata = { ...metadata, [anonymousKeyMetadata]: key };
    }
    const config = req.configuration;
    const push = config?.taskPushNotificationConfig ?? config?.pushNotificationConfig;
    if (push) {
      requirePush();
      await options.validatePushUrl?.(push.url);
      if (message.taskId !== undefined && runner.running(message.taskId)) throw unsupportedOperation(`task ${message.taskId} is still working`);
    }
    const started = runner.start({
      message,
      principal,
      existing,
      metadata,
      extensions: ctx.extensions,
      ...(push ? { pushConfig: push as TaskPushNotificationConfig } : {}),
    });
    // Subscribing in the same tick as start(), before any event can be published (they come on later ticks).
    const subscription = stream ? hub.subscribe(started.taskId, []) : undefined;
    const escrowId = (metadata?.taskAnchor as { escrow_id: string } | undefined)?.escrow_id;
    // Once the task is stored, the store's index holds its escrow: the set keeps only requests in flight.
    if (escrowId !== undefined) void started.first.then(() => options.store.taskOfEscrow(fromHex(escrowId.slice(2))) !== undefined && escrowsInUse.delete(escrowId), () => undefined);
    return { started, config, subscription };
  }

  async function subscribeFirst(first: Promise<unknown>, subscription: Subscription): Promise<Subscription> {
    try {
      await first;
      return subscription;
    } catch (error) {
      subscription.close();
      throw error;
    }
  }

  return {
    card,
    runner,
    hub,
    async sendMessage(params, ctx) {
      const { started, config } = await begin(params, ctx, false);
      const immediately = config?.returnImmediately ?? config?.blocking === false;
      const response = await (immediately ? started.first : started.done);
      return 'task' in response ? { task: viewTask(response.task, { historyLength: config?.historyLength }) } : response;
    },
    async sendStreamingMessage(params, ctx) {
      if (!caps.streaming) throw unsupportedOperation('streaming is not supported by this agent');
      const { started, subscription } = await begin(params, ctx, true);
      return subscribeFirst(started.first, subscription!);
    },
    async getTask(params, ctx) {
      const req = parseParams(getTaskSchema, params);
      return viewTask(owned(req.id, ctx).task, { historyLength: req.historyLength });
    },
    async listTasks(params, ctx) {
      const req = parseParams(listTasksSchema, params);
      const pageSize = req.pageSize ?? a2aListPageSizeDefault;
      if (pageSize < 1 || pageSize > a2aListPageSizeMax) throw invalidParams(`pageSize: got ${pageSize}, expected 1..${a2aListPageSizeMax}`, 'pageSize');
      if (ctx.principal.id === anonymous.id) return { tasks: [], nextPageToken: '', pageSize, totalSize: 0 };
      let page;
      try {
        page = store.list(
          {
            owner: ctx.principal.id,
            ...(req.contextId ? { contextId: req.contextId } : {}),
            ...(req.status ? { status: req.status } : {}),
            ...(req.statusTimestampAfter ? { statusAfterMs: rfc3339Ms(req.statusTimestampAfter) } : {}),
          },
          pageSize,
          req.pageToken ?? '',
        );
      } catch (error) {
        if (error instanceof RangeError) throw invalidParams(error.message, 'pageToken');
        throw error;
      }
      const tasks = page.tasks.map((s) => viewTask(s.task, { historyLength: req.historyLength, includeArtifacts: req.includeArtifacts ?? false }));
      return { tasks, nextPageToken: page.nextPageToken, pageSize, totalSize: page.totalSize };
    },
    async cancelTask(params, ctx) {
      const req = parseParams(cancelTaskSchema, params);
      const stored = owned(req.id, ctx);
      if (isTerminal(stored.task.status.state)) {
        throw new A2aError('task_not_cancelable', `task ${req.id} is ${stored.task.status.state} and cannot be canceled`, { taskId: req.id });
      }
      return runner.cancel(stored);
    },
    async subscribeToTask(params, ctx) {
      if (!caps.streaming) throw unsupportedOperation('streaming is not supported by this agent');
      const req = parseParams(subscribeSchema, params);
      owned(req.id, ctx);
      // Snapshot and subscription in the task's queue, so no event falls between them (first event = the Task).
      return runner.serial(req.id, async () => {
        const task = owned(req.id, ctx).task;
        if (isTerminal(task.status.state)) throw unsupportedOperation(`task ${req.id} is ${task.status.state}; nothing more will happen`);
        return hub.subscribe(req.id, [{ task }]);
      });
    },
    async createTaskPushNotificationConfig(params, ctx) {
      requirePush();
      const req = parseParams(pushConfigSchema, params);
      if (!req.taskId) throw invalidParams('taskId: required', 'taskId');
      owned(req.taskId, ctx);
      await options.validatePushUrl?.(req.url);
      const id = req.id ?? newId();
      const existing = store.listPushConfigs(req.taskId);
      if (!existing.some((c) => c.id === id) && existing.length >= a2aPushConfigsPerTaskMax) {
        throw invalidParams(`task ${req.taskId} already has ${a2aPushConfigsPerTaskMax} push configs`, 'taskId');
      }
      const { tenant: _tenant, ...rest } = req;
      const config = { ...rest, taskId: req.taskId, id };
      await store.putPushConfig(config);
      return config;
    },
    async getTaskPushNotificationConfig(params, ctx) {
      requirePush();
      const req = parseParams(pushConfigRefSchema, params);
      owned(req.taskId, ctx);
      const config = store.getPushConfig(req.taskId, req.id);
      if (!config) throw new A2aError('task_not_found', `push config ${req.id} not found for task ${req.taskId}`, { taskId: req.taskId, configId: req.id });
      return config;
    },
    async listTaskPushNotificationConfigs(params, ctx) {
      requirePush();
      const req = parseParams(listPushConfigsSchema, params);
      owned(req.taskId, ctx);
      const size = req.pageSize && req.pageSize > 0 ? Math.min(req.pageSize, a2aPushConfigPageSizeMax) : a2aPushConfigPageSizeMax;
      const all = store.listPushConfigs(req.taskId);
      const offset = pageOffset(req.pageToken);
      const configs = all.slice(offset, offset + size);
      const next = offset + size < all.length ? String(offset + size) : '';
      return next === '' ? { configs } : { configs, nextPageToken: next };
    },
    async deleteTaskPushNotificationConfig(params, ctx) {
      requirePush();
      const req = parseParams(pushConfigRefSchema, params);
      owned(req.taskId, ctx);
      await store.deletePushConfig(req.taskId, req.id);
      return {};
    },
    async getExtendedAgentCard(_params, ctx) {
      if (!caps.extendedAgentCard) throw unsupportedOperation('this agent has no extended card');
      if (ctx.principal.scheme === 'anonymous') throw unauthenticated('the extended agent card requires authentication');
      if (!options.extendedCard) throw new A2aError('extended_agent_card_not_configured', 'the extended agent card is not configured');
      return options.extendedCard;
    },
  };
}

/** UUID v4 text from 16 random bytes (the id format A2A SDKs use). */
export function uuidFromBytes(bytes: Uint8Array): string {
  const b = Uint8Array.from(bytes.subarray(0, 16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
