// One client shape over every A2A binding (JSON-RPC, HTTP+JSON, WebSocket, gRPC) so the conformance suite runs the
// same checks on each. Errors come back as {code, reason, status?}; streams as async iterables of StreamResponse.
import * as grpc from '@grpc/grpc-js';
import WebSocket from 'ws';
import { a2aServiceDefinition } from '../../server/a2a/grpc.ts';
import { decodeStatusDetails } from '../../server/a2a/grpc-json.ts';

export class RpcFailure extends Error {
  constructor(
    readonly code: number | undefined,
    readonly reason: string,
    readonly status?: number,
  ) {
    super(`${reason} (${code ?? status})`);
  }
}

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any
export interface Binding {
  readonly name: string;
  call(method: string, params: Json, headers?: Record<string, string>): Promise<Json>;
  stream(method: string, params: Json, headers?: Record<string, string>): Promise<AsyncIterable<Json>>;
  close(): void;
}

/**
 * The anonymous key the test clients present (docs/a2a.md "Visibility"): without it each anonymous task would be
 * visible only with the key minted for it, and follow-up calls of these tests are one caller's.
 */
export const testAnonymousKey = 'weft-test-anonymous-key-0001';
const v1 = { 'a2a-version': '1.0', 'a2a-anonymous-key': testAnonymousKey };

/** A fetch for SDK clients (their `fetchImpl`) that presents `testAnonymousKey`, as an anonymous client would. */
export const fetchWithAnonymousKey: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  headers.set('a2a-anonymous-key', testAnonymousKey);
  return fetch(input, { ...init, headers });
};

async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncIterable<Json> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) !== -1) {
      const frame = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const data = frame.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
      if (data) yield JSON.parse(data);
    }
  }
}

export function jsonRpcBinding(base: string): Binding {
  let id = 0;
  const post = (method: string, params: Json, headers: Record<string, string> = v1) =>
    fetch(`${base}/a2a`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) });
  const fail = (body: Json) => new RpcFailure(body.error.code, body.error.data?.[0]?.reason ?? '');
  return {
    name: 'JSON-RPC',
    async call(method, params, headers) {
      const body = await (await post(method, params, headers)).json();
      if (body.error) throw fail(body);
      return body.result;
    },
    async stream(method, params, headers) {
      const res = await post(method, params, headers);
      if (!res.headers.get('content-type')?.startsWith('text/event-stream')) throw fail(await res.json());
      const requestId = id;
      return (async function* () {
        for await (const msg of sseEvents(res.body!)) {
          if (msg.id !== requestId) throw new Error('SSE event id does not echo the request id');
          if (msg.error) throw fail(msg);
          yield msg.result;
        }
      })();
    },
    close() {},
  };
}

const reasonCodes: Record<string, number> = { TASK_NOT_FOUND: -32001, TASK_NOT_CANCELABLE: -32002, PUSH_NOTIFICATION_NOT_SUPPORTED: -32003, UNSUPPORTED_OPERATION: -32004, INVALID_PARAMS: -32602 };

