/**
 * Bounded searches on the Wasm pool and the continuous job (server/mining/wasm-pool.ts). A search's range is cut
 * into batches of wasmKernelBatchNonces; thread t takes batches t, t+threads, …; the answer is the winner of the
 * lowest batch that has one, the first winner in range order.
 */
import { MiningError } from '../../../src/mining/errors.ts';
import type { ContinuousPow, PowJob, PowResult } from '../../../src/mining/job.ts';
import { checkJob, wasmKernelBatchNonces } from '../../../src/mining/wasm-kernel.ts';
import type { PoolJobMessage } from './messages.ts';
import type { WasmPoolState } from './state.ts';

const u64Max = (1n << 64n) - 1n;

async function runSearch(state: WasmPoolState, job: PowJob): Promise<PowResult> {
  if (state.closed) throw new MiningError('wasm pool: search after close()');
  if (state.continuous.active()) throw new MiningError('wasm pool: search while continuous mining runs (pause() it first)');
  const id = state.nextId++;
  const batchNonces = wasmKernelBatchNonces;
  const best = new SharedArrayBuffer(8);
  new BigInt64Array(best)[0] = BigInt(Math.ceil(job.nonceCount / batchNonces));
  const base = { id, batchNonces, threads: state.threads, best };
  const { prePowHash, target, nonceStart, nonceCount } = job;
  state.workers.forEach((worker, threadIndex) => {
    const message: PoolJobMessage = { ...base, prePowHash, target, nonceStart, nonceCount, threadIndex };
    worker.postMessage(message);
  });
  const replies = await Promise.all(state.workerReplies.map((r) => r.next()));
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

/** A bounded search, checked now and run after the searches before it. */
export function searchWasmPool(state: WasmPoolState, job: PowJob): Promise<PowResult> {
  try {
    checkJob(job);
  } catch (error) {
    return Promise.reject(error);
  }
  const result = state.queue.then(() => runSearch(state, job));
  state.queue = result.catch(() => undefined);
  return result;
}

/** The continuous job for every thread, refused after close(). */
export function setContinuousJob(state: WasmPoolState, job: Parameters<ContinuousPow['setJob']>[0]): number {
  if (state.closed) throw new MiningError('wasm pool: setJob after close()');
  checkJob({ ...job, nonceCount: 0 });
  return state.continuous.port.setJob(job);
}
