/**
 * The JS reference PoW backend: the oracle the Wasm and WGSL kernels are tested against, and the fallback where
 * neither exists. One thread, noble BLAKE3 (~0.14 M hashes/s); yields to the event loop between jobs.
 */
import { searchNonce } from '../consensus/pow.ts';
import type { PowBackend } from './job.ts';

export function createReferencePowBackend(): PowBackend {
  return {
    name: 'js',
    gpu: false,
    async search(job) {
      await Promise.resolve();
      return searchNonce(job.prePowHash, job.target, job.nonceStart, job.nonceCount);
    },
    async close() {},
  };
}
