// The AssemblyScript BLAKE3 kernel (both builds) against the official BLAKE3 vectors and the reference PoW in
// src/consensus/pow.ts, and the worker-thread pool against a single kernel.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { blake3 } from '@noble/hashes/blake3.js';
import { hashMeetsTarget, powHash } from '../../../../src/consensus/pow.ts';
import type { PowJob } from '../../../../src/mining/job.ts';
import {
  instantiatePowKernel,
  simdSupported,
  wasmKernelBatchNonces,
  WasmKernelError,
  type PowKernel,
} from '../../../../src/mining/wasm-kernel.ts';
import { readWasmKernel, wasmKernelPath } from '../../../../server/mining/wasm-files.ts';
import { createWasmPowPool, type WasmPowPool } from '../../../../server/mining/wasm-pool.ts';
import { bytesToBigIntBE, toHex } from '../../../../src/util/bytes.ts';
import { readVectorJson, repoRoot } from '../../../vectors.ts';

const u64Max = (1n << 64n) - 1n;
const targetMax = (1n << 256n) - 1n;
const variants = ['simd', 'scalar'] as const;
const kernels: Record<(typeof variants)[number], PowKernel> = {} as never;

beforeAll(async () => {
  // `npm test` builds first; a lone `npx vitest run` on a fresh checkout builds here.
  if (!variants.every((v) => existsSync(wasmKernelPath(v)))) {
    execFileSync(process.execPath, ['assembly/build.mjs'], { cwd: repoRoot, stdio: 'ignore' });
  }
  for (const v of variants) kernels[v] = await instantiatePowKernel(readWasmKernel(v));
});

/** Deterministic bytes (xorshift32) so that planted-target cases are the same on every run. */
function pseudoRandomBytes(seed: number, length: number): Uint8Array {
  let x = seed >>> 0 || 1;
  return Uint8Array.from({ length }, () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x & 0xff;
  });
}

const hashValue = (prePow: Uint8Array, nonce: bigint): bigint => bytesToBigIntBE(powHash(prePow, nonce));

/** The reference answer: the first nonce of the range whose hash is ≤ target. */
function referenceSearch(job: PowJob): { nonce: bigint | null; hashes: number } {
  for (let i = 0; i < job.nonceCount; i++) {
    const nonce = (job.nonceStart + BigInt(i)) & u64Max;
    if (hashMeetsTarget(powHash(job.prePowHash, nonce), job.target)) return { nonce, hashes: i + 1 };
  }
  return { nonce: null, hashes: job.nonceCount };
}

describe('simdSupported', () => {
  it('is true on Node 20 (V8 has shipped Wasm SIMD since 9.1), and each build says which it is', () => {
    expect(simdSupported()).toBe(true);
    expect(kernels.simd.simd).toBe(true);
    expect(kernels.scalar.simd).toBe(false);
  });
});

interface Blake3Vectors {
  cases: { input_len: number; hash: string }[];
}

describe.each(variants)('Wasm %s kernel: hash', (variant) => {
  const vectors = readVectorJson<Blake3Vectors>('blake3', 'test_vectors.json');

  it('matches every official BLAKE3 vector (first 32 bytes of the hash mode output)', () => {
    expect(vectors.cases.length).toBeGreaterThan(30);
    for (const c of vectors.cases) {
      const data = Uint8Array.from({ length: c.input_len }, (_, i) => i % 251);
      expect(toHex(kernels[variant].hash(data)), `input_len ${c.input_len}`).toBe(c.hash.slice(0, 64));
    }
  });

  it('matches noble on inputs longer than one host window (several hashUpdate calls) and on views', () => {
    const data = pseudoRandomBytes(7, 3 * 65536 + 1000);
    expect(toHex(kernels[variant].hash(data))).toBe(toHex(blake3(data)));
    const view = data.subarray(13, 13 + 5000);
    expect(toHex(kernels[variant].hash(view))).toBe(toHex(blake3(view)));
  });

  it('matches noble on random inputs of random lengths', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4200 }), (data) => {
        expect(toHex(kernels[variant].hash(data))).toBe(toHex(blake3(data)));
      }),
      { numRuns: 150 },
    );
  });
});

