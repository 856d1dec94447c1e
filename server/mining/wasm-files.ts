/**
 * Where Node finds the built BLAKE3 Wasm kernels: build/wasm/ (git-ignored), written by `npm run build`
 * (assembly/build.mjs). Browsers fetch the same files; src/mining/wasm-kernel.ts takes the bytes either way.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WasmKernelError } from '../../src/mining/wasm-kernel.ts';

export type WasmKernelVariant = 'simd' | 'scalar';

const defaultWasmDir = fileURLToPath(new URL('../../build/wasm/', import.meta.url));

export function wasmKernelPath(variant: WasmKernelVariant, wasmDir: string = defaultWasmDir): string {
  return join(wasmDir, `blake3-pow-${variant}.wasm`);
}

/** The bytes of one kernel variant; a missing file gets an error that says how to build it. */
export function readWasmKernel(variant: WasmKernelVariant, wasmDir: string = defaultWasmDir): Uint8Array {
  const path = wasmKernelPath(variant, wasmDir);
  try {
    return readFileSync(path);
  } catch (cause) {
    const missing = (cause as NodeJS.ErrnoException).code === 'ENOENT';
    throw new WasmKernelError(
      missing
        ? `Wasm kernel not found at ${path}: run \`npm run build\` to compile assembly/ into build/wasm/`
        : `Wasm kernel at ${path} could not be read`,
      { cause, details: { path } },
    );
  }
}
