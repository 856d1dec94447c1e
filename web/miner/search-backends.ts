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
const wasmWorkerBatchNonces = 1 << 17;

async function requestAdapter(): Promise<GPUAdapter> {
  if (!('gpu' in navigator)) throw new Error('this browser has no WebGPU (navigator.gpu is missing)');
  const adapter = await navigator.gpu.requestAdapter();
  if (adapter === null) throw new Error('WebGPU offers no adapter here');
  return adapter;
}

async function openAdapterBackend(adapter: GPUAdapter): Promise<TabBackend> {
  const device = await adapter.requestDevice();
  const backend = await createWebGpuPowBackend({ device, shaderSource, adapterInfo: adapter.info });
  return { name: `webgpu (${backend.adapterDescription})`, gpu: true, batchNonces: 1 << 20, search: (job) => backend.search(job), close: () => device.destroy() };
}

export async function openWebGpuBackend(): Promise<TabBackend> {
  return openAdapterBackend(await requestAdapter());
}

/** Adapter names that are CPU emulations of a GPU (Chromium's SwiftShader, Mesa's llvmpipe/lavapipe, WARP). */
const softwareAdapterPattern = /swiftshader|llvmpipe|lavapipe|softpipe|software|microsoft basic render|warp/i;

/**
 * Why an adapter is a software one, or undefined for a hardware GPU: WebGPU's own flag (`info.isFallbackAdapter`,
 * older Chromium `adapter.isFallbackAdapter`) or a software renderer's name in its info.
 */
function softwareAdapterReason(adapter: { readonly info: Partial<GPUAdapterInfo>; readonly isFallbackAdapter?: boolean }): string | undefined {
  const { info } = adapter;
  const text = [info.vendor, info.architecture, info.device, info.description].filter(Boolean).join(' ');
  if (info.isFallbackAdapter === true || adapter.isFallbackAdapter === true) return `the WebGPU adapter${text ? ` (${text})` : ''} is a fallback (software) adapter`;
  if (softwareAdapterPattern.test(text)) return `the WebGPU adapter (${text}) is a software renderer, a CPU emulation of a GPU`;
  return undefined;
}

/** A job no nonce can win (target 0), for timing a backend. */
const trialJob = (nonceCount: number) => ({ prePowHash: new Uint8Array(32), target: 0n, nonceStart: 0n, nonceCount });
/** Nonces per backend in the auto trial: about a tenth of a second of Wasm on one worker. */
const autoTrialNonces = 1 << 16;

async function hashRate(backend: TabBackend, nonces: number): Promise<number> {
  const began = performance.now();
  const result = await backend.search(trialJob(nonces));
  return result.hashes / Math.max(1e-3, (performance.now() - began) / 1000);
}

export interface BackendChoice {
  readonly backend: TabBackend;
  /** Shown beside the backend: why "auto" picked it. */
  readonly reason: string;
}

/**
 * "auto": WebGPU only where it is worth it (issue 21: auto used to pick WebGPU on SwiftShader, twenty times slower
 * than Wasm). No adapter → Wasm; a software adapter → Wasm, by adapter info; else a short measured trial of both on
 * a job no nonce wins (the GPU's first dispatch, which compiles the pipeline, is not timed) and the faster one.
 */
export async function chooseAutoBackend(threads: number): Promise<BackendChoice> {
  let adapter: GPUAdapter;
  try {
    adapter = await requestAdapter();
  } catch (error) {
    return { backend: openWasmBackend(threads), reason: `auto: Wasm, because ${(error as Error).message}` };
  }
  const software = softwareAdapterReason(adapter as GPUAdapter & { isFallbackAdapter?: boolean });
  if (software) return { backend: openWasmBackend(threads), reason: `auto: Wasm, because ${software}` };
  const gpu = await openAdapterBackend(adapter);
  const wasm = openWasmBackend(threads);
  // Warm-ups, not timed: the GPU pipeline's compilation, the workers' start and Wasm compilation.
  await Promise.all([gpu.search(trialJob(autoTrialNonces)), wasm.search(trialJob(1 << 10))]);
  const gpuRate = await hashRate(gpu, autoTrialNonces * 4);
  const wasmRate = await hashRate(wasm, autoTrialNonces * threads);
  const rates = `WebGPU ${Math.round(gpuRate).toLocaleString('en')} H/s vs Wasm ${Math.round(wasmRate).toLocaleString('en')} H/s in a short trial`;
  if (gpuRate > wasmRate) {
    wasm.close();
    return { backend: gpu, reason: `auto: WebGPU, faster (${rates})` };
  }
  gpu.close();
  return { backend: wasm, reason: `auto: Wasm, faster (${rates})` };
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
