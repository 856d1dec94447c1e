/** Calls on the WebSocket transport: sending one, routing the node's replies and notifications, failing the waiters. */
import { rpcAnswerCharsMax } from '../bounded-json.ts';
import { noAnswer, refusedAnswer, rpcCallError, type RpcCallError } from '../errors.ts';
import type { RpcReply } from '../transport.ts';
import { rpcCallTimeoutMs, type WsState } from './ws-state.ts';

/** Sends one request on the open socket; settles with its answer, its error, or a timeout. */
export function sendCall(state: WsState, method: string, params: Record<string, unknown>, id: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      state.pending.delete(id);
      reject(noAnswer(method, `no answer within ${rpcCallTimeoutMs} ms`));
    }, rpcCallTimeoutMs);
    state.pending.set(id, { method, resolve, reject, cancel: () => clearTimeout(timer) });
    state.socket!.send(JSON.stringify({ jsonrpc: '2.0', method, params, id }));
  });
}

/** Waits for the connection, then sends: what `transport.request` is. */
export async function requestCall(state: WsState, method: string, params: Record<string, unknown> = {}): Promise<unknown> {
  await state.gate.opened;
  return sendCall(state, method, params, state.nextId++);
}

/** Rejects every call still waiting, each with the error `errorOf` makes for its method. */
export function failPending(state: WsState, errorOf: (method: string) => RpcCallError): void {
  for (const [id, waiter] of state.pending) {
    waiter.cancel();
    waiter.reject(errorOf(waiter.method));
    state.pending.delete(id);
  }
}

/** Fails the waiting calls with `why` and closes the socket (4000: an application's own close code). */
function refuseSocket(state: WsState, ws: WebSocket, why: string): void {
  failPending(state, (method) => refusedAnswer(method, why));
  ws.close(4000, 'answer refused');
}

/** One message from the node: refused unparsed when too long, else a notification or the answer to a waiting call. */
export function routeMessage(state: WsState, ws: WebSocket, data: unknown): void {
  if (typeof data !== 'string' || data.length > rpcAnswerCharsMax) {
    const why = typeof data === 'string' ? `answer of ${data.length} characters is over the limit of ${rpcAnswerCharsMax}` : 'binary answer';
    return refuseSocket(state, ws, why);
  }
  let reply: RpcReply;
  try {
    reply = JSON.parse(data) as RpcReply;
  } catch {
    return refuseSocket(state, ws, 'answer is not JSON');
  }
  if (typeof reply !== 'object' || reply === null) return;
  if (reply.method === 'subscription' && reply.params) {
    state.byServerId.get(reply.params.subscription)?.onEvent(reply.params.result);
    return;
  }
  if (typeof reply.id !== 'number') return;
  const waiter = state.pending.get(reply.id);
  if (!waiter) return;
  state.pending.delete(reply.id);
  waiter.cancel();
  if (reply.error) waiter.reject(rpcCallError(waiter.method, reply.error.code, reply.error.message, reply.error.data));
  else waiter.resolve(reply.result);
}
