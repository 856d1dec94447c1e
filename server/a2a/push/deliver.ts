/**
 * Delivery (A2A 1.0 §4.3.3): each event is POSTed as a StreamResponse to the config's URL, with
 * `Authorization: <scheme> <credentials>` from its `authentication` and its token in `X-A2A-Notification-Token` (the
 * a2a-js convention; 1.0 names no header for it). At least once: an attempt that fails or answers non-2xx is retried
 * with doubling backoff; events of one config go out in order, one at a time.
 */
import { a2aPushQueueEventsMax } from '../../../src/a2a/limits.ts';
import type { StreamResponse, TaskPushNotificationConfig } from '../../../src/a2a/types.ts';
import type { PushSenderState } from './state.ts';
import { validateWebhookUrl } from './webhook-url.ts';

/** Queues the event for the config's webhook (the oldest is dropped past `a2aPushQueueEventsMax`) and drains it. */
export function enqueueDelivery(state: PushSenderState, config: TaskPushNotificationConfig, event: StreamResponse): void {
  if (state.controller.signal.aborted) return;
  const key = `${config.taskId}\u0000${config.id}`;
  const queue = state.queues.get(key) ?? { items: [], config, running: undefined };
  if (queue.items.length >= a2aPushQueueEventsMax) queue.items.shift();
  queue.items.push(event);
  state.queues.set(key, queue);
  pump(state, key);
}

/** Resolves when every queued delivery has finished (delivered or given up). */
export async function deliveriesIdle(state: PushSenderState): Promise<void> {
  while (state.queues.size > 0) await Promise.all([...state.queues.values()].map((q) => q.running));
}

function pump(state: PushSenderState, key: string): void {
  const queue = state.queues.get(key);
  if (!queue || queue.running) return;
  queue.running = (async () => {
    for (let event = queue.items.shift(); event !== undefined; event = queue.items.shift()) await deliver(state, queue.config, event);
    queue.running = undefined;
    state.queues.delete(key);
  })();
}

async function deliver(state: PushSenderState, config: TaskPushNotificationConfig, event: StreamResponse): Promise<void> {
  const headers: Record<string, string> = { 'content-type': 'application/a2a+json', 'a2a-version': '1.0' };
  if (config.authentication) headers.authorization = `${config.authentication.scheme} ${config.authentication.credentials ?? ''}`.trim();
  if (config.token) headers['x-a2a-notification-token'] = config.token;
  const { signal } = state.controller;
  let lastError: unknown;
  for (let attempt = 0; attempt < state.attemptsMax && !signal.aborted; attempt++) {
    if (attempt > 0) await new Promise((r) => setTimeout(r, state.retryBaseMs * 2 ** (attempt - 1)));
    try {
      await validateWebhookUrl(state.allow, config.url);
      const response = await fetch(config.url, {
        method: 'POST',
        headers,
        body: JSON.stringify(event),
        redirect: 'manual',
        signal: AbortSignal.any([signal, AbortSignal.timeout(state.timeoutMs)]),
      });
      await response.arrayBuffer().catch(() => undefined);
      if (response.status >= 200 && response.status < 300) return;
      lastError = new Error(`webhook answered ${response.status}`);
    } catch (error) {
      lastError = error;
    }
  }
  state.onDeliveryFailed?.(config, lastError);
}
