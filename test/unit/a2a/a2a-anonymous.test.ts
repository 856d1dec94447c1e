// Anonymous A2A callers do not share tasks (docs/a2a.md "Visibility", src/a2a/anonymous.ts): a task created without
// credentials belongs to an anonymous key — the caller's own (A2A-Anonymous-Key) or one minted for the task and
// returned in its metadata — and any other caller, anonymous or keyed, gets -32001 for it and lists none of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startA2aServer, type A2aTestServer } from '../../helpers/a2a-fixtures.ts';

let s: A2aTestServer;
beforeAll(async () => {
  s = await startA2aServer();
});
afterAll(async () => {
  await s.close();
});

let n = 0;
const message = (text: string, extra: object = {}) => ({ messageId: `anon-${++n}`, role: 'ROLE_USER', parts: [{ text }], ...extra });
/** A JSON-RPC caller with no credentials, presenting `key` when given. */
const caller = (key?: string) => async (method: string, params: object) => {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'a2a-version': '1.0', ...(key === undefined ? {} : { 'a2a-anonymous-key': key }) };
  const res = await fetch(`${s.base}/a2a`, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: ++n, method, params }) });
  return { status: res.status, ...((await res.json()) as { result?: any; error?: any }) };
};

describe('anonymous callers each see only their own tasks', () => {
  it('a task created with no key gets its own key; another anonymous caller cannot get, cancel, continue or list it', async () => {
    const a = caller();
    const task = (await a('SendMessage', { message: message('input') })).result.task;
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const key = task.metadata.anonymousKey as string;
    expect(key).toMatch(/^[0-9a-f]{64}$/);

    // B: another caller without credentials (what every anonymous caller shared before).
    const b = caller();
    expect((await b('GetTask', { id: task.id })).error.code).toBe(-32001);
    expect((await b('CancelTask', { id: task.id })).error.code).toBe(-32001);
    expect((await b('SendMessage', { message: message('complete', { taskId: task.id }) })).error.code).toBe(-32001);
    expect((await b('ListTasks', {})).result).toMatchObject({ tasks: [], totalSize: 0 });
    // B with a key of its own: the same.
    const c = caller('another-callers-own-anonymous-key');
    expect((await c('GetTask', { id: task.id })).error.code).toBe(-32001);
    expect((await c('CancelTask', { id: task.id })).error.code).toBe(-32001);
    expect((await c('ListTasks', {})).result.totalSize).toBe(0);

    // A, presenting its key: its task, and only it.
    const owner = caller(key);
    expect((await owner('GetTask', { id: task.id })).result.id).toBe(task.id);
    expect((await owner('ListTasks', {})).result.tasks.map((t: { id: string }) => t.id)).toEqual([task.id]);
    expect((await owner('CancelTask', { id: task.id })).result.status.state).toBe('TASK_STATE_CANCELED');
  });

  it('a caller that brings its own key owns every task it creates with it, over JSON-RPC and HTTP+JSON', async () => {
    const key = 'my-own-anonymous-key-0123456789';
    const mine = caller(key);
    const first = (await mine('SendMessage', { message: message('complete') })).result.task;
    expect(first.metadata?.anonymousKey).toBeUndefined();
    const second = (await mine('SendMessage', { message: message('input') })).result.task;
    expect((await mine('ListTasks', {})).result.totalSize).toBe(2);
    const rest = await fetch(`${s.base}/tasks/${second.id}`, { headers: { 'a2a-version': '1.0', 'a2a-anonymous-key': key } });
    expect(rest.status).toBe(200);
    expect((await fetch(`${s.base}/tasks/${second.id}`, { headers: { 'a2a-version': '1.0' } })).status).toBe(404);
    expect((await caller()('GetTask', { id: first.id })).error.code).toBe(-32001);
  });

  it('a client cannot pick the key in metadata, and a malformed key is refused, never taken as no key', async () => {
    const task = (await caller()('SendMessage', { message: message('complete'), metadata: { anonymousKey: 'chosen-by-the-client-0000000' } })).result.task;
    expect(task.metadata.anonymousKey).not.toBe('chosen-by-the-client-0000000');
    expect((await caller('chosen-by-the-client-0000000')('GetTask', { id: task.id })).error.code).toBe(-32001);
    const bad = await caller('short')('ListTasks', {});
    expect(bad.status).toBe(401);
    expect(bad.error.data[0].reason).toBe('UNAUTHENTICATED');
  });
});
