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
  /**
   * Present on backends whose threads hash on their own (the Wasm worker pool): the miner pushes the latest
   * template and hears of winners, so a busy calling thread never leaves the hashing threads idle.
   */
  readonly continuous?: ContinuousPow;
  close(): Promise<void>;
}

/** A job with no end: threads hash from `nonceStart` (each its own part of the u64 range) until replaced. */
interface ContinuousPowJob {
  readonly prePowHash: Uint8Array;
  readonly target: bigint;
  readonly nonceStart: bigint;
}

export interface PowFound {
  /** The id setJob returned for the job the winner belongs to. */
  readonly jobId: number;
  readonly nonce: bigint;
}

export interface ContinuousPow {
  /** Replaces whatever the threads hash on (they switch within one kernel call, ~4 ms); returns the job's id. */
  setJob(job: ContinuousPowJob): number;
  /** The threads stop hashing until the next setJob. */
  pause(): void;
  /** Winners, as the threads find them; a thread stops hashing a job at its first winner (the next job follows it). */
  onFound(listener: (found: PowFound) => void): () => void;
  /** Nonces hashed by all threads since the backend opened. */
  hashesDone(): number;
}
