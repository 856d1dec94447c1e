/**
 * Persistence of A2A tasks and push configs over the KvStore port (LMDB in the node, memory in tests and
 * browsers). Tables, all under the byte 'a' (0x61) so they never meet the chain's one-letter tables:
 *
 *   a t | taskId                                   → {task, owner} as UTF-8 JSON
 *   a i | len u8 | owner | statusMs u64 BE | taskId → ''   per-owner index, newest last; ListTasks walks it backwards
 *   a p | len u8 | taskId | configId               → TaskPushNotificationConfig as UTF-8 JSON
 *   a e, a f                                       settlement: escrow → task, tasks still following the chain
 *                                                  (settlement-index.ts)
 *
 * A task and its indexes move in one atomic batch, so a crash never leaves an index entry without its task.
 */
import type { KvOp, KvStore } from '../storage/kv.ts';
import { compareBytes, concatBytes } from '../util/bytes.ts';
import { escrowTaskKey, followedPrefix, settlementIndexOps } from './settlement-index.ts';
import type { Task, TaskPushNotificationConfig, TaskState } from './types.ts';

export interface StoredTask {
  readonly task: Task;
  /** The principal that created it (docs/a2a.md "Visibility"); only it sees the task. */
  readonly owner: string;
}

interface TaskFilter {
  readonly owner: string;
  readonly contextId?: string;
  readonly status?: TaskState;
  /** Only tasks whose status timestamp is at or after this (ms). */
  readonly statusAfterMs?: number;
}

interface TaskPage {
  readonly tasks: readonly StoredTask[];
  /** Opaque cursor of the next page; '' on the last one. */
  readonly nextPageToken: string;
  readonly totalSize: number;
}

export interface TaskStore {
  get(id: string): StoredTask | undefined;
  put(stored: StoredTask): Promise<void>;
  /** Newest status first; throws RangeError on a cursor it did not issue. */
  list(filter: TaskFilter, pageSize: number, pageToken: string): TaskPage;
  /** Every task not in a terminal state (the node marks them failed after a restart). */
  unfinished(): StoredTask[];
  /** The id of the task the escrow anchors, if any (one escrow, one task; settlement-index.ts). */
  taskOfEscrow(escrowId: Uint8Array): string | undefined;
  /** Finished tasks whose anchor still follows the chain: the settlement follower resumes them on start. */
  followed(): StoredTask[];
  getPushConfig(taskId: string, id: string): TaskPushNotificationConfig | undefined;
  listPushConfigs(taskId: string): TaskPushNotificationConfig[];
  putPushConfig(config: TaskPushNotificationConfig & { taskId: string; id: string }): Promise<void>;
  /** Resolves true when a config was deleted. */
  deletePushConfig(taskId: string, id: string): Promise<boolean>;
}

const enc = new TextEncoder();
const dec = new TextDecoder();
const A = 0x61;
const T = { task: 0x74, index: 0x69, push: 0x70 } as const;
const terminal = new Set<TaskState>(['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED', 'TASK_STATE_REJECTED']);

function lengthPrefixed(text: string): Uint8Array {
  const bytes = enc.encode(text);
  if (bytes.length > 255) throw new RangeError('key component longer than 255 bytes');
  return concatBytes(Uint8Array.of(bytes.length), bytes);
}

function u64be(n: number): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(Math.max(0, Math.floor(n))));
  return out;
}

const taskKey = (id: string) => concatBytes(Uint8Array.of(A, T.task), enc.encode(id));
const ownerPrefix = (owner: string) => concatBytes(Uint8Array.of(A, T.index), lengthPrefixed(owner));
const indexKey = (owner: string, ms: number, id: string) => concatBytes(ownerPrefix(owner), u64be(ms), enc.encode(id));
const pushPrefix = (taskId: string) => concatBytes(Uint8Array.of(A, T.push), lengthPrefixed(taskId));
const pushKey = (taskId: string, id: string) => concatBytes(pushPrefix(taskId), enc.encode(id));

const statusMs = (task: Task): number => {
  const ms = task.status.timestamp === undefined ? 0 : Date.parse(task.status.timestamp);
  return Number.isNaN(ms) ? 0 : ms;
};

