/** The four push-notification config operations (A2A 1.0 §3.1), on the caller's own tasks, when the card offers push. */
import { A2aError, invalidParams } from '../errors.ts';
import { a2aPushConfigPageSizeMax, a2aPushConfigsPerTaskMax } from '../limits.ts';
import { listPushConfigsSchema, parseParams, pushConfigRefSchema, pushConfigSchema } from '../protojson.ts';
import type { ListTaskPushNotificationConfigsResponse, TaskPushNotificationConfig } from '../types.ts';
import { ownedTask, requirePush } from './access.ts';
import type { CallContext, HandlerState } from './state.ts';

export async function createPushConfig(state: HandlerState, params: unknown, ctx: CallContext): Promise<TaskPushNotificationConfig> {
  requirePush(state);
  const req = parseParams(pushConfigSchema, params);
  if (!req.taskId) throw invalidParams('taskId: required', 'taskId');
  ownedTask(state, req.taskId, ctx);
  await state.validatePushUrl?.(req.url);
  const id = req.id ?? state.newId();
  const existing = state.store.listPushConfigs(req.taskId);
  if (!existing.some((c) => c.id === id) && existing.length >= a2aPushConfigsPerTaskMax) {
    throw invalidParams(`task ${req.taskId} already has ${a2aPushConfigsPerTaskMax} push configs`, 'taskId');
  }
  const { tenant: _tenant, ...rest } = req;
  const config = { ...rest, taskId: req.taskId, id };
  await state.store.putPushConfig(config);
  return config;
}

export async function getPushConfig(state: HandlerState, params: unknown, ctx: CallContext): Promise<TaskPushNotificationConfig> {
  requirePush(state);
  const req = parseParams(pushConfigRefSchema, params);
  ownedTask(state, req.taskId, ctx);
  const config = state.store.getPushConfig(req.taskId, req.id);
  if (!config) throw new A2aError('task_not_found', `push config ${req.id} not found for task ${req.taskId}`, { taskId: req.taskId, configId: req.id });
  return config;
}

export async function listPushConfigs(state: HandlerState, params: unknown, ctx: CallContext): Promise<ListTaskPushNotificationConfigsResponse> {
  requirePush(state);
  const req = parseParams(listPushConfigsSchema, params);
  ownedTask(state, req.taskId, ctx);
  const size = req.pageSize && req.pageSize > 0 ? Math.min(req.pageSize, a2aPushConfigPageSizeMax) : a2aPushConfigPageSizeMax;
  const all = state.store.listPushConfigs(req.taskId);
  const offset = pageOffset(req.pageToken);
  const configs = all.slice(offset, offset + size);
  const next = offset + size < all.length ? String(offset + size) : '';
  return next === '' ? { configs } : { configs, nextPageToken: next };
}

export async function deletePushConfig(state: HandlerState, params: unknown, ctx: CallContext): Promise<Record<string, never>> {
  requirePush(state);
  const req = parseParams(pushConfigRefSchema, params);
  ownedTask(state, req.taskId, ctx);
  await state.store.deletePushConfig(req.taskId, req.id);
  return {};
}

/** The offset a page token of listPushConfigs names (the tokens are offsets this server issued). */
function pageOffset(token: string | undefined): number {
  if (!token) return 0;
  const n = Number(token);
  if (!Number.isSafeInteger(n) || n < 0) throw invalidParams('pageToken: not a token this server issued', 'pageToken');
  return n;
}
