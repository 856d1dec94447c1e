/// <reference types="vite/client" />
/**
 * Web Worker of web/kernel-check.html: the AssemblyScript BLAKE3 PoW kernel (src/mining/wasm-kernel.ts) off the
 * main thread, as the browser miner runs it. The .wasm files come from build/wasm/ (npm run build) as Vite assets;
 * the SIMD build where the engine validates it, else the scalar one. Messages: KernelRequest in, KernelReply out.
 */
import simdUrl from '../build/wasm/blake3-pow-simd.wasm?url';
import scalarUrl from '../build/wasm/blake3-pow-scalar.wasm?url';
import { instantiatePowKernel, simdSupported, type PowKernel } from '../src/mining/wasm-kernel.ts';
import { fromHex, toHex } from '../src/util/bytes.ts';

export type KernelRequest =
  | { readonly id: number; readonly op: 'info' }
  | { readonly id: number; readonly op: 'powHash'; readonly prePow: string; readonly nonces: readonly string[] }
  | { readonly id: number; readonly op: 'search'; readonly prePow: string; readonly target: string; readonly nonceStart: string; readonly nonceCount: number };

export type KernelReply =
  | { readonly id: number; readonly simd: boolean }
  | { readonly id: number; readonly hashes: readonly string[] }
  | { readonly id: number; readonly nonce: string | null; readonly hashesDone: number }
  | { readonly id: number; readonly error: string };

/** The worker global, typed by what is used of it (tsconfig's lib is DOM, not WebWorker). */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<KernelRequest>) => void) | null;
  postMessage(message: KernelReply): void;
};

async function loadKernel(): Promise<PowKernel> {
  const url = simdSupported() ? simdUrl : scalarUrl;
  const response = await fetch(url);
  if (!response.ok) throw new Error(`fetching ${url}: HTTP ${response.status}`);
  return instantiatePowKernel(await response.arrayBuffer());
}

const kernel = loadKernel();

function answer(kernelNow: PowKernel, request: KernelRequest): KernelReply {
  switch (request.op) {
    case 'info':
      return { id: request.id, simd: kernelNow.simd };
    case 'powHash': {
      const prePow = fromHex(request.prePow);
      return { id: request.id, hashes: request.nonces.map((n) => toHex(kernelNow.powHash(prePow, BigInt(n)))) };
    }
    case 'search': {
      const result = kernelNow.search({
        prePowHash: fromHex(request.prePow), target: BigInt(request.target), nonceStart: BigInt(request.nonceStart), nonceCount: request.nonceCount,
      });
      return { id: request.id, nonce: result.nonce === null ? null : result.nonce.toString(), hashesDone: result.hashes };
    }
  }
}

scope.onmessage = (event: MessageEvent<KernelRequest>) => {
  kernel.then(
    (k) => scope.postMessage(answer(k, event.data)),
    (error: unknown) => scope.postMessage({ id: event.data.id, error: String(error) } satisfies KernelReply),
  ).catch((error: unknown) => scope.postMessage({ id: event.data.id, error: String(error) } satisfies KernelReply));
};
