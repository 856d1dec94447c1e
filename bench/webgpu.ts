/**
 * WGSL PoW kernel hash rate (shaders/blake3-pow.wgsl through src/mining/webgpu-backend.ts) on the adapter that
 * server/mining/webgpu-node.ts opens, against the noble BLAKE3 reference search (src/consensus/pow.ts searchNonce,
 * one thread) measured in the same run. Target 0 so no nonce wins and every job runs its whole range.
 * Prints wall-clock H/s, H per process CPU-second (a CPU Vulkan driver runs its threads inside this process), and
 * the ratio WGSL / noble. Takes ~15–30 s.
 *
 * Run: npx tsx bench/webgpu.ts [seconds per measurement, default 4]
 */
import { searchNonce } from '../src/consensus/pow.ts';
import { createWebGpuPowBackend } from '../src/mining/webgpu-backend.ts';
import { openNodeWebGpu } from '../server/mining/webgpu-node.ts';
import { readPowShaderSource } from '../server/mining/shader-source.ts';

const measureSeconds = Number(process.argv[2] ?? 4);
const warmupSeconds = 1.5;
const prePow = Uint8Array.from({ length: 32 }, (_, i) => (i * 29 + 7) & 0xff);

interface Rate { readonly hashes: number; readonly wallS: number; readonly cpuS: number }

function cpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/** Runs `step(n)` (which hashes n nonces) with n growing until `seconds` of wall time are spent. */
async function measure(seconds: number, firstStep: number, step: (n: number, start: bigint) => Promise<void> | void): Promise<Rate> {
  let hashes = 0;
  let n = firstStep;
  const wall0 = performance.now();
  const cpu0 = cpuSeconds();
  while (performance.now() - wall0 < seconds * 1000) {
    const t = performance.now();
    await step(n, BigInt(hashes));
    hashes += n;
    const ms = performance.now() - t;
    if (ms < 250) n *= 2; // keep each step long enough that the loop costs nothing
  }
  return { hashes, wallS: (performance.now() - wall0) / 1000, cpuS: cpuSeconds() - cpu0 };
}

const fmt = (hps: number): string => `${(hps / 1e6).toFixed(2)} M`;

async function main(): Promise<void> {
  let reason = '';
  const gpu = await openNodeWebGpu({ onUnavailable: (r) => { reason = r; } });
  if (gpu === null) throw new Error(reason);
  const t0 = performance.now();
  const backend = await createWebGpuPowBackend({ device: gpu.device, shaderSource: readPowShaderSource(), adapterInfo: gpu.adapterInfo });
  console.log(`adapter: ${backend.adapterDescription}${gpu.icd === null ? '' : ` (ICD ${gpu.icd})`}`);
  console.log(`shader compile + pipelines: ${(performance.now() - t0).toFixed(0)} ms`);

  const gpuStep = async (n: number, start: bigint): Promise<void> => {
    const r = await backend.search({ prePowHash: prePow, target: 0n, nonceStart: start, nonceCount: n });
    if (r.nonce !== null) throw new Error('target 0 cannot be met');
  };
  await measure(warmupSeconds, 1 << 16, gpuStep);
  const wgsl = await measure(measureSeconds, backend.batchNonces, gpuStep);
  console.log(`webgpu: ${fmt(wgsl.hashes / wgsl.wallS)} H/s wall, ${fmt(wgsl.hashes / wgsl.cpuS)} H per CPU-second, ` +
    `batch ${backend.batchNonces} nonces, ${wgsl.hashes} hashes in ${wgsl.wallS.toFixed(2)} s`);

  const nobleStep = (n: number, start: bigint): void => { searchNonce(prePow, 0n, start, n); };
  await measure(0.5, 1 << 10, nobleStep);
  const noble = await measure(Math.min(measureSeconds, 3), 1 << 12, nobleStep);
  console.log(`noble blake3 (searchNonce, 1 thread): ${fmt(noble.hashes / noble.wallS)} H/s wall, ` +
    `${fmt(noble.hashes / noble.cpuS)} H per CPU-second`);
  console.log(`ratio webgpu / noble: ${(wgsl.hashes / wgsl.wallS / (noble.hashes / noble.wallS)).toFixed(1)}x wall, ` +
    `${(wgsl.hashes / wgsl.cpuS / (noble.hashes / noble.cpuS)).toFixed(1)}x per CPU-second`);
  await backend.close();
  gpu.close();
}

await main();
