/**
 * The Node CPU miner: the AssemblyScript BLAKE3 kernel (src/mining/wasm-kernel.ts) on `threads` worker threads, as a
 * `PowBackend` (docs/design.md "Mining"). A job's range is cut into batches of wasmKernelBatchNonces; thread t takes batches
 * t, t+threads, t+2·threads, … so the threads sweep the range front to back together. The answer is the winner of
 * the lowest batch that has one — the first winner in range order, as one thread would find — and a thread stops as
 * soon as a winner is known in an earlier batch than its next one.
 *
 * Workers start from server/worker-entry.ts's bootstrap (wasm-worker.ts's bundle, or the TypeScript through tsx
 * registered inside the worker), the same under `node --import tsx`, `npx tsx`, bin/weft.mjs and Vitest, from any
 * working directory. Jobs are run one at a time in call order.
 *
 * Continuous mining (`continuous`, what the node's miner uses): each worker has its own MessageChannel; `setJob`
 * posts the new pre-PoW hash and target to every worker, which switches to it between two kernel calls and keeps
 * hashing until the next job or `pause()`, posting winners back. Thread t starts at nonceStart + t·2^64/threads, so
 * the threads never overlap. The main thread only pushes jobs and hears winners; it never paces the hashing.
 */
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import { workerEntry } from '../worker-entry.ts';
import { MiningError } from '../../src/mining/errors.ts';
import type { ContinuousPow, PowBackend, PowFound, PowJob, PowResult } from '../../src/mining/job.ts';
import { checkJob, simdSupported, wasmKernelBatchNonces } from '../../src/mining/wasm-kernel.ts';
import { readWasmKernel, type WasmKernelVariant } from './wasm-files.ts';

/** Upper bound on worker threads in one pool (far above any CPU this runs on; a typo should not spawn 10^6). */
export const wasmPoolThreadsMax = 256;

export interface WasmPowPoolOptions {
  readonly threads: number;
  /** Directory holding blake3-pow-{simd,scalar}.wasm; defaults to build/wasm/. */
  readonly wasmDir?: string;
  /** Force a variant (benchmarks, tests); defaults to SIMD where the engine supports it. */
  readonly variant?: WasmKernelVariant;
}

export interface WasmPowPool extends PowBackend {
  readonly threads: number;
  /**
   * Nonces hashed by all threads since the pool started, updated after every batch, also during a search. A
   * search's own `hashes` counts the same work: every thread's nonces, so it can exceed the winner's offset + 1.
   */
  hashesDone(): number;
}

/** @internal Messages between the pool and server/mining/wasm-worker.ts. */
export interface PoolWorkerData {
  readonly wasmBytes: Uint8Array;
  /** BigInt64Array(1): nonces hashed by every worker of the pool. */
  readonly hashCounter: SharedArrayBuffer;
  /** This worker's end of its continuous-mining channel. */
  readonly jobPort: MessagePort;
}

/** @internal Main → worker on the job port: hash this from now on, or stop hashing. */
export type PoolMineMessage =
  | { readonly type: 'mine'; readonly jobId: number; readonly prePowHash: Uint8Array; readonly target: bigint; readonly nonceStart: bigint }
  | { readonly type: 'pause' };

/** @internal Worker → main on the job port. */
export interface PoolFoundMessage {
  readonly type: 'found';
  readonly jobId: number;
  readonly nonce: bigint;
}

/** @internal */
export interface PoolJobMessage {
  readonly id: number;
  readonly prePowHash: Uint8Array;
  readonly target: bigint;
  readonly nonceStart: bigint;
  readonly nonceCount: number;
  readonly batchNonces: number;
  readonly threadIndex: number;
  readonly threads: number;
  /** BigInt64Array(1): the lowest batch index known to hold a winner (the batch count while none is known). */
  readonly best: SharedArrayBuffer;
}

/** @internal id -1 is the startup handshake. */
export type PoolReply =
  | { readonly id: number; readonly ready: true }
  | { readonly id: number; readonly winnerOffset: number | null; readonly hashes: number }
  | { readonly id: number; readonly error: string };

