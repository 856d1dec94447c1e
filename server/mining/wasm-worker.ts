/**
 * One worker thread of the Wasm PoW pool (server/mining/wasm-pool.ts). It instantiates the kernel from the bytes in
 * workerData, then serves two kinds of work:
 * - bounded searches (parentPort): it takes every `threads`-th batch of the job's range, starting at batch
 *   `threadIndex`, and stops early once another thread has found a winner in an earlier batch (the shared `best`
 *   cell), because no winner of its own could come first in range order then;
 * - continuous mining (its own job port): it hashes the latest job pushed to it without end, one kernel call
 *   (~4 ms) at a time, reading its inbox synchronously between calls (`receiveMessageOnPort`), and posts its
 *   winner. It waits for the main thread only after a winner (the next template must build on that block): a busy
 *   main thread delays the reports, not the hashing.
 */
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { instantiatePowKernel, wasmKernelBatchNonces, type PowKernel } from '../../src/mining/wasm-kernel.ts';
import type { PoolFoundMessage, PoolJobMessage, PoolMineMessage, PoolReply, PoolWorkerData } from './wasm-pool/messages.ts';

const u64Max = (1n << 64n) - 1n;

const port = parentPort;
if (port === null) throw new Error('wasm-worker.ts must run as a worker thread');
const data = workerData as PoolWorkerData;
const hashCounter = new BigInt64Array(data.hashCounter);
const jobPort = data.jobPort;

try {
  const kernel = await instantiatePowKernel(data.wasmBytes);
  port.on('message', (job: PoolJobMessage) => {
    try {
      port.postMessage(runJob(kernel, job));
    } catch (error) {
      port.postMessage({ id: job.id, error: String(error) } satisfies PoolReply);
    }
  });
  jobPort.on('message', (message: PoolMineMessage) => {
    try {
      mineContinuously(kernel, message);
    } catch (error) {
      port.postMessage({ id: -2, error: String(error) } satisfies PoolReply);
    }
  });
  port.postMessage({ id: -1, ready: true } satisfies PoolReply);
} catch (error) {
  port.postMessage({ id: -1, error: String(error) } satisfies PoolReply);
}

/** Hashes the newest job until a pause arrives; returns to the event loop only then. */
function mineContinuously(kernel: PowKernel, first: PoolMineMessage): void {
  let job = first;
  let cursor = first.type === 'mine' ? first.nonceStart : 0n;
  while (job.type === 'mine') {
    const result = kernel.search({ prePowHash: job.prePowHash, target: job.target, nonceStart: cursor, nonceCount: wasmKernelBatchNonces });
    Atomics.add(hashCounter, 0, BigInt(result.hashes));
    if (result.nonce !== null) {
      // One winner ends a job: the next block builds on this one, so the thread waits for the template after it
      // (on an easy regtest target, going on would post a winner every few hashes and flood the main thread).
      jobPort.postMessage({ type: 'found', jobId: job.jobId, nonce: result.nonce } satisfies PoolFoundMessage);
      return;
    }
    cursor = (cursor + BigInt(result.hashes)) & u64Max;
    // Only the newest message counts: a job replaced twice since the last look was never worth starting.
    let next: { message: PoolMineMessage } | undefined;
    while ((next = receiveMessageOnPort(jobPort) as { message: PoolMineMessage } | undefined) !== undefined) {
      job = next.message;
      if (job.type === 'mine') cursor = job.nonceStart;
    }
  }
}

function runJob(kernel: PowKernel, job: PoolJobMessage): PoolReply {
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
