/**
 * The WebGPU PoW backend (docs/design.md "Mining"): runs the WGSL BLAKE3 search kernel (shaders/blake3-pow.wgsl, driven by
 * src/mining/webgpu-kernel.ts) on a GPUDevice that the platform hands in — a browser's `navigator.gpu` device or
 * Node's `webgpu` package (server/mining/webgpu-node.ts). Isomorphic: no WebGPU globals, the shader source is a
 * string parameter.
 *
 * Here: the per-job midstate (round 1's G0..G6), job validation, the first-winner bookkeeping across batches, and
 * batch sizing from the measured dispatch time so that each dispatch stays well under ~100 ms (a browser tab stays
 * responsive and a new job is picked up quickly). docs/webgpu.md.
 */
import type { PowBackend, PowJob, PowResult } from './job.ts';
import { createPowKernel, digestBytes, rawItemWords, WebGpuPowError, type SearchJobWords } from './webgpu-kernel.ts';

const prePowBytes = 32;
const blockBytesMax = 64;
const u64Max = (1n << 64n) - 1n;
const targetMax = (1n << 256n) - 1n;

/** Batch sizing: aim each dispatch at this wall time, well under the ~100 ms budget. */
const webGpuDispatchMsTarget = 50;
/** First batch of a backend, before any dispatch was timed. */
const webGpuBatchNoncesInitial = 1 << 16;
export const webGpuBatchNoncesMin = 1 << 12;
/** Offsets are u32 in the kernel; 2^30 nonces is ~0.1 s even at 10 GH/s. */
const webGpuBatchNoncesMax = 1 << 30;
/** A batch grows at most this factor per dispatch, so one fast outlier cannot overshoot the time budget. */
const batchGrowthMax = 4;
/** hash_one / hash_raw items per dispatch. */
const debugItemsPerDispatchMax = 1 << 16;

export interface WebGpuPowBackendOptions {
  readonly device: GPUDevice;
  /** The text of shaders/blake3-pow.wgsl (server/mining/shader-source.ts in Node, a `?raw` import in web/). */
  readonly shaderSource: string;
  readonly adapterInfo?: GPUAdapterInfo;
  /**
   * Monotonic milliseconds, used only to size batches (never affects which nonce wins or the hash count).
   * Defaults to `performance.now()`.
   */
  readonly nowMs?: () => number;
  /** Cap on nonces per dispatch (default webGpuBatchNoncesMax); tests lower it to force multi-batch jobs. */
  readonly batchNoncesMax?: number;
}

export interface WebGpuPowBackend extends PowBackend {
  /** Full PoW digests BLAKE3(prePow || 0^24 || nonce LE) through the kernel's midstate path (hash_one). */
  hashDigests(prePow: Uint8Array, nonces: readonly bigint[]): Promise<Uint8Array[]>;
  /** BLAKE3 of raw messages of at most 64 bytes (one block, from the IV) through the kernel's compression (hash_raw). */
  hashSingleBlocks(messages: readonly Uint8Array[]): Promise<Uint8Array[]>;
  readonly adapterDescription: string;
  /** Nonces per dispatch the batch sizer settled on so far. */
  readonly batchNonces: number;
}

const iv = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19] as const;
const flagsRootChunk = 11; // CHUNK_START | CHUNK_END | ROOT

function gStep(v: Uint32Array, a: number, b: number, c: number, d: number, x: number, y: number): void {
  const rotr = (w: number, n: number): number => (w >>> n) | (w << (32 - n));
  v[a] = v[a]! + v[b]! + x;
  v[d] = rotr(v[d]! ^ v[a]!, 16);
  v[c] = v[c]! + v[d]!;
  v[b] = rotr(v[b]! ^ v[c]!, 12);
  v[a] = v[a]! + v[b]! + y;
  v[d] = rotr(v[d]! ^ v[a]!, 8);
  v[c] = v[c]! + v[d]!;
  v[b] = rotr(v[b]! ^ v[c]!, 7);
}

/**
 * The PoW midstate of a pre-PoW hash: the 16 state words after round 1's G0..G6 of the single-block compression
 * (docs/design.md "Consensus"). G0..G3 read m0..m7 (the pre-PoW hash); G4..G6 read m8..m13, which are zero.
 */
