/// <reference types="vite/client" />
/**
 * web/kernel-check.html: runs both PoW kernels in the browser the way the browser miner will — the Wasm kernel in a
 * Web Worker (web/kernel-worker.ts) and the WGSL kernel (shaders/blake3-pow.wgsl through
 * src/mining/webgpu-backend.ts) on navigator.gpu — and exposes them as `window.weftKernels` so that
 * e2e/mining-kernels.spec.ts can check them against src/consensus/pow.ts computed in Node. Hex strings in and out
 * (no bigint crosses page.evaluate).
 */
import shaderSource from '../shaders/blake3-pow.wgsl?raw';
import { createWebGpuPowBackend, type WebGpuPowBackend } from '../src/mining/webgpu-backend.ts';
import { fromHex, toHex } from '../src/util/bytes.ts';
import type { KernelReply, KernelRequest } from './kernel-worker.ts';

export interface SearchAnswer {
  readonly nonce: string | null;
  readonly hashes: number;
}

export interface WeftKernels {
  /** 'simd' | 'scalar': the Wasm build the worker loaded. */
  wasmVariant(): Promise<string>;
  wasmPowHashes(prePow: string, nonces: readonly string[]): Promise<string[]>;
  wasmSearch(prePow: string, target: string, nonceStart: string, nonceCount: number): Promise<SearchAnswer>;
  /** The adapter description, or throws with why WebGPU is unavailable. */
  gpuAdapter(): Promise<string>;
  gpuPowHashes(prePow: string, nonces: readonly string[]): Promise<string[]>;
  gpuSearch(prePow: string, target: string, nonceStart: string, nonceCount: number): Promise<SearchAnswer>;
  /** Shows a line of results on the page (for the screenshot). */
  show(id: 'wasm' | 'webgpu' | 'verdict', text: string): void;
}

declare global {
  interface Window {
    weftKernels: WeftKernels;
    weftKernelsReady: Promise<void>;
  }
}

const worker = new Worker(new URL('./kernel-worker.ts', import.meta.url), { type: 'module' });
const waiting = new Map<number, { resolve: (r: KernelReply) => void; reject: (e: Error) => void }>();
let nextId = 0;
worker.onmessage = (event: MessageEvent<KernelReply>) => {
  const pending = waiting.get(event.data.id);
  waiting.delete(event.data.id);
  if (pending === undefined) return;
  if ('error' in event.data) pending.reject(new Error(event.data.error));
  else pending.resolve(event.data);
};
worker.onerror = (event) => {
  for (const pending of waiting.values()) pending.reject(new Error(`kernel worker failed: ${event.message}`));
  waiting.clear();
};

type Body<T> = T extends unknown ? Omit<T, 'id'> : never;

function ask(request: Body<KernelRequest>): Promise<KernelReply> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    worker.postMessage({ ...request, id });
  });
}

async function openGpu(): Promise<WebGpuPowBackend> {
  if (!('gpu' in navigator)) throw new Error('navigator.gpu is missing: this browser has no WebGPU');
  const adapter = await navigator.gpu.requestAdapter();
  if (adapter === null) throw new Error('navigator.gpu.requestAdapter() gave no adapter');
  const device = await adapter.requestDevice();
  return createWebGpuPowBackend({ device, shaderSource, adapterInfo: adapter.info });
}

let gpu: Promise<WebGpuPowBackend> | undefined;
const gpuBackend = (): Promise<WebGpuPowBackend> => (gpu ??= openGpu());
const answerOf = (result: { nonce: bigint | null; hashes: number }): SearchAnswer =>
  ({ nonce: result.nonce === null ? null : result.nonce.toString(), hashes: result.hashes });

const show = (id: string, text: string): void => {
  const el = document.getElementById(id);
  if (el !== null) el.textContent = text;
};

window.weftKernels = {
  async wasmVariant() {
    const reply = await ask({ op: 'info' });
    return 'simd' in reply && reply.simd ? 'simd' : 'scalar';
  },
  async wasmPowHashes(prePow, nonces) {
    const reply = await ask({ op: 'powHash', prePow, nonces });
    if (!('hashes' in reply)) throw new Error('unexpected reply from the kernel worker');
    return [...reply.hashes];
  },
  async wasmSearch(prePow, target, nonceStart, nonceCount) {
    const reply = await ask({ op: 'search', prePow, target, nonceStart, nonceCount });
    if (!('hashesDone' in reply)) throw new Error('unexpected reply from the kernel worker');
    return { nonce: reply.nonce, hashes: reply.hashesDone };
  },
  async gpuAdapter() {
    return (await gpuBackend()).adapterDescription;
  },
  async gpuPowHashes(prePow, nonces) {
    const digests = await (await gpuBackend()).hashDigests(fromHex(prePow), nonces.map((n) => BigInt(n)));
    return digests.map(toHex);
  },
  async gpuSearch(prePow, target, nonceStart, nonceCount) {
    const job = { prePowHash: fromHex(prePow), target: BigInt(target), nonceStart: BigInt(nonceStart), nonceCount };
    return answerOf(await (await gpuBackend()).search(job));
  },
  show,
};

window.weftKernelsReady = (async () => {
  const variant = await window.weftKernels.wasmVariant().catch((e: unknown) => `unavailable: ${String(e)}`);
  show('wasm', `loaded (${variant}) in a Web Worker`);
  const adapter = await window.weftKernels.gpuAdapter().catch((e: unknown) => `unavailable: ${String(e)}`);
  show('webgpu', adapter);
})();
