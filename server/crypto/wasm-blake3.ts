/**
 * Puts the Wasm kernel's general BLAKE3 behind `blake3()` for this process (block ids, merkle roots, the state
 * trie): ~9× noble at 64 bytes, ~15× at 1 KiB (docs/mining-kernels.md). useBlake3Implementation checks it against
 * noble before using it.
 */
import { useBlake3Implementation } from '../../src/crypto/blake3.ts';
import { instantiatePowKernel, simdSupported } from '../../src/mining/wasm-kernel.ts';
import { readWasmKernel } from '../mining/wasm-files.ts';

export async function installWasmBlake3(): Promise<string> {
  const variant = simdSupported() ? 'simd' : 'scalar';
  const kernel = await instantiatePowKernel(readWasmKernel(variant));
  useBlake3Implementation((data) => kernel.hash(data));
  return `wasm-${variant}`;
}