export function powMidstate(prePow: Uint8Array): Uint32Array {
  const m = prePowWords(prePow);
  const v = new Uint32Array([...iv, iv[0], iv[1], iv[2], iv[3], 0, 0, blockBytesMax, flagsRootChunk]);
  gStep(v, 0, 4, 8, 12, m[0]!, m[1]!);
  gStep(v, 1, 5, 9, 13, m[2]!, m[3]!);
  gStep(v, 2, 6, 10, 14, m[4]!, m[5]!);
  gStep(v, 3, 7, 11, 15, m[6]!, m[7]!);
  gStep(v, 0, 5, 10, 15, 0, 0);
  gStep(v, 1, 6, 11, 12, 0, 0);
  gStep(v, 2, 7, 8, 13, 0, 0);
  return v;
}

function prePowWords(prePow: Uint8Array): Uint32Array {
  if (!(prePow instanceof Uint8Array) || prePow.length !== prePowBytes) {
    throw new WebGpuPowError(`prePowHash: expected ${prePowBytes} bytes, got ${describeBytes(prePow)}`);
  }
  const view = new DataView(prePow.buffer, prePow.byteOffset, prePowBytes);
  return Uint32Array.from({ length: 8 }, (_, i) => view.getUint32(4 * i, true));
}

function describeBytes(x: unknown): string {
  return x instanceof Uint8Array ? `${x.length} bytes` : typeof x;
}

function checkNonce(nonce: bigint, what: string): void {
  if (typeof nonce !== 'bigint' || nonce < 0n || nonce > u64Max) {
    throw new WebGpuPowError(`${what}: expected a u64 bigint, got ${String(nonce)}`);
  }
}

function checkJob(job: PowJob): void {
  prePowWords(job.prePowHash);
  if (typeof job.target !== 'bigint' || job.target < 0n || job.target > targetMax) {
    throw new WebGpuPowError(`target: expected a bigint in 0..2^256-1, got ${String(job.target)}`);
  }
  checkNonce(job.nonceStart, 'nonceStart');
  if (!Number.isSafeInteger(job.nonceCount) || job.nonceCount < 0) {
    throw new WebGpuPowError(`nonceCount: expected a safe integer ≥ 0, got ${job.nonceCount}`);
  }
}

/** Digest words are little-endian u32 (BLAKE3's output byte order); DataView keeps that true on any host. */
function digestsFrom(words: Uint32Array, count: number): Uint8Array[] {
  return Array.from({ length: count }, (_, i) => {
    const digest = new Uint8Array(digestBytes);
    const view = new DataView(digest.buffer);
    for (let j = 0; j < 8; j++) view.setUint32(4 * j, words[8 * i + j]!, true);
    return digest;
  });
}

export function describeAdapter(info: GPUAdapterInfo | undefined): string {
  if (info === undefined) return 'unknown WebGPU adapter';
  const name = info.description || info.device || 'unnamed adapter';
  const parts = [info.vendor, info.architecture].filter((s) => s !== '');
  return parts.length === 0 ? name : `${name} (${parts.join(', ')})`;
}


function encodeNonces(nonces: readonly bigint[], first: number): Uint32Array<ArrayBuffer> {
  const items = new Uint32Array(2 * nonces.length);
  nonces.forEach((nonce, i) => {
    checkNonce(nonce, `nonces[${first + i}]`);
    items[2 * i] = Number(nonce & 0xffffffffn);
    items[2 * i + 1] = Number(nonce >> 32n);
  });
  return items;
}

function encodeBlocks(messages: readonly Uint8Array[], first: number): Uint32Array<ArrayBuffer> {
  const items = new Uint32Array(rawItemWords * messages.length);
  messages.forEach((msg, i) => {
    if (!(msg instanceof Uint8Array) || msg.length > blockBytesMax) {
      throw new WebGpuPowError(`messages[${first + i}]: expected at most ${blockBytesMax} bytes, got ${describeBytes(msg)}`);
    }
    const block = new Uint8Array(blockBytesMax); // zero-padded, as BLAKE3 pads a short last block
    block.set(msg);
    const view = new DataView(block.buffer);
    for (let j = 0; j < 16; j++) items[rawItemWords * i + j] = view.getUint32(4 * j, true);
    items[rawItemWords * i + 16] = msg.length;
  });
  return items;
}

