/** Subscriptions on the WebSocket transport: the request id becomes the subscription id (docs/api.md "WebSocket"). */
import type { Unsubscribe } from '../transport.ts';
import { sendCall } from './ws-calls.ts';
import type { WsState, WsSubscription } from './ws-state.ts';

/** (Re)subscribes `sub` on the current socket under a fresh id. */
export async function subscribeOnSocket(state: WsState, sub: WsSubscription): Promise<void> {
  const id = state.nextId++;
  sub.serverId = id;
  state.byServerId.set(id, sub);
  await sendCall(state, 'subscribe', { topic: sub.topic, ...sub.extra }, id);
}

export async function addSubscription(
  state: WsState,
  topic: string,
  onEvent: (event: unknown) => void,
  extra: Record<string, unknown> = {},
  onEnd?: () => void,
): Promise<Unsubscribe> {
  const sub: WsSubscription = { topic, extra, onEvent, onEnd, serverId: -1 };
  state.subs.add(sub);
  await state.gate.opened;
  try {
    // The socket's open handler may have subscribed it already (it subscribes every sub it holds).
    if (sub.serverId === -1) await subscribeOnSocket(state, sub);
  } catch (error) {
    state.subs.delete(sub);
    state.byServerId.delete(sub.serverId);
    throw error;
  }
  return () => removeSubscription(state, sub);
}

async function removeSubscription(state: WsState, sub: WsSubscription): Promise<void> {
  if (!state.subs.delete(sub)) return;
  state.byServerId.delete(sub.serverId);
  if (state.current === 'open') await sendCall(state, 'unsubscribe', { subscription: sub.serverId }, state.nextId++);
}

/** The transport was closed for good: every subscription ends. */
export function endSubscriptions(state: WsState): void {
  const ended = [...state.subs];
  state.subs.clear();
  state.byServerId.clear();
  for (const sub of ended) sub.onEnd?.();
}
