// Interoperability: the official @a2a-js/sdk client (an independent implementation of A2A 1.0) discovers the card
// and drives send, stream, get, list, cancel and push configs against the real server, over JSON-RPC and HTTP+JSON.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SendMessageRequest, TaskState, taskStateToJSON } from '@a2a-js/sdk';
import { ClientFactory, JsonRpcTransportFactory, RestTransportFactory, type Client } from '@a2a-js/sdk/client';
import { createScriptedExecutor, startA2aServer, type A2aTestServer } from '../../../helpers/a2a-fixtures.ts';
import { fetchWithAnonymousKey } from '../../../helpers/a2a-bindings.ts';

let server: A2aTestServer;
const executor = createScriptedExecutor();

beforeAll(async () => {
  server = await startA2aServer({ executor });
});
afterAll(async () => {
  await server.close();
});

let n = 0;
const request = (text: string, extra: Record<string, unknown> = {}) =>
  SendMessageRequest.fromJSON({ message: { messageId: `sdk-${++n}`, role: 'ROLE_USER', parts: [{ text }] }, ...extra });

// The SDK client presents an anonymous key (docs/a2a.md "Visibility") through its fetch, so its follow-up calls see
// the tasks it created.
const fetchImpl = fetchWithAnonymousKey;
const bindings = [
  ['JSONRPC', () => new ClientFactory({ transports: [new JsonRpcTransportFactory({ fetchImpl })], preferredTransports: ['JSONRPC'] })],
  ['HTTP+JSON', () => new ClientFactory({ transports: [new RestTransportFactory({ fetchImpl })], preferredTransports: ['HTTP+JSON'] })],
] as const;

describe.each(bindings)('@a2a-js/sdk client over %s', (_name, factory) => {
  let client: Client;
  beforeAll(async () => {
    client = await factory().createFromUrl(server.base);
  });

  it('discovers the card', async () => {
    const card = await client.getAgentCard();
    expect(card.name).toBe('Test agent');
    expect(card.capabilities?.streaming).toBe(true);
  });

  it('sends a message and gets the completed task with its artifact', async () => {
    const result = await client.sendMessage(request('complete'));
    expect('status' in result).toBe(true);
    const task = result as Extract<typeof result, { status?: unknown }>;
    expect(taskStateToJSON(task.status!.state)).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts[0]?.parts[0]?.content).toEqual({ $case: 'text', value: 'done' });
  });

  it('gets a Message reply when the agent answers without a task', async () => {
    const result = await client.sendMessage(request('reply hi'));
    expect('messageId' in result && 'parts' in result).toBe(true);
  });

  it('streams task → status → artifact → status in order, then closes', async () => {
    const cases: string[] = [];
    for await (const event of client.sendMessageStream(request('complete'))) cases.push(event.payload!.$case);
    expect(cases).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'statusUpdate']);
  });

  it('gets, lists and cancels tasks', async () => {
    const started = (await client.sendMessage(request('wait sdk', { configuration: { returnImmediately: true } }))) as { id: string };
    const got = await client.getTask({ id: started.id, tenant: '', historyLength: undefined });
    expect(got.id).toBe(started.id);
    const list = await client.listTasks({ tenant: '', contextId: '', status: TaskState.TASK_STATE_UNSPECIFIED, pageSize: 100, pageToken: '', historyLength: undefined, statusTimestampAfter: undefined, includeArtifacts: undefined });
    expect(list.tasks.some((t) => t.id === started.id)).toBe(true);
    const canceled = await client.cancelTask({ id: started.id, tenant: '', metadata: undefined });
    expect(taskStateToJSON(canceled.status!.state)).toBe('TASK_STATE_CANCELED');
  });

  it('creates, gets, lists and deletes a push config', async () => {
    const task = (await client.sendMessage(request('input'))) as { id: string };
    const created = await client.createTaskPushNotificationConfig({ tenant: '', id: 'cfg1', taskId: task.id, url: 'http://127.0.0.1:9/hook', token: 'tok', authentication: undefined });
    expect(created.id).toBe('cfg1');
    const got = await client.getTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'cfg1' });
    expect(got.url).toBe('http://127.0.0.1:9/hook');
    const list = await client.listTaskPushNotificationConfig({ tenant: '', taskId: task.id, pageSize: 0, pageToken: '' });
    expect(list.configs.map((c) => c.id)).toEqual(['cfg1']);
    await client.deleteTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'cfg1' });
    const after = await client.listTaskPushNotificationConfig({ tenant: '', taskId: task.id, pageSize: 0, pageToken: '' });
    expect(after.configs).toEqual([]);
  });

  it('resubscribes to a running task: first the task, then its updates until it completes', async () => {
    const started = (await client.sendMessage(request(`wait resub${_name}`, { configuration: { returnImmediately: true } }))) as { id: string };
    const cases: string[] = [];
    const done = (async () => {
      for await (const event of client.resubscribeTask({ id: started.id, tenant: '' })) {
        cases.push(event.payload!.$case);
        if (cases.length === 1) setTimeout(() => executor.gates.release(`resub${_name}`), 20);
      }
    })();
    await done;
    expect(cases[0]).toBe('task');
    expect(cases.slice(-1)).toEqual(['statusUpdate']);
  });
});

