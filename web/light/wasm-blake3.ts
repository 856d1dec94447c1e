/**
 * Puts the Wasm kernel's BLAKE3 behind `blake3()` in the tab — the same kernel the node installs
 * (server/crypto/wasm-blake3.ts), so the tab verifies headers with the same code as Node (header ids, PoW).
 * useBlake3Implementation checks it against @noble/hashes before using it; noble stays if Wasm fails.
 */
import simdUrl from '../../build/wasm/blake3-pow-simd.wasm?url';
import scalarUrl from '../../build/wasm/blake3-pow-scalar.wasm?url';
import { useBlake3Implementation } from '../../src/crypto/blake3.ts';
import { instantiatePowKernel, simdSupported } from '../../src/mining/wasm-kernel.ts';

let installed: Promise<string> | undefined;

export function installWasmBlake3(): Promise<string> {
  installed ??= (async () => {
    try {
      const simd = simdSupported();
      const response = await fetch(simd ? simdUrl : scalarUrl);
      const kernel = await instantiatePowKernel(await response.arrayBuffer());
      useBlake3Implementation((data) => kernel.hash(data));
      return simd ? 'wasm-simd' : 'wasm-scalar';
    } catch {
      return 'noble';
    }
  })();
  return installed;
}
