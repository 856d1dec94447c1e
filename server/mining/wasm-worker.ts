/**
 * One worker thread of the Wasm PoW pool (server/mining/wasm-pool.ts). It instantiates the kernel from the bytes in
 * workerData, then answers job messages: it takes every `threads`-th batch of the job's range, starting at batch
 * `threadIndex`, and stops early once another thread has found a winner in an earlier batch (the shared `best`
 * cell), because no winner of its own could come first in range order then.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { instantiatePowKernel } from '../../src/mining/wasm-kernel.ts';
import type { PoolJobMessage, PoolReply, PoolWorkerData } from './wasm-pool.ts';

const u64Max = (1n << 64n) - 1n;

const port = parentPort;
if (port === null) throw new Error('wasm-worker.ts must run as a worker thread');
const data = workerData as PoolWorkerData;
const hashCounter = new BigInt64Array(data.hashCounter);

try {
  const kernel = await instantiatePowKernel(data.wasmBytes);
  port.on('message', (job: PoolJobMessage) => {
    try {
      port.postMessage(runJob(kernel, job));
    } catch (error) {
      port.postMessage({ id: job.id, error: String(error) } satisfies PoolReply);
    }
  });
  port.postMessage({ id: -1, ready: true } satisfies PoolReply);
} catch (error) {
  port.postMessage({ id: -1, error: String(error) } satisfies PoolReply);
}

function runJob(kernel: Awaited<ReturnType<typeof instantiatePowKernel>>, job: PoolJobMessage): PoolReply {
  const best = new BigInt64Array(job.best);
  const batches = Math.ceil(job.nonceCount / job.batchNonces);
  let hashes = 0;
  for (let batch = job.threadIndex; batch < batches; batch += job.threads) {
    if (Atomics.load(best, 0) < BigInt(batch)) break;
    const offset = batch * job.batchNonces;
    const result = kernel.search({
      prePowHash: job.prePowHash,
      target: job.target,
      nonceStart: (job.nonceStart + BigInt(offset)) & u64Max,
      nonceCount: Math.min(job.batchNonces, job.nonceCount - offset),
    });
    hashes += result.hashes;
    Atomics.add(hashCounter, 0, BigInt(result.hashes));
    if (result.nonce !== null) {
      lowerTo(best, BigInt(batch));
      return { id: job.id, winnerOffset: offset + result.hashes - 1, hashes };
    }
  }
  return { id: job.id, winnerOffset: null, hashes };
}

/** Atomic min: other threads may lower the cell at the same time. */
function lowerTo(cell: BigInt64Array, value: bigint): void {
  let seen = Atomics.load(cell, 0);
  while (value < seen) {
    const previous = Atomics.compareExchange(cell, 0, seen, value);
    if (previous === seen) return;
    seen = previous;
  }
}
