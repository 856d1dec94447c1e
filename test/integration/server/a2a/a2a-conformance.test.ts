// A2A 1.0 conformance over every binding (JSON-RPC, HTTP+JSON, HTTP+JSON under /v1, WebSocket, gRPC): each
// operation's success and error paths, state transitions, streaming order and closure, multi-stream broadcast,
// artifact reassembly and ListTasks pagination — the same checks against the same handlers through each transport.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedExecutor, startA2aServer, type A2aTestServer } from '../../../helpers/a2a-fixtures.ts';
import { grpcBinding, jsonRpcBinding, restBinding, RpcFailure, wsBinding, type Binding } from '../../../helpers/a2a-bindings.ts';

const executor = createScriptedExecutor();
let server: A2aTestServer;
beforeAll(async () => {
  server = await startA2aServer({ executor });
});
afterAll(async () => {
  await server.close();
});

let n = 0;
const msg = (text: string, extra: Record<string, unknown> = {}) => ({ messageId: `m-${++n}`, role: 'ROLE_USER', parts: [{ text }], ...extra });
const send = (b: Binding, text: string, extra: Record<string, unknown> = {}, configuration?: object) =>
  b.call('SendMessage', { message: msg(text, extra), ...(configuration ? { configuration } : {}) });

async function collect(stream: AsyncIterable<any>): Promise<any[]> {
  const out: any[] = [];
  for await (const e of stream) out.push(e);
  return out;
}

async function failure(p: Promise<unknown>): Promise<RpcFailure> {
  try {
    await p;
  } catch (e) {
    if (e instanceof RpcFailure) return e;
    throw e;
  }
  throw new Error('expected the call to fail');
}

const kind = (e: any) => Object.keys(e)[0];

const bindings: [string, () => Promise<Binding>][] = [
  ['JSON-RPC', async () => jsonRpcBinding(server.base)],
  ['HTTP+JSON', async () => restBinding(server.base)],
  ['HTTP+JSON /v1', async () => restBinding(server.base, '/v1')],
  ['WebSocket', () => wsBinding(server.base)],
  ['gRPC', async () => grpcBinding(server.grpcTarget)],
];

