/**
 * Opening a Wasm PoW pool (its workers start from server/worker-entry.ts's bootstrap and answer a handshake) and
 * closing it.
 */
import { MessageChannel, Worker } from 'node:worker_threads';
import { MiningError } from '../../../src/mining/errors.ts';
import { simdSupported } from '../../../src/mining/wasm-kernel.ts';
import { workerEntry } from '../../worker-entry.ts';
import { readWasmKernel, type WasmKernelVariant } from '../wasm-files.ts';
import { createContinuous } from './continuous.ts';
import type { PoolWorkerData } from './messages.ts';
import { createReplyQueue } from './reply-queue.ts';
import type { WasmPoolState } from './state.ts';

/** Starts `threads` workers (already checked: 1..wasmPoolThreadsMax) and waits for each one's handshake; if any fails, all are stopped again. */
export async function openWasmPool(threads: number, wasmDir?: string, variantAsked?: WasmKernelVariant): Promise<WasmPoolState> {
  const variant = variantAsked ?? (simdSupported() ? 'simd' : 'scalar');
  const wasmBytes = readWasmKernel(variant, wasmDir);
  const hashCounter = new SharedArrayBuffer(8);
  const bootstrap = workerEntry(new URL('../wasm-worker.ts', import.meta.url));
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
  return {
    threads, variant, workers, channels, workerReplies, continuous,
    counter: new BigInt64Array(hashCounter), nextId: 0, closed: false, queue: Promise.resolve(),
  };
}

/** Stops continuous mining, fails a search in flight, and terminates the workers; a second call does nothing. */
export async function closeWasmPool(state: WasmPoolState): Promise<void> {
  if (state.closed) return;
  state.closed = true;
  state.continuous.port.pause();
  for (const c of state.channels) c.port1.close();
  for (const replies of state.workerReplies) replies.fail(new MiningError('wasm pool: closed while a search ran'));
  await Promise.all(state.workers.map((w) => w.terminate()));
}