export function restBinding(base: string, prefix = ''): Binding {
  const q = (o: Record<string, unknown>) => {
    const s = new URLSearchParams(Object.entries(o).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)])).toString();
    return s ? `?${s}` : '';
  };
  const route = (method: string, p: Json): [string, string, Json?] => {
    switch (method) {
      case 'SendMessage':
        return ['POST', '/message:send', p];
      case 'SendStreamingMessage':
        return ['POST', '/message:stream', p];
      case 'GetTask':
        return ['GET', `/tasks/${p.id}${q({ historyLength: p.historyLength })}`];
      case 'ListTasks':
        return ['GET', `/tasks${q(p)}`];
      case 'CancelTask':
        return ['POST', `/tasks/${p.id}:cancel`, {}];
      case 'SubscribeToTask':
        return ['POST', `/tasks/${p.id}:subscribe`];
      case 'CreateTaskPushNotificationConfig': {
        const { taskId, ...body } = p;
        return ['POST', `/tasks/${taskId}/pushNotificationConfigs`, body];
      }
      case 'GetTaskPushNotificationConfig':
        return ['GET', `/tasks/${p.taskId}/pushNotificationConfigs/${p.id}`];
      case 'ListTaskPushNotificationConfigs':
        return ['GET', `/tasks/${p.taskId}/pushNotificationConfigs${q({ pageSize: p.pageSize, pageToken: p.pageToken })}`];
      case 'DeleteTaskPushNotificationConfig':
        return ['DELETE', `/tasks/${p.taskId}/pushNotificationConfigs/${p.id}`];
      case 'GetExtendedAgentCard':
        return ['GET', '/extendedAgentCard'];
      default:
        throw new Error(`no REST route for ${method}`);
    }
  };
  const send = (method: string, params: Json, headers: Record<string, string> = v1) => {
    const [verb, path, body] = route(method, params);
    return fetch(`${base}${prefix}${path}`, { method: verb, headers: { 'content-type': 'application/json', ...headers }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  };
  const fail = async (res: Response) => {
    const body = await res.json();
    const reason = body.error.details[0].reason as string;
    return new RpcFailure(reasonCodes[reason], reason, res.status);
  };
  return {
    name: `HTTP+JSON${prefix}`,
    async call(method, params, headers) {
      const res = await send(method, params, headers);
      if (!res.ok) throw await fail(res);
      return res.json();
    },
    async stream(method, params, headers) {
      const res = await send(method, params, headers);
      if (!res.ok) throw await fail(res);
      return sseEvents(res.body!);
    },
    close() {},
  };
}

export async function wsBinding(base: string): Promise<Binding> {
  const ws = new WebSocket(`${base.replace('http', 'ws')}/a2a/ws`, { headers: v1 });
  await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
  let id = 0;
  const listeners = new Map<number, (msg: Json) => void>();
  ws.on('message', (data) => {
    const msg = JSON.parse(data.toString());
    listeners.get(msg.id ?? msg.params?.id)?.(msg);
  });
  const fail = (msg: Json) => new RpcFailure(msg.error.code, msg.error.data?.[0]?.reason ?? '');
  return {
    name: 'WebSocket',
    call(method, params) {
      const requestId = ++id;
      return new Promise((resolve, reject) => {
        listeners.set(requestId, (msg) => (listeners.delete(requestId), msg.error ? reject(fail(msg)) : resolve(msg.result)));
        ws.send(JSON.stringify({ jsonrpc: '2.0', id: requestId, method, params }));
      });
    },
    async stream(method, params) {
      const requestId = ++id;
      const queue: Json[] = [];
      let wake: (() => void) | undefined;
      listeners.set(requestId, (msg) => (queue.push(msg), wake?.()));
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: requestId, method, params }));
      const next = async (): Promise<Json> => {
        while (queue.length === 0) await new Promise<void>((r) => (wake = r));
        return queue.shift();
      };
      const firstMsg = await next();
      if (firstMsg.error) throw fail(firstMsg);
      return (async function* () {
        for (let msg = firstMsg; msg.method !== 'StreamClosed'; msg = await next()) yield msg.result;
        listeners.delete(requestId);
      })();
    },
    close: () => ws.close(),
  };
}

export function grpcBinding(target: string): Binding {
  const Client = grpc.makeGenericClientConstructor(a2aServiceDefinition(), 'A2AService');
  const client = new Client(target, grpc.credentials.createInsecure()) as unknown as Record<string, Function>;
  const md = (headers: Record<string, string> = v1) => {
    const m = new grpc.Metadata();
    for (const [k, v] of Object.entries(headers)) m.set(k, v);
    return m;
  };
  const fail = (e: grpc.ServiceError) => {
    const details = e.metadata?.get('grpc-status-details-bin')[0];
    return new RpcFailure(undefined, details ? decodeStatusDetails(details as Buffer).reason : String(e.code), e.code);
  };
  const name = (m: string) => (m === 'ListTaskPushNotificationConfig' ? 'ListTaskPushNotificationConfigs' : m);
  return {
    name: 'gRPC',
    call(method, params, headers) {
      return new Promise((resolve, reject) => client[name(method)]!.call(client, params, md(headers), (err: grpc.ServiceError | null, res: Json) => (err ? reject(fail(err)) : resolve(res))));
    },
    async stream(method, params, headers) {
      const call = client[name(method)]!.call(client, params, md(headers)) as grpc.ClientReadableStream<Json>;
      const queue: Json[] = [];
      let ended = false;
      let error: grpc.ServiceError | undefined;
      let wake: (() => void) | undefined;
      call.on('data', (d) => (queue.push(d), wake?.()));
      call.on('end', () => ((ended = true), wake?.()));
      call.on('error', (e: grpc.ServiceError) => ((error = e), (ended = true), wake?.()));
      const next = async (): Promise<Json | undefined> => {
        while (queue.length === 0 && !ended) await new Promise<void>((r) => (wake = r));
        if (queue.length > 0) return queue.shift();
        if (error) throw fail(error);
        return undefined;
      };
      const firstEvent = await next();
      return (async function* () {
        for (let ev = firstEvent; ev !== undefined; ev = await next()) yield ev;
      })();
    },
    close: () => (client as unknown as grpc.Client).close(),
  };
}