describe.each(bindings)('%s binding', (name, open) => {
  let b: Binding;
  const tag = name.replace(/\W/g, '');
  beforeAll(async () => {
    b = await open();
  });
  afterAll(() => b.close());

  it('SendMessage runs a task to COMPLETED with its artifact and history (blocking by default)', async () => {
    const { task } = await send(b, 'complete');
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.status.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(task.artifacts).toEqual([{ artifactId: 'a1', name: 'result', parts: [{ text: 'done' }] }]);
    expect(task.history.map((m: any) => m.role)).toEqual(['ROLE_USER', 'ROLE_AGENT']);
    expect(task.history[0].taskId).toBe(task.id);
    expect(task.contextId).toBeTruthy();
  });

  it('accepts the seed’s lowercase role and answers with a Message when the agent replies without a task', async () => {
    // gRPC carries the role as an enum number, so only the JSON bindings see the lowercase spelling.
    const role = name === 'gRPC' ? 'ROLE_USER' : 'user';
    const result = await b.call('SendMessage', { message: { messageId: `m-${++n}`, role, parts: [{ text: 'reply hello' }] } });
    expect(result.message.role).toBe('ROLE_AGENT');
    expect(result.message.parts[0].text).toBe('echo: reply hello');
    expect(result.task).toBeUndefined();
  });

  it('returnImmediately answers before the task ends; GetTask applies historyLength', async () => {
    const { task } = await send(b, `wait ri${tag}`, {}, { returnImmediately: true });
    expect(['TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING']).toContain(task.status.state);
    const sub = await b.stream('SubscribeToTask', { id: task.id });
    executor.gates.release(`ri${tag}`);
    const events = await collect(sub);
    expect(events.at(-1).statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
    const full = await b.call('GetTask', { id: task.id });
    expect(full.status.state).toBe('TASK_STATE_COMPLETED');
    expect((await b.call('GetTask', { id: task.id, historyLength: 0 })).history).toBeUndefined();
    expect((await b.call('GetTask', { id: task.id, historyLength: 1 })).history).toHaveLength(1);
  });

  it('reports unknown tasks as TaskNotFound on every task operation', async () => {
    for (const [method, params] of [
      ['GetTask', { id: 'nope' }],
      ['CancelTask', { id: 'nope' }],
      ['SendMessage', { message: msg('x', { taskId: 'nope' }) }],
      ['ListTaskPushNotificationConfigs', { taskId: 'nope' }],
    ] as const) {
      expect((await failure(b.call(method, params))).reason).toBe('TASK_NOT_FOUND');
    }
    expect((await failure(b.stream('SubscribeToTask', { id: 'nope' }))).reason).toBe('TASK_NOT_FOUND');
  });

  it('rejects bad params with InvalidParams', async () => {
    expect((await failure(b.call('SendMessage', { message: { messageId: 'x', role: 'ROLE_USER', parts: [] } }))).reason).toBe('INVALID_PARAMS');
    expect((await failure(b.call('SendMessage', { message: { messageId: 'x', role: 'ROLE_USER', parts: [{ text: 'a', url: 'http://x' }] } }))).reason).toBe('INVALID_PARAMS');
  });

  it('INPUT_REQUIRED → follow-up message with the taskId → COMPLETED; a terminal task takes no more messages', async () => {
    const { task } = await send(b, 'input');
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(task.status.message.parts[0].text).toBe('need more');
    const wrongContext = await failure(send(b, 'x', { taskId: task.id, contextId: 'other' }));
    expect(wrongContext.reason).toBe('INVALID_PARAMS');
    const next = await send(b, 'more', { taskId: task.id });
    expect(next.task.id).toBe(task.id);
    expect(next.task.contextId).toBe(task.contextId);
    expect(next.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect((await failure(send(b, 'again', { taskId: task.id }))).reason).toBe('UNSUPPORTED_OPERATION');
  });

  it('REJECTED, AUTH_REQUIRED and FAILED are reported as states', async () => {
    expect((await send(b, 'reject')).task.status.state).toBe('TASK_STATE_REJECTED');
    expect((await send(b, 'auth')).task.status.state).toBe('TASK_STATE_AUTH_REQUIRED');
    const failed = (await send(b, 'fail')).task;
    expect(failed.status.state).toBe('TASK_STATE_FAILED');
    expect(failed.status.message.parts[0].text).toBe('the agent failed');
  });

  it('CancelTask cancels a working task; canceling again is TaskNotCancelable', async () => {
    const { task } = await send(b, `wait cancel${tag}`, {}, { returnImmediately: true });
    const canceled = await b.call('CancelTask', { id: task.id });
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    expect((await failure(b.call('CancelTask', { id: task.id }))).reason).toBe('TASK_NOT_CANCELABLE');
    expect((await b.call('GetTask', { id: task.id })).status.state).toBe('TASK_STATE_CANCELED');
  });

  it('CancelTask cancels an INPUT_REQUIRED task (no executor running)', async () => {
    const { task } = await send(b, 'input');
    expect((await b.call('CancelTask', { id: task.id })).status.state).toBe('TASK_STATE_CANCELED');
  });

  it('SendStreamingMessage: Task first, then status/artifact updates in order; the stream closes at the terminal state', async () => {
    const events = await collect(await b.stream('SendStreamingMessage', { message: msg('complete') }));
    expect(events.map(kind)).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'statusUpdate']);
    const taskId = events[0].task.id;
    expect(events.slice(1).every((e) => (e.statusUpdate ?? e.artifactUpdate).taskId === taskId)).toBe(true);
    expect(events[1].statusUpdate.status.state).toBe('TASK_STATE_WORKING');
    expect(events[3].statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
    expect(JSON.stringify(events)).not.toContain('"final"');
    expect(JSON.stringify(events)).not.toContain('"kind"');
  });

  it('streams a message-only reply as exactly one Message event', async () => {
    const events = await collect(await b.stream('SendStreamingMessage', { message: msg('reply s') }));
    expect(events.map(kind)).toEqual(['message']);
  });

  it('reassembles appended artifact chunks into one artifact', async () => {
    const events = await collect(await b.stream('SendStreamingMessage', { message: msg('chunks') }));
    const chunks = events.filter((e) => e.artifactUpdate).map((e) => e.artifactUpdate);
    expect(chunks.map((c) => [Boolean(c.append), Boolean(c.lastChunk)])).toEqual([[false, false], [true, true]]);
    const task = await b.call('GetTask', { id: events[0].task.id });
    expect(task.artifacts).toEqual([{ artifactId: 'c', parts: [{ text: 'chunk-1 ' }, { text: 'chunk-2' }] }]);
  });

  it('broadcasts the same events to several streams; closing one leaves the others and the task running', async () => {
    const { task } = await send(b, `wait multi${tag}`, {}, { returnImmediately: true });
    const s1 = await b.stream('SubscribeToTask', { id: task.id });
    const s2 = await b.stream('SubscribeToTask', { id: task.id });
    const s3 = await b.stream('SubscribeToTask', { id: task.id });
    const it3 = s3[Symbol.asyncIterator]();
    expect(kind((await it3.next()).value)).toBe('task');
    await it3.return?.(undefined);
    executor.gates.release(`multi${tag}`);
    const [e1, e2] = await Promise.all([collect(s1), collect(s2)]);
    expect(e1[0].task.id).toBe(task.id);
    expect(e1.map(kind)).toEqual(['task', 'artifactUpdate', 'statusUpdate']);
    expect(e2).toEqual(e1);
    expect((await b.call('GetTask', { id: task.id })).status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('SubscribeToTask on a terminal task is UnsupportedOperation', async () => {
    const { task } = await send(b, 'complete');
    expect((await failure(b.stream('SubscribeToTask', { id: task.id }))).reason).toBe('UNSUPPORTED_OPERATION');
  });

  it('ListTasks filters by context and state, pages with a cursor, and omits artifacts unless asked', async () => {
    const contextId = `ctx-${tag}-${Date.now()}`;
    for (let i = 0; i < 5; i++) await send(b, i === 4 ? 'reject' : 'complete', { contextId });
    const seen: string[] = [];
    let token = '';
    let pages = 0;
    do {
      const page = await b.call('ListTasks', { contextId, pageSize: 2, ...(token ? { pageToken: token } : {}) });
      expect(page.totalSize).toBe(5);
      expect(page.pageSize).toBe(2);
      expect(page.tasks.every((t: any) => t.artifacts === undefined)).toBe(true);
      seen.push(...page.tasks.map((t: any) => t.id));
      token = page.nextPageToken ?? '';
      pages++;
    } while (token !== '');
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(5);
    const withArtifacts = await b.call('ListTasks', { contextId, includeArtifacts: true, status: 'TASK_STATE_COMPLETED' });
    expect(withArtifacts.tasks).toHaveLength(4);
    expect(withArtifacts.tasks.every((t: any) => t.artifacts.length === 1)).toBe(true);
    const times = withArtifacts.tasks.map((t: any) => t.status.timestamp);
    expect([...times].sort().reverse()).toEqual(times);
    expect((await failure(b.call('ListTasks', { pageSize: 101 }))).reason).toBe('INVALID_PARAMS');
  });

  it('creates, gets, lists and deletes push configs (delete is idempotent)', async () => {
    const { task } = await send(b, 'input');
    const created = await b.call('CreateTaskPushNotificationConfig', { taskId: task.id, url: 'http://127.0.0.1:9/hook', token: 't', authentication: { scheme: 'Bearer', credentials: 'c' } });
    expect(created).toMatchObject({ taskId: task.id, url: 'http://127.0.0.1:9/hook', token: 't', authentication: { scheme: 'Bearer', credentials: 'c' } });
    expect(created.id).toBeTruthy();
    expect(await b.call('GetTaskPushNotificationConfig', { taskId: task.id, id: created.id })).toEqual(created);
    expect((await b.call('ListTaskPushNotificationConfigs', { taskId: task.id })).configs).toEqual([created]);
    await b.call('DeleteTaskPushNotificationConfig', { taskId: task.id, id: created.id });
    await b.call('DeleteTaskPushNotificationConfig', { taskId: task.id, id: created.id });
    expect((await b.call('ListTaskPushNotificationConfigs', { taskId: task.id })).configs ?? []).toEqual([]);
    expect((await failure(b.call('GetTaskPushNotificationConfig', { taskId: task.id, id: created.id }))).reason).toBe('TASK_NOT_FOUND');
  });

  it('GetExtendedAgentCard is UnsupportedOperation when the card declares none', async () => {
    expect((await failure(b.call('GetExtendedAgentCard', {}))).reason).toBe('UNSUPPORTED_OPERATION');
  });

  it('refuses a request without A2A-Version (read as 0.3) or with 2.0, and accepts a 1.0 patch version', async () => {
    if (name === 'WebSocket') return; // negotiated once at the upgrade: see a2a-http.test.ts
    expect((await failure(b.call('GetTask', { id: 'x' }, {}))).reason).toBe('VERSION_NOT_SUPPORTED');
    expect((await failure(b.call('GetTask', { id: 'x' }, { 'a2a-version': '2.0' }))).reason).toBe('VERSION_NOT_SUPPORTED');
    expect((await failure(b.call('GetTask', { id: 'x' }, { 'a2a-version': '1.0.1' }))).reason).toBe('TASK_NOT_FOUND');
  });
});