describe.each(variants)('Wasm %s kernel: proof of work', (variant) => {
  it('gives the reference digest through the midstate path for thousands of random (prePow, nonce)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.bigInt({ min: 0n, max: u64Max }), (pre, n) => {
        expect(toHex(kernels[variant].powHash(pre, n))).toBe(toHex(powHash(pre, n)));
      }),
      { numRuns: 2000 },
    );
  });

  it('returns nonceStart after one hash when the target is 2^256-1', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.bigInt({ min: 0n, max: u64Max }), (pre, n) => {
        const job = { prePowHash: pre, target: targetMax, nonceStart: n, nonceCount: 10 };
        expect(kernels[variant].search(job)).toEqual({ nonce: n, hashes: 1 });
      }),
      { numRuns: 200 },
    );
  });

  it('finds a planted winner in every lane position, ≤ on all 256 bits (target = that hash, and one less)', () => {
    for (let seed = 1; seed <= 24; seed++) {
      const prePow = pseudoRandomBytes(seed, 32);
      const nonceStart = bytesToBigIntBE(pseudoRandomBytes(seed + 1000, 8));
      const nonceCount = 37 + seed; // not a multiple of 4: the SIMD tail is covered
      const planted = (nonceStart + BigInt(seed + 7)) & u64Max;
      for (const target of [hashValue(prePow, planted), hashValue(prePow, planted) - 1n]) {
        const job = { prePowHash: prePow, target, nonceStart, nonceCount };
        expect(kernels[variant].search(job), `seed ${seed}`).toEqual(referenceSearch(job));
      }
    }
  });

  it('finds the same winners as the reference across a range with several (counting hits one search at a time)', () => {
    const prePow = pseudoRandomBytes(99, 32);
    const target = 1n << 244n; // about one nonce in 4096
    const end = 20_000n;
    const found: bigint[] = [];
    for (let start = 0n; start < end; ) {
      const job = { prePowHash: prePow, target, nonceStart: start, nonceCount: Number(end - start) };
      const r = kernels[variant].search(job);
      if (r.nonce === null) break;
      found.push(r.nonce);
      start = r.nonce + 1n;
    }
    const expected: bigint[] = [];
    for (let n = 0n; n < end; n++) if (hashValue(prePow, n) <= target) expected.push(n);
    expect(expected.length).toBeGreaterThan(1);
    expect(found).toEqual(expected);
  });

  it('carries into the high word across 2^32 and wraps at 2^64', () => {
    const prePow = pseudoRandomBytes(5, 32);
    for (const nonceStart of [(7n << 32n) | 0xfffffffdn, 0xfffffffen, u64Max - 2n]) {
      for (let k = 0; k < 8; k++) {
        const planted = (nonceStart + BigInt(k)) & u64Max;
        const job = { prePowHash: prePow, target: hashValue(prePow, planted), nonceStart, nonceCount: 9 };
        expect(kernels[variant].search(job)).toEqual(referenceSearch(job));
      }
    }
  });

  it('reports no winner and the whole range when the target is 0', () => {
    const job = { prePowHash: pseudoRandomBytes(3, 32), target: 0n, nonceStart: 5n, nonceCount: 1001 };
    expect(kernels[variant].search(job)).toEqual({ nonce: null, hashes: 1001 });
    expect(kernels[variant].search({ ...job, nonceCount: 0 })).toEqual({ nonce: null, hashes: 0 });
  });

  it('refuses malformed jobs with a coded error', () => {
    const good = { prePowHash: new Uint8Array(32), target: 1n, nonceStart: 0n, nonceCount: 1 };
    const bad: PowJob[] = [
      { ...good, prePowHash: new Uint8Array(31) },
      { ...good, target: -1n },
      { ...good, target: 1n << 256n },
      { ...good, nonceStart: 1n << 64n },
      { ...good, nonceCount: -1 },
      { ...good, nonceCount: 1.5 },
    ];
    for (const job of bad) expect(() => kernels[variant].search(job)).toThrow(WasmKernelError);
  });
});

