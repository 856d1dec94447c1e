// Tasks and push configs live in the node's LMDB store: they survive a restart; a task a previous process left
// running (its executor is gone) is marked FAILED on start, while INPUT_REQUIRED tasks keep waiting for the client.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openLmdbStore } from '../../../server/storage/lmdb-store.ts';
import { createKvTaskStore } from '../../../src/a2a/task-store.ts';
import type { Task, TaskState } from '../../../src/a2a/types.ts';
import { createMemoryStore } from '../../../src/storage/memory-store.ts';
import { fromHex } from '../../../src/util/bytes.ts';
import { jsonRpcBinding } from '../../helpers/a2a-bindings.ts';
import { createScriptedExecutor, startA2aServer } from '../../helpers/a2a-fixtures.ts';

const dir = mkdtempSync(join(tmpdir(), 'weft-a2a-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('A2A task persistence (LMDB)', () => {
  it('keeps tasks, history, artifacts and push configs across a restart', async () => {
    let kv = openLmdbStore(join(dir, 'db'));
    let server = await startA2aServer({ kv, executor: createScriptedExecutor() });
    let b = jsonRpcBinding(server.base);
    let k = 0;
    const send = (text: string, configuration?: object) => b.call('SendMessage', { message: { messageId: `p-${++k}`, role: 'ROLE_USER', parts: [{ text }] }, ...(configuration ? { configuration } : {}) });
    const done = (await send('complete')).task;
    const waiting = (await send('input')).task;
    const running = (await send('wait forever', { returnImmediately: true })).task;
    const cfg = await b.call('CreateTaskPushNotificationConfig', { taskId: waiting.id, url: 'http://127.0.0.1:9/h', token: 't' });
    await server.close();
    await kv.close();

    kv = openLmdbStore(join(dir, 'db'));
    server = await startA2aServer({ kv, executor: createScriptedExecutor() });
    b = jsonRpcBinding(server.base);
    expect(await b.call('GetTask', { id: done.id })).toEqual(done);
    expect((await b.call('GetTask', { id: waiting.id })).status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const failed = await b.call('GetTask', { id: running.id });
    expect(failed.status.state).toBe('TASK_STATE_FAILED');
    expect(failed.status.message.parts[0].text).toContain('restarted');
    expect(await b.call('GetTaskPushNotificationConfig', { taskId: waiting.id, id: cfg.id })).toEqual(cfg);
    expect((await b.call('ListTasks', {})).totalSize).toBe(3);
    const resumed = await b.call('SendMessage', { message: { messageId: 'p-after', role: 'ROLE_USER', parts: [{ text: 'more' }], taskId: waiting.id } });
    expect(resumed.task.status.state).toBe('TASK_STATE_COMPLETED');
    await server.close();
    await kv.close();
  });
});

describe('the settlement index beside the tasks (src/a2a/settlement-index.ts)', () => {
  const escrowId = `0x${'5a'.repeat(32)}`;
  const anchored = (state: TaskState, settlement_status: string, claim?: object): Task => ({
    id: 'task-1',
    contextId: 'ctx-1',
    status: { state, timestamp: '2026-11-26T00:00:00.000Z' },
    metadata: { taskAnchor: { escrow_id: escrowId, agent_account: 'rweft1agent', settlement_status, ...(claim ? { claim } : {}) } },
  });

  it('names the task an escrow anchors from its first write, and follows a finished task until Claimed or Refunded', async () => {
    const store = createKvTaskStore(createMemoryStore());
    expect(store.taskOfEscrow(fromHex(escrowId.slice(2)))).toBeUndefined();
    await store.put({ owner: 'o', task: anchored('TASK_STATE_WORKING', 'EscrowLocked') });
    expect(store.taskOfEscrow(fromHex(escrowId.slice(2)))).toBe('task-1');
    expect(store.followed()).toEqual([]);
    await store.put({ owner: 'o', task: anchored('TASK_STATE_COMPLETED', 'EscrowLocked', { status: 'waiting' }) });
    expect(store.followed().map((s) => s.task.metadata?.taskAnchor)).toMatchObject([{ claim: { status: 'waiting' } }]);
    await store.put({ owner: 'o', task: anchored('TASK_STATE_COMPLETED', 'Claimed', { status: 'confirmed' }) });
    expect(store.followed()).toEqual([]);
    // The escrow stays taken after the task's settlement is over: one escrow, one task.
    expect(store.taskOfEscrow(fromHex(escrowId.slice(2)))).toBe('task-1');
  });

  it('keeps a task without an anchor out of both', async () => {
    const store = createKvTaskStore(createMemoryStore());
    await store.put({ owner: 'o', task: { id: 'plain', contextId: 'c', status: { state: 'TASK_STATE_COMPLETED' } } });
    expect(store.followed()).toEqual([]);
  });
});
