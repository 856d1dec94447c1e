/**
 * Host side of the AssemblyScript BLAKE3 kernel (assembly/blake3-pow.ts, built by assembly/build.mjs into
 * build/wasm/blake3-pow-{simd,scalar}.wasm). Isomorphic: it takes the module's bytes, so Node reads them from disk
 * (server/mining/wasm-files.ts) and a browser fetches them; it reads no globals besides `WebAssembly`.
 *
 * A `PowKernel` runs on the calling thread and is synchronous; server/mining/wasm-pool.ts spreads jobs over worker
 * threads, and web/ over Web Workers. Design and measured rates: docs/mining-kernels.md.
 */
import { WeftError } from '../errors.ts';
import type { PowJob, PowResult } from './job.ts';

/**
 * Nonces per call into Wasm. V8 has no on-stack replacement for Wasm: a call that starts in the baseline tier
 * (Liftoff) stays there, so work is cut into calls short enough that the optimised code takes over early
 * (~64k nonces ≈ 3.5 ms at 18 M/s) and long enough that the JS↔Wasm crossing costs nothing.
 */
export const wasmKernelBatchNonces = 1 << 16;
const powPrePowBytes = 32;
const blake3DigestBytes = 32;
const u64Max = (1n << 64n) - 1n;
const targetMax = (1n << 256n) - 1n;

/** The kernel module is missing an export, or a job / input is out of range. */
export class WasmKernelError extends WeftError {
  constructor(message: string, options: { details?: unknown; cause?: unknown } = {}) {
    super('mining_error', message, options);
  }
}

export interface PowKernel {
  /** True when the module uses Wasm SIMD (four nonces per step). */
  readonly simd: boolean;
  /** The first winning nonce of the job's range (in range order) and the nonces hashed to find it. */
  search(job: PowJob): PowResult;
  /** BLAKE3 (hash mode, 32-byte output) of any input. */
  hash(data: Uint8Array): Uint8Array;
  /** The PoW hash BLAKE3(prePow ‖ 0^24 ‖ nonce LE) through the kernel's midstate path, for checks and tests. */
  powHash(prePow: Uint8Array, nonce: bigint): Uint8Array;
}

/** The exports of blake3-pow.wasm (both variants export the same names). */
interface KernelExports {
  readonly memory: WebAssembly.Memory;
  headerPtr(): number;
  targetPtr(): number;
  digestPtr(): number;
  inputPtr(): number;
  inputBytesMax(): number;
  /** 4 in the SIMD build (nonces per step), 1 in the scalar build. */
  lanes(): number;
  prepareJob(): void;
  powDigest(lo: number, hi: number): void;
  search(startLo: number, startHi: number, count: number): number;
  hashInit(): void;
  hashUpdate(len: number): void;
  hashFinal(): void;
}

const exportNames = [
  'headerPtr', 'targetPtr', 'digestPtr', 'inputPtr', 'inputBytesMax', 'lanes', 'prepareJob', 'powDigest', 'search',
  'hashInit', 'hashUpdate', 'hashFinal',
] as const;

/**
 * A 25-byte module with one function `() -> v128` whose body is `i32.const 0; i32x4.splat`: it validates exactly
 * where the engine implements 128-bit Wasm SIMD.
 */
const simdProbe = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version 1
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, // type section: [] -> [v128]
  0x03, 0x02, 0x01, 0x00, // function section: one function of type 0
  0x0a, 0x08, 0x01, 0x06, 0x00, 0x41, 0x00, 0xfd, 0x11, 0x0b, // code: i32.const 0, i32x4.splat, end
]);

/** Whether this engine runs 128-bit Wasm SIMD: pick blake3-pow-simd.wasm if so, else blake3-pow-scalar.wasm. */
export function simdSupported(): boolean {
  return WebAssembly.validate(simdProbe);
}

