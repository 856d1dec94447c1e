/**
 * The state of a Wasm PoW pool (server/mining/wasm-pool.ts): its workers with their reply queues and job ports, the
 * shared hash counter, and the bounded-search queue. Operations: lifecycle.ts (open, close), search.ts.
 */
import type { MessageChannel, Worker } from 'node:worker_threads';
import type { WasmKernelVariant } from '../wasm-files.ts';
import type { ContinuousSide } from './continuous.ts';
import type { ReplyQueue } from './reply-queue.ts';

export interface WasmPoolState {
  readonly threads: number;
  readonly variant: WasmKernelVariant;
  readonly workers: readonly Worker[];
  /** One per worker: its continuous-mining channel (the pool holds port1). */
  readonly channels: readonly MessageChannel[];
  readonly workerReplies: readonly ReplyQueue[];
  readonly continuous: ContinuousSide;
  /** BigInt64Array(1) over the shared counter: nonces hashed by every worker. */
  readonly counter: BigInt64Array;
  nextId: number;
  closed: boolean;
  /** The tail of the search queue: searches run one at a time in call order. */
  queue: Promise<unknown>;
}

export function hashesDone(state: WasmPoolState): number {
  return Number(Atomics.load(state.counter, 0));
}
