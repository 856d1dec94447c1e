/**
 * The 11 A2A operations (A2A 1.0 §3.1), once, behind every binding: JSON-RPC, HTTP+JSON, SSE, WebSocket and gRPC
 * all parse their transport into (params, CallContext) and call these. Params are ProtoJSON, validated here.
 *
 * The state is `HandlerState` (handler/state.ts, with `CallContext`); the operations are free functions over it in
 * handler/: send.ts (SendMessage, SendStreamingMessage), tasks.ts (Get, List, Cancel, Subscribe), push-configs.ts,
 * extended-card.ts, with access.ts (ownership and capability checks) and settle.ts (escrows) under them. This file
 * wires them, and holds the method table the bindings dispatch on.
 */
import type { Clock } from '../util/clock.ts';
import type { AgentCard } from './card.ts';
import type { AgentExecutor } from './executor.ts';
import { getExtendedAgentCard } from './handler/extended-card.ts';
import { createPushConfig, deletePushConfig, getPushConfig, listPushConfigs } from './handler/push-configs.ts';
import { sendMessage, sendStreamingMessage } from './handler/send.ts';
import type { CallContext, HandlerState } from './handler/state.ts';
import { cancelTask, getTask, listTasks, subscribeToTask } from './handler/tasks.ts';
import type { PushDispatcher, TerminalHook } from './runner/state.ts';
import type { SettlementPolicy } from './settlement.ts';
import { createStreamHub, type StreamHub, type Subscription } from './stream-hub.ts';
import { createTaskRunner, type TaskRunner } from './task-runner.ts';
import type { TaskStore } from './task-store.ts';
import type { ListTaskPushNotificationConfigsResponse, ListTasksResponse, SendMessageResponse, Task, TaskPushNotificationConfig } from './types.ts';

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

export function createA2aHandler(options: A2aHandlerOptions): A2aHandler {
  const { store, card, newId } = options;
  const hub = createStreamHub();
  const runner = createTaskRunner({ store, hub, executor: options.executor, clock: options.clock, newId, ...(options.push ? { push: options.push } : {}), ...(options.onTerminal ? { onTerminal: options.onTerminal } : {}) });
  const state: HandlerState = {
    store,
    card,
    extendedCard: options.extendedCard,
    newId,
    runner,
    hub,
    validatePushUrl: options.validatePushUrl,
    settlement: options.settlement,
    escrowsInUse: new Set(),
  };
  return {
    card,
    runner,
    hub,
    sendMessage: (params, ctx) => sendMessage(state, params, ctx),
    sendStreamingMessage: (params, ctx) => sendStreamingMessage(state, params, ctx),
    getTask: (params, ctx) => getTask(state, params, ctx),
    listTasks: (params, ctx) => listTasks(state, params, ctx),
    cancelTask: (params, ctx) => cancelTask(state, params, ctx),
    subscribeToTask: (params, ctx) => subscribeToTask(state, params, ctx),
    createTaskPushNotificationConfig: (params, ctx) => createPushConfig(state, params, ctx),
    getTaskPushNotificationConfig: (params, ctx) => getPushConfig(state, params, ctx),
    listTaskPushNotificationConfigs: (params, ctx) => listPushConfigs(state, params, ctx),
    deleteTaskPushNotificationConfig: (params, ctx) => deletePushConfig(state, params, ctx),
    getExtendedAgentCard: (params, ctx) => getExtendedAgentCard(state, params, ctx),
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
