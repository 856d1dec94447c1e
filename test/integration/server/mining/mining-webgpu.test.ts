// The WGSL PoW kernel (shaders/blake3-pow.wgsl) through src/mining/webgpu-backend.ts, in Node via the `webgpu`
// package on whatever adapter server/mining/webgpu-node.ts opens — in CI a CPU Vulkan driver (lavapipe) that
// .ci/install-vulkan.sh installs. Oracle: src/consensus/pow.ts (noble BLAKE3). No adapter is a failure, not a skip.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { hashMeetsTarget, powHash, searchNonce } from '../../../../src/consensus/pow.ts';
import { createWebGpuPowBackend, nextBatchNonces, powMidstate, webGpuBatchNoncesMin, type WebGpuPowBackend } from '../../../../src/mining/webgpu-backend.ts';
import { WebGpuPowError } from '../../../../src/mining/webgpu-kernel.ts';
import { openNodeWebGpu, type NodeWebGpu } from '../../../../server/mining/webgpu-node.ts';
import { readPowShaderSource } from '../../../../server/mining/shader-source.ts';
import { bytesToBigIntBE, toHex } from '../../../../src/util/bytes.ts';
import { readVectorJson } from '../../../vectors.ts';

const u64Max = (1n << 64n) - 1n;
const smallBatch = webGpuBatchNoncesMin; // forces a job across several dispatches

let gpu: NodeWebGpu;
let backend: WebGpuPowBackend;
let smallBatches: WebGpuPowBackend;

beforeAll(async () => {
  let reason = '';
  const opened = await openNodeWebGpu({ onUnavailable: (r) => { reason = r; } });
  if (opened === null) {
    throw new Error(`no WebGPU adapter in Node: ${reason}. Run .ci/install-vulkan.sh as root (CI does) and retry.`);
  }
  gpu = opened;
  const shaderSource = readPowShaderSource();
  backend = await createWebGpuPowBackend({ device: gpu.device, shaderSource, adapterInfo: gpu.adapterInfo });
  smallBatches = await createWebGpuPowBackend({ device: gpu.device, shaderSource, batchNoncesMax: smallBatch });
});

afterAll(async () => {
  await backend?.close();
  await smallBatches?.close();
  gpu?.close();
});

/** A deterministic pre-PoW hash per seed (tests must be reproducible). */
function prePowFor(seed: number): Uint8Array {
  return powHash(new Uint8Array(32), BigInt(seed) + 0x5eedn);
}

function hashValue(prePow: Uint8Array, nonce: bigint): bigint {
  return bytesToBigIntBE(powHash(prePow, nonce));
}