function encodeCursor(ms: number, id: string): string {
  return btoa(JSON.stringify([ms, id])).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function decodeCursor(token: string): [number, string] {
  try {
    const value: unknown = JSON.parse(atob(token.replace(/-/g, '+').replace(/_/g, '/')));
    if (Array.isArray(value) && typeof value[0] === 'number' && typeof value[1] === 'string') return [value[0], value[1]];
  } catch {
    // fall through
  }
  throw new RangeError('pageToken: not a cursor this server issued');
}

const readJson = <T>(bytes: Uint8Array): T => JSON.parse(dec.decode(bytes)) as T;

function matches(task: Task, filter: TaskFilter): boolean {
  if (filter.contextId !== undefined && filter.contextId !== '' && task.contextId !== filter.contextId) return false;
  if (filter.status !== undefined && task.status.state !== filter.status) return false;
  if (filter.statusAfterMs !== undefined && statusMs(task) < filter.statusAfterMs) return false;
  return true;
}

export function createKvTaskStore(kv: KvStore): TaskStore {
  const get = (id: string): StoredTask | undefined => {
    const bytes = kv.get(taskKey(id));
    return bytes === undefined ? undefined : readJson<StoredTask>(bytes);
  };

  return {
    get,
    async put(stored) {
      const previous = get(stored.task.id);
      const ops: KvOp[] = [];
      if (previous) ops.push({ type: 'del', key: indexKey(previous.owner, statusMs(previous.task), previous.task.id) });
      ops.push({ type: 'put', key: taskKey(stored.task.id), value: enc.encode(JSON.stringify(stored)) });
      ops.push({ type: 'put', key: indexKey(stored.owner, statusMs(stored.task), stored.task.id), value: new Uint8Array(0) });
      ops.push(...settlementIndexOps(previous?.task, stored.task));
      await kv.write(ops);
    },
    list(filter, pageSize, pageToken) {
      const prefix = ownerPrefix(filter.owner);
      const end = pageToken === '' ? undefined : indexKey(filter.owner, ...decodeCursor(pageToken));
      const tasks: StoredTask[] = [];
      let totalSize = 0;
      let last: StoredTask | undefined;
      let more = false;
      // totalSize counts every match, so the walk goes over the owner's whole index; the page is filled on the way.
      for (const [key] of kv.entries({ prefix, reverse: true })) {
        const stored = get(dec.decode(key.subarray(prefix.length + 8)));
        if (!stored || !matches(stored.task, filter)) continue;
        totalSize++;
        if (end !== undefined && compareBytes(key, end) >= 0) continue;
        if (tasks.length < pageSize) {
          tasks.push(stored);
          last = stored;
        } else more = true;
      }
      const nextPageToken = more && last ? encodeCursor(statusMs(last.task), last.task.id) : '';
      return { tasks, nextPageToken, totalSize };
    },
    unfinished() {
      const out: StoredTask[] = [];
      for (const [, value] of kv.entries({ prefix: Uint8Array.of(A, T.task) })) {
        const stored = readJson<StoredTask>(value);
        if (!terminal.has(stored.task.status.state)) out.push(stored);
      }
      return out;
    },
    taskOfEscrow(escrowId) {
      const bytes = kv.get(escrowTaskKey(escrowId));
      return bytes === undefined ? undefined : dec.decode(bytes);
    },
    followed() {
      const out: StoredTask[] = [];
      for (const [key] of kv.entries({ prefix: followedPrefix })) {
        const stored = get(dec.decode(key.subarray(followedPrefix.length)));
        if (stored !== undefined) out.push(stored);
      }
      return out;
    },
    getPushConfig(taskId, id) {
      const bytes = kv.get(pushKey(taskId, id));
      return bytes === undefined ? undefined : readJson<TaskPushNotificationConfig>(bytes);
    },
    listPushConfigs(taskId) {
      return [...kv.entries({ prefix: pushPrefix(taskId) })].map(([, v]) => readJson<TaskPushNotificationConfig>(v));
    },
    async putPushConfig(config) {
      await kv.write([{ type: 'put', key: pushKey(config.taskId, config.id), value: enc.encode(JSON.stringify(config)) }]);
    },
    async deletePushConfig(taskId, id) {
      if (!kv.has(pushKey(taskId, id))) return false;
      await kv.write([{ type: 'del', key: pushKey(taskId, id) }]);
      return true;
    },
  };
}