/** Instantiates either kernel variant from its bytes. The module imports nothing. */
export async function instantiatePowKernel(wasmBytes: Uint8Array | ArrayBuffer): Promise<PowKernel> {
  const bytes = wasmBytes instanceof Uint8Array ? wasmBytes : new Uint8Array(wasmBytes);
  let module: WebAssembly.Module;
  try {
    module = await WebAssembly.compile(bytes as Uint8Array<ArrayBuffer>);
  } catch (cause) {
    throw new WasmKernelError(`kernel: the ${bytes.length} bytes given are not a valid Wasm module`, { cause });
  }
  const instance = await WebAssembly.instantiate(module, {});
  const exports = instance.exports as Record<string, unknown>;
  for (const name of exportNames) {
    if (typeof exports[name] !== 'function') {
      throw new WasmKernelError(`kernel: expected the blake3-pow module, but it has no export "${name}"`);
    }
  }
  const k = instance.exports as unknown as KernelExports;
  return createPowKernel(k, k.lanes() === 4);
}

function createPowKernel(k: KernelExports, simd: boolean): PowKernel {
  const headerPtr = k.headerPtr();
  const targetPtr = k.targetPtr();
  const digestPtr = k.digestPtr();
  const inputPtr = k.inputPtr();
  const inputBytesMax = k.inputBytesMax();
  // The kernel never grows its memory, but a view over a detached buffer would read zeros, so re-check each use.
  let memory = new Uint8Array(k.memory.buffer);
  const view = (): Uint8Array => {
    if (memory.byteLength === 0) memory = new Uint8Array(k.memory.buffer);
    return memory;
  };

  function loadJob(prePow: Uint8Array, target: bigint): void {
    checkPrePow(prePow);
    const mem = view();
    mem.set(prePow, headerPtr);
    const words = new DataView(mem.buffer, targetPtr, 32);
    for (let i = 0; i < 8; i++) words.setUint32(4 * i, Number((target >> BigInt(224 - 32 * i)) & 0xffffffffn), true);
    k.prepareJob();
  }

  return {
    simd,
    search(job) {
      checkJob(job);
      loadJob(job.prePowHash, job.target);
      for (let offset = 0; offset < job.nonceCount; offset += wasmKernelBatchNonces) {
        const count = Math.min(wasmKernelBatchNonces, job.nonceCount - offset);
        const start = (job.nonceStart + BigInt(offset)) & u64Max;
        const found = k.search(Number(start & 0xffffffffn), Number(start >> 32n), count);
        if (found >= 0) {
          return { nonce: (start + BigInt(found)) & u64Max, hashes: offset + found + 1 };
        }
      }
      return { nonce: null, hashes: job.nonceCount };
    },
    hash(data) {
      if (!(data instanceof Uint8Array)) throw new WasmKernelError(`hash: expected a Uint8Array, got ${typeof data}`);
      k.hashInit();
      for (let offset = 0; offset < data.length; offset += inputBytesMax) {
        const part = data.subarray(offset, offset + inputBytesMax);
        view().set(part, inputPtr);
        k.hashUpdate(part.length);
      }
      k.hashFinal();
      return view().slice(digestPtr, digestPtr + blake3DigestBytes);
    },
    powHash(prePow, nonce) {
      checkNonce(nonce, 'nonce');
      loadJob(prePow, targetMax);
      k.powDigest(Number(nonce & 0xffffffffn), Number(nonce >> 32n));
      return view().slice(digestPtr, digestPtr + blake3DigestBytes);
    },
  };
}

function checkPrePow(prePow: Uint8Array): void {
  if (!(prePow instanceof Uint8Array) || prePow.length !== powPrePowBytes) {
    const got = prePow instanceof Uint8Array ? `${prePow.length} bytes` : typeof prePow;
    throw new WasmKernelError(`prePowHash: expected ${powPrePowBytes} bytes, got ${got}`);
  }
}

function checkNonce(nonce: bigint, what: string): void {
  if (typeof nonce !== 'bigint' || nonce < 0n || nonce > u64Max) {
    throw new WasmKernelError(`${what}: expected a u64 bigint, got ${String(nonce)}`);
  }
}

/** Rejects a malformed job up front; exported for the worker pool, which splits jobs before any kernel sees them. */
export function checkJob(job: PowJob): void {
  checkPrePow(job.prePowHash);
  if (typeof job.target !== 'bigint' || job.target < 0n || job.target > targetMax) {
    throw new WasmKernelError(`target: expected a bigint in 0..2^256-1, got ${String(job.target)}`);
  }
  checkNonce(job.nonceStart, 'nonceStart');
  if (!Number.isSafeInteger(job.nonceCount) || job.nonceCount < 0) {
    throw new WasmKernelError(`nonceCount: expected a safe non-negative integer, got ${String(job.nonceCount)}`);
  }
}
