/** The WebSocket transport's connection: open, resubscribe, and reconnect with back-off until closed by its owner. */
import { noAnswer } from '../errors.ts';
import { failPending, routeMessage } from './ws-calls.ts';
import { endSubscriptions, subscribeOnSocket } from './ws-subscriptions.ts';
import { newGate, reconnectDelayMaxMs, reconnectDelayMinMs, setConnectionState, type WsState } from './ws-state.ts';

export function connect(state: WsState): void {
  setConnectionState(state, 'connecting');
  const ws = new state.WebSocket(state.url);
  state.socket = ws;
  ws.onopen = () => onOpen(state);
  ws.onmessage = (event: MessageEvent<unknown>) => routeMessage(state, ws, event.data);
  ws.onclose = () => onClose(state);
}

function onOpen(state: WsState): void {
  state.delayMs = reconnectDelayMinMs;
  state.gate.isOpen = true;
  setConnectionState(state, 'open');
  state.gate.markOpen();
  state.byServerId.clear();
  for (const sub of state.subs) void subscribeOnSocket(state, sub).catch(() => undefined);
}

function onClose(state: WsState): void {
  if (state.gate.isOpen) state.gate = newGate();
  failPending(state, (method) => noAnswer(method, 'connection closed'));
  setConnectionState(state, 'closed');
  if (state.closedByUser) return;
  setTimeout(() => connect(state), state.delayMs);
  state.delayMs = Math.min(state.delayMs * 2, reconnectDelayMaxMs);
}

/** Closes for good: no reconnect, and every subscription ends. */
export function closeConnection(state: WsState): void {
  state.closedByUser = true;
  state.socket?.close();
  endSubscriptions(state);
}