describe('webgpu backend', () => {
  it('names the adapter and itself as a GPU backend', () => {
    expect(backend.name).toBe('webgpu');
    expect(backend.gpu).toBe(true);
    expect(backend.adapterDescription).toMatch(/\S/);
    expect(backend.adapterDescription).not.toBe('unknown WebGPU adapter');
  });

  it('hash_raw matches the official BLAKE3 vectors of every single-block length (0..64 bytes)', async () => {
    const vectors = readVectorJson<{ cases: { input_len: number; hash: string }[] }>('blake3', 'test_vectors.json');
    const cases = vectors.cases.filter((c) => c.input_len <= 64);
    expect(cases.map((c) => c.input_len)).toContain(64);
    const messages = cases.map((c) => Uint8Array.from({ length: c.input_len }, (_, i) => i % 251));
    const digests = await backend.hashSingleBlocks(messages);
    expect(digests.map(toHex)).toEqual(cases.map((c) => c.hash.slice(0, 64)));
  });

  it('hash_one digests agree with powHash for thousands of random (prePow, nonce) pairs', async () => {
    const edgeNonce = fc.constantFrom(0n, 1n, 0xffffffffn, 1n << 32n, (1n << 32n) + 1n, u64Max - 1n, u64Max);
    const nonce = fc.oneof(fc.bigInt({ min: 0n, max: u64Max }), edgeNonce);
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.array(nonce, { minLength: 500, maxLength: 600 }),
        async (prePow, nonces) => {
          const digests = await backend.hashDigests(prePow, nonces);
          expect(digests.map(toHex)).toEqual(nonces.map((n) => toHex(powHash(prePow, n))));
        }),
      { numRuns: 8 },
    );
  });

  it('finds the first winner in nonce order when many nonces of a dispatch win', async () => {
    const prePow = prePowFor(1);
    for (const target of [(1n << 256n) / 64n, (1n << 256n) / 1000n, (1n << 256n) - 1n]) {
      const expected = searchNonce(prePow, target, 1000n, 20_000);
      expect(expected.nonce).not.toBeNull();
      expect(await backend.search({ prePowHash: prePow, target, nonceStart: 1000n, nonceCount: 20_000 })).toEqual(expected);
    }
  });

  it('compares all 256 bits: a target equal to the best hash wins there, one below it wins nowhere', async () => {
    const prePow = prePowFor(2);
    const count = 5000;
    let best = 0;
    let bestValue = hashValue(prePow, 0n);
    for (let i = 1; i < count; i++) {
      const v = hashValue(prePow, BigInt(i));
      if (v < bestValue) [best, bestValue] = [i, v];
    }
    const job = { prePowHash: prePow, nonceStart: 0n, nonceCount: count };
    expect(await backend.search({ ...job, target: bestValue })).toEqual({ nonce: BigInt(best), hashes: best + 1 });
    // Same first 32-bit word as the best hash: only the full compare can reject it.
    expect(await backend.search({ ...job, target: bestValue - 1n })).toEqual({ nonce: null, hashes: count });
    expect(await backend.search({ ...job, target: 0n })).toEqual({ nonce: null, hashes: count });
  });

  it('finds a planted winner several dispatches into the job', async () => {
    const count = 20_000;
    for (let seed = 10; ; seed++) {
      const prePow = prePowFor(seed);
      let best = 0;
      let bestValue = hashValue(prePow, 0n);
      for (let i = 1; i < count; i++) {
        const v = hashValue(prePow, BigInt(i));
        if (v < bestValue) [best, bestValue] = [i, v];
      }
      if (best < 3 * smallBatch) continue; // deterministic: the seeds are fixed
      const result = await smallBatches.search({ prePowHash: prePow, target: bestValue, nonceStart: 0n, nonceCount: count });
      expect(result).toEqual({ nonce: BigInt(best), hashes: best + 1 });
      expect(hashMeetsTarget(powHash(prePow, result.nonce!), bestValue)).toBe(true);
      break;
    }
  });

  it('carries into the high word when the low word crosses 2^32, and wraps at 2^64', async () => {
    const after = 4000; // nonces tried past the boundary
    for (const nonceStart of [(7n << 32n) | 0xffffff00n, 0xfffff000n, u64Max - 700n]) {
      const before = Number(((nonceStart | 0xffffffffn) - nonceStart + 1n)); // nonces up to the boundary
      // Plant the winner past the boundary: a target equal to the best hash there that no earlier nonce meets.
      for (let seed = 20; ; seed++) {
        const prePow = prePowFor(seed);
        const values = Array.from({ length: before + after }, (_, i) => hashValue(prePow, (nonceStart + BigInt(i)) & u64Max));
        const target = values.slice(before).reduce((m, v) => (v < m ? v : m));
        if (values.slice(0, before).some((v) => v <= target)) continue; // deterministic: the seeds are fixed
        const expected = searchNonce(prePow, target, nonceStart, before + after);
        expect(expected.hashes).toBeGreaterThan(before);
        expect((expected.nonce! >> 32n) !== (nonceStart >> 32n)).toBe(true);
        expect(await smallBatches.search({ prePowHash: prePow, target, nonceStart, nonceCount: before + after }))
          .toEqual(expected);
        break;
      }
    }
  });

  it('answers an empty range with no winner and no hashes', async () => {
    expect(await backend.search({ prePowHash: prePowFor(4), target: u64Max, nonceStart: 5n, nonceCount: 0 }))
      .toEqual({ nonce: null, hashes: 0 });
  });

  it('serializes concurrent searches and still answers each correctly', async () => {
    const jobs = [5, 6, 7].map((seed) => ({ prePowHash: prePowFor(seed), target: (1n << 256n) / 500n, nonceStart: 0n, nonceCount: 8000 }));
    const results = await Promise.all(jobs.map((job) => backend.search(job)));
    expect(results).toEqual(jobs.map((j) => searchNonce(j.prePowHash, j.target, j.nonceStart, j.nonceCount)));
  });

  it('rejects malformed jobs with a coded error', async () => {
    const good = { prePowHash: prePowFor(8), target: 1n, nonceStart: 0n, nonceCount: 10 };
    await expect(backend.search({ ...good, prePowHash: new Uint8Array(31) })).rejects.toThrow(/expected 32 bytes, got 31/);
    await expect(backend.search({ ...good, target: 1n << 256n })).rejects.toBeInstanceOf(WebGpuPowError);
    await expect(backend.search({ ...good, nonceStart: -1n })).rejects.toThrow(/nonceStart/);
    await expect(backend.search({ ...good, nonceCount: 1.5 })).rejects.toThrow(/nonceCount/);
    await expect(backend.hashSingleBlocks([new Uint8Array(65)])).rejects.toThrow(/at most 64 bytes, got 65/);
    await expect(backend.search(good)).resolves.toBeDefined(); // a rejected job leaves the backend usable
  });

  it('checks nonces given to hashDigests and answers an empty list', async () => {
    await expect(backend.hashDigests(prePowFor(12), [1n, 1n << 64n])).rejects.toThrow(/nonces\[1\]: expected a u64/);
    await expect(backend.hashDigests(prePowFor(12), [])).resolves.toEqual([]);
  });

  it('sizes batches toward 50 ms per dispatch, growing at most 4x and ignoring short tails', () => {
    const max = 1 << 30;
    expect(nextBatchNonces(100_000, 100_000, 25, max)).toBe(200_000);
    expect(nextBatchNonces(100_000, 100_000, 1, max)).toBe(400_000);
    expect(nextBatchNonces(100_000, 100_000, 500, max)).toBe(10_000);
    expect(nextBatchNonces(100_000, 100_000, 1e6, max)).toBe(webGpuBatchNoncesMin);
    expect(nextBatchNonces(1 << 29, 1 << 29, 1, max)).toBe(max);
    expect(nextBatchNonces(100_000, 5_000, 500, max)).toBe(100_000);
    expect(nextBatchNonces(100_000, 100_000, 0, max)).toBe(100_000);
  });

  it('computes the midstate of round 1 G0..G6 from the pre-PoW hash only', () => {
    const a = powMidstate(prePowFor(9));
    expect(a).toHaveLength(16);
    expect(powMidstate(prePowFor(9))).toEqual(a);
    expect(powMidstate(prePowFor(10))).not.toEqual(a);
  });

  it('refuses use after close()', async () => {
    const spare = await createWebGpuPowBackend({ device: gpu.device, shaderSource: readPowShaderSource() });
    await spare.close();
    await expect(spare.search({ prePowHash: prePowFor(11), target: 1n, nonceStart: 0n, nonceCount: 1 }))
      .rejects.toThrow(/after close/);
  });

  it('rejects searches once its device is lost', async () => {
    const other = await openNodeWebGpu();
    expect(other).not.toBeNull();
    const spare = await createWebGpuPowBackend({ device: other!.device, shaderSource: readPowShaderSource() });
    other!.close();
    await other!.device.lost;
    await expect(spare.search({ prePowHash: prePowFor(13), target: 1n, nonceStart: 0n, nonceCount: 1 }))
      .rejects.toThrow(/device lost/);
  });

  it('reports a shader that does not compile', async () => {
    await expect(createWebGpuPowBackend({ device: gpu.device, shaderSource: 'fn broken( {' }))
      .rejects.toBeInstanceOf(WebGpuPowError);
  });
});

describe('openNodeWebGpu', () => {
  it('resolves null with the install hint when the caller points the loader at a missing driver', async () => {
    const saved = process.env['VK_ICD_FILENAMES'];
    process.env['VK_ICD_FILENAMES'] = '/nonexistent/weft-test-icd.json';
    try {
      let reason = '';
      expect(await openNodeWebGpu({ onUnavailable: (r) => { reason = r; } })).toBeNull();
      expect(reason).toMatch(/nonexistent\/weft-test-icd\.json/);
      expect(reason).toMatch(/\.ci\/install-vulkan\.sh/);
    } finally {
      if (saved === undefined) delete process.env['VK_ICD_FILENAMES'];
      else process.env['VK_ICD_FILENAMES'] = saved;
    }
  });
});