const u64Max = (1n << 64n) - 1n;
export async function createWasmPowPool(options: WasmPowPoolOptions): Promise<WasmPowPool> {
  const { threads } = options;
  if (!Number.isInteger(threads) || threads < 1 || threads > wasmPoolThreadsMax) {
    throw new MiningError(`threads: expected an integer in 1..${wasmPoolThreadsMax}, got ${String(threads)}`);
  }
  const variant = options.variant ?? (simdSupported() ? 'simd' : 'scalar');
  const wasmBytes = readWasmKernel(variant, options.wasmDir);
  const hashCounter = new SharedArrayBuffer(8);
  const counter = new BigInt64Array(hashCounter);
  const bootstrap = workerEntry(new URL('./wasm-worker.ts', import.meta.url));
  const channels = Array.from({ length: threads }, () => new MessageChannel());
  const workers = channels.map((channel) => {
    const workerData: PoolWorkerData = { wasmBytes, hashCounter, jobPort: channel.port2 };
    return new Worker(bootstrap, { eval: true, workerData, transferList: [channel.port2] });
  });
  const workerReplies = workers.map((worker) => createReplyQueue(worker));
  try {
    await Promise.all(workerReplies.map((replies) => replies.next()));
  } catch (error) {
    await Promise.all(workers.map((w) => w.terminate()));
    for (const c of channels) c.port1.close();
    throw error;
  }
  const continuous = createContinuous(channels.map((c) => c.port1), threads);

  let nextId = 0;
  let closed = false;
  let queue: Promise<unknown> = Promise.resolve();

  async function run(job: PowJob): Promise<PowResult> {
    if (closed) throw new MiningError('wasm pool: search after close()');
    if (continuous.active()) throw new MiningError('wasm pool: search while continuous mining runs (pause() it first)');
    const id = nextId++;
    const batchNonces = wasmKernelBatchNonces;
    const best = new SharedArrayBuffer(8);
    new BigInt64Array(best)[0] = BigInt(Math.ceil(job.nonceCount / batchNonces));
    const base = { id, batchNonces, threads, best };
    const { prePowHash, target, nonceStart, nonceCount } = job;
    workers.forEach((worker, threadIndex) => {
      const message: PoolJobMessage = { ...base, prePowHash, target, nonceStart, nonceCount, threadIndex };
      worker.postMessage(message);
    });
    const replies = await Promise.all(workerReplies.map((r) => r.next()));
    let winner: number | null = null;
    let hashes = 0;
    for (const reply of replies) {
      if (!('hashes' in reply) || reply.id !== id) {
        throw new MiningError('wasm pool: unexpected worker reply', { details: reply });
      }
      hashes += reply.hashes;
      if (reply.winnerOffset !== null && (winner === null || reply.winnerOffset < winner)) winner = reply.winnerOffset;
    }
    return { nonce: winner === null ? null : (nonceStart + BigInt(winner)) & u64Max, hashes };
  }

  return {
    name: variant === 'simd' ? 'wasm-simd' : 'wasm-scalar',
    gpu: false,
    threads,
    hashesDone: () => Number(Atomics.load(counter, 0)),
    continuous: {
      ...continuous.port,
      setJob(job) {
        if (closed) throw new MiningError('wasm pool: setJob after close()');
        checkJob({ ...job, nonceCount: 0 });
        return continuous.port.setJob(job);
      },
      hashesDone: () => Number(Atomics.load(counter, 0)),
    },
    search(job) {
      try {
        checkJob(job);
      } catch (error) {
        return Promise.reject(error);
      }
      const result = queue.then(() => run(job));
      queue = result.catch(() => undefined);
      return result;
    },
    async close() {
      if (closed) return;
      closed = true;
      continuous.port.pause();
      for (const c of channels) c.port1.close();
      for (const replies of workerReplies) replies.fail(new MiningError('wasm pool: closed while a search ran'));
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}

/** The main thread's side of continuous mining over the workers' job ports. */
function createContinuous(ports: readonly MessagePort[], threads: number): {
  port: Omit<ContinuousPow, 'hashesDone'>;
  active(): boolean;
} {
  const listeners = new Set<(found: PowFound) => void>();
  const stride = (1n << 64n) / BigInt(threads);
  let nextJobId = 1;
  let active = false;
  for (const p of ports) {
    p.on('message', (message: PoolFoundMessage) => {
      for (const listener of listeners) listener({ jobId: message.jobId, nonce: message.nonce });
    });
    // An idle pool must not keep the process alive on its job ports (the workers' own handles decide that).
    p.unref();
  }
  return {
    active: () => active,
    port: {
      setJob(job) {
        const jobId = nextJobId++;
        active = true;
        ports.forEach((p, t) => {
          const nonceStart = (job.nonceStart + BigInt(t) * stride) & u64Max;
          p.postMessage({ type: 'mine', jobId, prePowHash: job.prePowHash, target: job.target, nonceStart } satisfies PoolMineMessage);
        });
        return jobId;
      },
      pause() {
        if (!active) return;
        active = false;
        for (const p of ports) p.postMessage({ type: 'pause' } satisfies PoolMineMessage);
      },
      onFound(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
  };
}

interface ReplyQueue {
  /** The worker's next reply; rejects on a worker error reply, a crash or an exit. */
  next(): Promise<PoolReply>;
  fail(error: Error): void;
}

/** Replies of one worker in order (a worker answers one message at a time). */
function createReplyQueue(worker: Worker): ReplyQueue {
  const buffered: PoolReply[] = [];
  const waiting: { resolve: (r: PoolReply) => void; reject: (e: Error) => void }[] = [];
  let failure: Error | null = null;
  const fail = (error: Error): void => {
    failure ??= error;
    for (const w of waiting.splice(0)) w.reject(failure);
  };
  worker.on('message', (reply: PoolReply) => {
    if ('error' in reply) return fail(new MiningError(`wasm pool worker: ${reply.error}`));
    const w = waiting.shift();
    if (w) w.resolve(reply);
    else buffered.push(reply);
  });
  worker.on('error', (error) => fail(new MiningError(`wasm pool worker crashed: ${error.message}`, { cause: error })));
  worker.on('exit', (code) => fail(new MiningError(`wasm pool worker exited with code ${code}`)));
  return {
    next() {
      const reply = buffered.shift();
      if (reply) return Promise.resolve(reply);
      if (failure) return Promise.reject(failure);
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    fail,
  };
}
