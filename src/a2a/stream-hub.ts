/**
 * Fan-out of a task's events to every open stream (A2A 1.0 §3.1.6: several streams per task, each gets the same
 * events in the same order, and closing one affects neither the others nor the task). Each subscriber owns a
 * bounded queue; one that falls `a2aStreamQueueEventsMax` events behind is cut off rather than holding memory.
 */
import { a2aStreamQueueEventsMax, a2aStreamsPerTaskMax } from './limits.ts';
import type { StreamResponse } from './types.ts';
import { unsupportedOperation } from './errors.ts';

export interface Subscription extends AsyncIterable<StreamResponse> {
  /** Ends this stream only (the client went away). */
  close(): void;
}

export interface StreamHub {
  /** Opens a stream whose first events are `initial`; later events come from publish(). */
  subscribe(taskId: string, initial: readonly StreamResponse[]): Subscription;
  /** Sends `event` to every stream of the task; with `last`, the streams end after it. */
  publish(taskId: string, event: StreamResponse, last: boolean): void;
  streams(taskId: string): number;
}

interface Queue {
  readonly items: StreamResponse[];
  ended: boolean;
  wake: (() => void) | undefined;
}

export function createStreamHub(queueMax: number = a2aStreamQueueEventsMax): StreamHub {
  const byTask = new Map<string, Set<Queue>>();

  const detach = (taskId: string, q: Queue) => {
    const set = byTask.get(taskId);
    set?.delete(q);
    if (set?.size === 0) byTask.delete(taskId);
  };

  const end = (taskId: string, q: Queue) => {
    q.ended = true;
    detach(taskId, q);
    q.wake?.();
  };

  return {
    subscribe(taskId, initial) {
      const set = byTask.get(taskId) ?? new Set<Queue>();
      if (set.size >= a2aStreamsPerTaskMax) throw unsupportedOperation(`task ${taskId} already has ${a2aStreamsPerTaskMax} streams`);
      const q: Queue = { items: [...initial], ended: false, wake: undefined };
      set.add(q);
      byTask.set(taskId, set);
      return {
        close: () => end(taskId, q),
        async *[Symbol.asyncIterator]() {
          try {
            for (;;) {
              const item = q.items.shift();
              if (item !== undefined) {
                yield item;
                continue;
              }
              if (q.ended) return;
              await new Promise<void>((resolve) => (q.wake = resolve));
              q.wake = undefined;
            }
          } finally {
            end(taskId, q);
          }
        },
      };
    },
    publish(taskId, event, last) {
      for (const q of [...(byTask.get(taskId) ?? [])]) {
        if (q.items.length >= queueMax) {
          end(taskId, q);
          continue;
        }
        q.items.push(event);
        if (last) end(taskId, q);
        else q.wake?.();
      }
    },
    streams: (taskId) => byTask.get(taskId)?.size ?? 0,
  };
}