describe('Wasm kernels across batches', () => {
  it('find a winner several host batches into a job, SIMD and scalar agreeing on it and on the count', () => {
    const prePow = pseudoRandomBytes(11, 32);
    const target = targetMax / 150_000n;
    const job = { prePowHash: prePow, target, nonceStart: 0xfff0_0000n, nonceCount: 1 << 20 };
    const simd = kernels.simd.search(job);
    expect(simd.nonce).not.toBeNull();
    expect(simd.hashes).toBeGreaterThan(wasmKernelBatchNonces);
    expect(kernels.scalar.search(job)).toEqual(simd);
    expect(hashMeetsTarget(powHash(prePow, simd.nonce!), target)).toBe(true);
    expect(simd.nonce).toBe(job.nonceStart + BigInt(simd.hashes - 1));
  });
});

describe('readWasmKernel', () => {
  it('tells to run npm run build when the file is missing', () => {
    expect(() => readWasmKernel('simd', tmpdir())).toThrow(/npm run build/);
  });
});

describe('Wasm worker pool', () => {
  let pool: WasmPowPool;
  beforeAll(async () => {
    pool = await createWasmPowPool({ threads: 2 });
  });
  afterAll(async () => {
    await pool.close();
  });

  it('is the SIMD CPU backend', () => {
    expect(pool.name).toBe('wasm-simd');
    expect(pool.gpu).toBe(false);
    expect(pool.threads).toBe(2);
  });

  it('finds the same first winner as one thread, whichever thread owns its batch', async () => {
    // About one winner per 100k nonces over 16 batches: winners land in even and odd batches, and often in both
    // threads' batches of one round, where the pool must still answer the lower one.
    const winnerBatchParities = new Set<number>();
    for (let seed = 1; seed <= 6; seed++) {
      const job = {
        prePowHash: pseudoRandomBytes(seed * 31, 32),
        target: targetMax / 100_000n,
        nonceStart: BigInt(seed) << 31n,
        nonceCount: 16 * wasmKernelBatchNonces,
      };
      const single = kernels.simd.search(job);
      const before = pool.hashesDone();
      const result = await pool.search(job);
      expect(result.nonce, `seed ${seed}`).toBe(single.nonce);
      winnerBatchParities.add(Math.floor((single.hashes - 1) / wasmKernelBatchNonces) % 2);
      expect(result.hashes).toBeGreaterThanOrEqual(single.hashes);
      expect(pool.hashesDone() - before).toBe(result.hashes);
    }
    expect([...winnerBatchParities].sort()).toEqual([0, 1]);
  });

  it('answers no winner after hashing the whole range, and runs concurrent searches in turn', async () => {
    const job = { prePowHash: pseudoRandomBytes(8, 32), target: 0n, nonceStart: 0n, nonceCount: 300_000 };
    const easy = { ...job, target: targetMax, nonceStart: 77n };
    const [none, first] = await Promise.all([pool.search(job), pool.search(easy)]);
    expect(none).toEqual({ nonce: null, hashes: 300_000 });
    expect(first.nonce).toBe(77n);
  });

  it('rejects a malformed job without touching the workers', async () => {
    const job = { prePowHash: new Uint8Array(8), target: 1n, nonceStart: 0n, nonceCount: 1 };
    await expect(pool.search(job)).rejects.toThrow(WasmKernelError);
  });

  it('runs the scalar build when asked, and refuses searches after close()', async () => {
    const scalar = await createWasmPowPool({ threads: 1, variant: 'scalar' });
    expect(scalar.name).toBe('wasm-scalar');
    const job = { prePowHash: pseudoRandomBytes(4, 32), target: targetMax / 1000n, nonceStart: 0n, nonceCount: 50_000 };
    expect((await scalar.search(job)).nonce).toBe(kernels.scalar.search(job).nonce);
    await scalar.close();
    await expect(scalar.search(job)).rejects.toThrow(/after close/);
  });

  it('refuses a thread count out of range', async () => {
    await expect(createWasmPowPool({ threads: 0 })).rejects.toThrow(/threads/);
  });
});
