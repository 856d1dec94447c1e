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
 *
 * The pool's state is wasm-pool/state.ts; its operations are wasm-pool/lifecycle.ts (open, close) and
 * wasm-pool/search.ts; the messages with the workers are wasm-pool/messages.ts.
 */
import { MiningError } from '../../src/mining/errors.ts';
import type { PowBackend } from '../../src/mining/job.ts';
import type { WasmKernelVariant } from './wasm-files.ts';
import { closeWasmPool, openWasmPool } from './wasm-pool/lifecycle.ts';
import { searchWasmPool, setContinuousJob } from './wasm-pool/search.ts';
import { hashesDone } from './wasm-pool/state.ts';

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

export async function createWasmPowPool(options: WasmPowPoolOptions): Promise<WasmPowPool> {
  const { threads } = options;
  if (!Number.isInteger(threads) || threads < 1 || threads > wasmPoolThreadsMax) {
    throw new MiningError(`threads: expected an integer in 1..${wasmPoolThreadsMax}, got ${String(threads)}`);
  }
  const state = await openWasmPool(threads, options.wasmDir, options.variant);
  return {
    name: state.variant === 'simd' ? 'wasm-simd' : 'wasm-scalar',
    gpu: false,
    threads: state.threads,
    hashesDone: () => hashesDone(state),
    continuous: {
      ...state.continuous.port,
      setJob: (job) => setContinuousJob(state, job),
      hashesDone: () => hashesDone(state),
    },
    search: (job) => searchWasmPool(state, job),
    close: () => closeWasmPool(state),
  };
}
