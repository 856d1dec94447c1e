/**
 * The one job interface every PoW backend implements (docs/design.md "Mining"): the JS reference, the AssemblyScript Wasm
 * kernel in worker threads / Web Workers, and the WGSL compute kernel over WebGPU. A job names a pre-PoW hash, a
 * target and a nonce range; the answer is the first winning nonce in range order (or none) and the hashes done.
 */
export interface PowJob {
  /** BLAKE3 of the header bytes without the nonce (32 bytes). */
  readonly prePowHash: Uint8Array;
  /** Valid iff BLAKE3(pow_input) read as a 256-bit big-endian integer is ≤ target. */
  readonly target: bigint;
  /** First nonce to try (u64). The range wraps at 2^64. */
  readonly nonceStart: bigint;
  /** How many consecutive nonces to try. */
  readonly nonceCount: number;
}

export interface PowResult {
  /** The lowest-offset winning nonce in the range, or null when none wins. */
  readonly nonce: bigint | null;
  /** Nonces hashed: up to and including the winner, or the whole range. */
  readonly hashes: number;
}

export interface PowBackend {
  /** e.g. 'js', 'wasm-simd', 'wasm-scalar', 'webgpu'. */
  readonly name: string;
  /** True for GPU backends: blocks they find carry gpu_mining = true. */
  readonly gpu: boolean;
  search(job: PowJob): Promise<PowResult>;
  close(): Promise<void>;
}
