/**
 * The tab's PoW backends behind one search function: the WGSL kernel on navigator.gpu (src/mining/
 * webgpu-backend.ts), or the Wasm kernel in N Web Workers (web/kernel-worker.ts), each worker taking a slice of
 * the nonce range. Both are ports of src/consensus/pow.ts, checked bit for bit in e2e/mining-kernels.spec.ts.
 */
import shaderSource from '../../shaders/blake3-pow.wgsl?raw';
import { createWebGpuPowBackend } from '../../src/mining/webgpu-backend.ts';
import type { PowJob, PowResult } from '../../src/mining/job.ts';
import type { KernelReply, KernelRequest } from '../kernel-worker.ts';
import { toHex } from '../../src/util/bytes.ts';

export interface TabBackend {
  readonly name: string;
  readonly gpu: boolean;
  /** Nonces per search call that keep one call near 100 ms. */
  readonly batchNonces: number;
  search(job: PowJob): Promise<PowResult>;
  close(): void;
}

/** Nonces one Wasm worker hashes per call (~a tenth of a second on one core). */
export const wasmWorkerBatchNonces = 1 << 17;

export async function openWebGpuBackend(): Promise<TabBackend> {
  if (!('gpu' in navigator)) throw new Error('this browser has no WebGPU (navigator.gpu is missing)');
  const adapter = await navigator.gpu.requestAdapter();
  if (adapter === null) throw new Error('WebGPU offers no adapter here');
  const device = await adapter.requestDevice();
  const backend = await createWebGpuPowBackend({ device, shaderSource, adapterInfo: adapter.info });
  return { name: `webgpu (${backend.adapterDescription})`, gpu: true, batchNonces: 1 << 20, search: (job) => backend.search(job), close: () => device.destroy() };
}

function openWorker(): { ask(request: Omit<Extract<KernelRequest, { op: 'search' }>, 'id'>): Promise<KernelReply>; terminate(): void } {
  const worker = new Worker(new URL('../kernel-worker.ts', import.meta.url), { type: 'module' });
  const waiting = new Map<number, (r: KernelReply) => void>();
  let next = 0;
  worker.onmessage = (event: MessageEvent<KernelReply>) => {
    waiting.get(event.data.id)?.(event.data);
    waiting.delete(event.data.id);
  };
  return {
    ask(request) {
      const id = next++;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        worker.postMessage({ ...request, id });
      });
    },
    terminate: () => worker.terminate(),
  };
}

export function openWasmBackend(threads: number): TabBackend {
  const workers = Array.from({ length: threads }, openWorker);
  return {
    name: `wasm × ${threads} worker${threads > 1 ? 's' : ''}`,
    gpu: false,
    batchNonces: wasmWorkerBatchNonces * threads,
    async search(job) {
      const slice = Math.ceil(job.nonceCount / workers.length);
      const prePow = toHex(job.prePowHash);
      const replies = await Promise.all(workers.map((w, i) =>
        w.ask({ op: 'search', prePow, target: job.target.toString(), nonceStart: (job.nonceStart + BigInt(i * slice)).toString(), nonceCount: slice })));
      let hashes = 0;
      let nonce: bigint | null = null;
      for (const r of replies) {
        if ('error' in r) throw new Error(r.error);
        if (!('hashesDone' in r)) throw new Error('unexpected reply from the kernel worker');
        hashes += r.hashesDone;
        if (nonce === null && r.nonce !== null) nonce = BigInt(r.nonce);
      }
      return { nonce, hashes };
    },
    close: () => workers.forEach((w) => w.terminate()),
  };
}