/** Runs `run` over `list` in chunks of debugItemsPerDispatchMax and concatenates the digests. */
async function inChunks<T>(list: readonly T[], run: (chunk: readonly T[], first: number) => Promise<Uint32Array>): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for (let first = 0; first < list.length; first += debugItemsPerDispatchMax) {
    const chunk = list.slice(first, first + debugItemsPerDispatchMax);
    out.push(...digestsFrom(await run(chunk, first), chunk.length));
  }
  return out;
}

/**
 * Next batch size from the last one's wall time: scaled to webGpuDispatchMsTarget, grown at most batchGrowthMax×,
 * within webGpuBatchNoncesMin..max. Only a full batch says how long a batch takes, so a short tail changes nothing.
 */
export function nextBatchNonces(batch: number, count: number, elapsedMs: number, max: number): number {
  if (count < batch || !(elapsedMs > 0)) return batch;
  const scaled = Math.floor((batch * webGpuDispatchMsTarget) / elapsedMs);
  return Math.max(webGpuBatchNoncesMin, Math.min(max, scaled, batch * batchGrowthMax));
}

/**
 * Compiles the kernel on `device` and returns a PowBackend over it (name 'webgpu', gpu = true). Searches run one
 * at a time (they share buffers); `close()` frees the buffers but leaves the device to its owner.
 */
export async function createWebGpuPowBackend(options: WebGpuPowBackendOptions): Promise<WebGpuPowBackend> {
  const { device } = options;
  const nowMs = options.nowMs ?? ((): number => performance.now());
  const kernel = await createPowKernel(device, options.shaderSource);
  const batchMax = Math.max(webGpuBatchNoncesMin, Math.min(webGpuBatchNoncesMax, options.batchNoncesMax ?? webGpuBatchNoncesMax));
  let batchNonces = Math.min(webGpuBatchNoncesInitial, batchMax);
  let lostReason: string | null = null;
  let closed = false;
  let queue: Promise<unknown> = Promise.resolve();
  void device.lost.then((info) => { lostReason = `${info.reason}: ${info.message}`; });

  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(() => {
      if (closed) throw new WebGpuPowError('webgpu backend: used after close()');
      if (lostReason !== null) throw new WebGpuPowError(`webgpu backend: device lost (${lostReason})`);
      return work().catch((cause: unknown) => {
        if (cause instanceof WebGpuPowError) throw cause;
        // e.g. mapAsync aborted because the device went away during the dispatch
        const what = lostReason !== null ? `device lost (${lostReason})` : String(cause);
        throw new WebGpuPowError(`webgpu backend: ${what}`, { cause });
      });
    });
    queue = run.catch(() => undefined);
    return run;
  };
  const jobWords = (prePow: Uint8Array, target: bigint): SearchJobWords =>
    ({ mid: powMidstate(prePow), hdr: prePowWords(prePow), target });

  const search = (job: PowJob): Promise<PowResult> => serial(async () => {
    checkJob(job);
    const words = jobWords(job.prePowHash, job.target);
    for (let done = 0; done < job.nonceCount;) {
      const count = Math.min(batchNonces, job.nonceCount - done);
      const base = (job.nonceStart + BigInt(done)) & u64Max;
      const started = nowMs();
      const offset = await kernel.search(words, base, count);
      batchNonces = nextBatchNonces(batchNonces, count, nowMs() - started, batchMax);
      if (offset !== null) return { nonce: (base + BigInt(offset)) & u64Max, hashes: done + offset + 1 };
      done += count;
    }
    return { nonce: null, hashes: job.nonceCount };
  });

  return {
    name: 'webgpu',
    gpu: true,
    adapterDescription: describeAdapter(options.adapterInfo),
    get batchNonces() { return batchNonces; },
    search,
    hashDigests: (prePow, nonces) => serial(() => {
      const words = jobWords(prePow, 0n);
      return inChunks(nonces, (chunk, first) => kernel.hashOne(words, encodeNonces(chunk, first), chunk.length));
    }),
    hashSingleBlocks: (messages) => serial(() =>
      inChunks(messages, (chunk, first) => kernel.hashRaw(encodeBlocks(chunk, first), chunk.length))),
    close: async () => {
      await queue;
      if (closed) return;
      closed = true;
      kernel.destroy();
    },
  };
}
