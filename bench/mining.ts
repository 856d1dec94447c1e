/**
 * CPU PoW hash rate on the same 64-byte pow_input blocks (prePow ‖ 0^24 ‖ nonce LE, docs/design.md "Consensus"), one thread
 * each, measured in turn in one run: the AssemblyScript kernel's SIMD and scalar builds (src/mining/wasm-kernel.ts),
 * hash-wasm's BLAKE3 (one `createBLAKE3()` hasher, `init(); update(block); digest('binary')` per nonce — its fastest
 * path) and @noble/hashes `blake3(block)`. The two baselines also compare the first digest word with the target, as a
 * miner must. Then every core through the worker pool (server/mining/wasm-pool.ts), and last the kernel's general
 * `hash` against noble's `blake3` on a few input sizes (MB per CPU-second), for choosing the core's hash backend.
 *
 * Each figure: warm-up ≥ 0.5 s (V8 tiers Wasm up from Liftoff only for later calls), then the median of 3 runs.
 * Printed as wall-clock H/s and H per process CPU-second; the second holds up better when other processes share
 * the machine, and the ratios use it. Total run ≈ 30 s. Target of the Wasm-SIMD / hash-wasm ratio: ≥ 15×.
 *
 * Run: npx tsx bench/mining.ts [seconds per run, default 1]
 */
import { availableParallelism, cpus } from 'node:os';
import { blake3 } from '@noble/hashes/blake3.js';
import { createBLAKE3 } from 'hash-wasm';
import { powHash, powInput, powNonceOffsetBytes } from '../src/consensus/pow.ts';
import { instantiatePowKernel, type PowKernel } from '../src/mining/wasm-kernel.ts';
import { readWasmKernel } from '../server/mining/wasm-files.ts';
import { createWasmPowPool } from '../server/mining/wasm-pool.ts';
import { equalBytes } from '../src/util/bytes.ts';

const runSeconds = Number(process.argv[2] ?? 1);
const warmupSeconds = 0.5;
const runs = 3;
const prePow = Uint8Array.from({ length: 32 }, (_, i) => (i * 29 + 7) & 0xff);
/** First-word threshold no hash meets: every implementation hashes the whole range. */
const targetWord0 = 0;

interface Rate {
  readonly wall: number;
  readonly cpu: number;
}

function cpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

/** `step(start)` hashes some nonces from `start` and returns how many; repeated for `seconds` of wall time. */
async function timeSteps(seconds: number, step: (start: bigint) => number | Promise<number>): Promise<Rate> {
  let hashes = 0;
  const wall0 = performance.now();
  const cpu0 = cpuSeconds();
  while (performance.now() - wall0 < seconds * 1000) hashes += await step(BigInt(hashes));
  const wallS = (performance.now() - wall0) / 1000;
  return { wall: hashes / wallS, cpu: hashes / (cpuSeconds() - cpu0) };
}

async function measure(step: (start: bigint) => number | Promise<number>, seconds = runSeconds): Promise<Rate> {
  await timeSteps(warmupSeconds, step);
  const rates: Rate[] = [];
  for (let i = 0; i < runs; i++) rates.push(await timeSteps(seconds, step));
  return { wall: median(rates.map((r) => r.wall)), cpu: median(rates.map((r) => r.cpu)) };
}

function kernelStep(kernel: PowKernel, nonces: number): (start: bigint) => number {
  return (start) => kernel.search({ prePowHash: prePow, target: 0n, nonceStart: start, nonceCount: nonces }).hashes;
}

/** The baselines' loop: write the nonce into the block, hash, pre-filter on the first word. */
function jsMinerStep(hash: (block: Uint8Array) => Uint8Array, nonces: number): (start: bigint) => number {
  const block = powInput(prePow, 0n);
  const view = new DataView(block.buffer);
  return (start) => {
    for (let i = 0; i < nonces; i++) {
      view.setBigUint64(powNonceOffsetBytes, start + BigInt(i), true);
      const digest = hash(block);
      const word0 = ((digest[0]! << 24) | (digest[1]! << 16) | (digest[2]! << 8) | digest[3]!) >>> 0;
      if (word0 < targetWord0) throw new Error('unreachable: no hash is below 0');
    }
    return nonces;
  };
}

function check(name: string, digest: Uint8Array): void {
  if (!equalBytes(digest, powHash(prePow, 5n))) throw new Error(`${name} disagrees with the reference powHash`);
}

const simd = await instantiatePowKernel(readWasmKernel('simd'));
const scalar = await instantiatePowKernel(readWasmKernel('scalar'));
const hasher = await createBLAKE3();
const hashWasm = (block: Uint8Array): Uint8Array => {
  hasher.init();
  hasher.update(block);
  return hasher.digest('binary');
};
check('wasm-simd', simd.powHash(prePow, 5n));
check('wasm-scalar', scalar.powHash(prePow, 5n));
check('hash-wasm', hashWasm(powInput(prePow, 5n)).slice());
check('noble', blake3(powInput(prePow, 5n)));

const cpuModel = cpus()[0]?.model ?? 'unknown CPU';
console.log(`BLAKE3 PoW hash rate, Node ${process.version}, ${availableParallelism()} CPUs (${cpuModel})`);
console.log(`warm-up ${warmupSeconds} s, median of ${runs} runs of ${runSeconds} s; H/s wall | H per CPU-second`);
const millions = (x: number): string => (x / 1e6).toFixed(2).padStart(7);
const fmt = (r: Rate): string => `${millions(r.wall)} M/s | ${millions(r.cpu)} M/cpu-s`;

const results = {
  'wasm-simd': await measure(kernelStep(simd, 1 << 20)),
  'wasm-scalar': await measure(kernelStep(scalar, 1 << 18)),
  'hash-wasm': await measure(jsMinerStep(hashWasm, 20_000)),
  noble: await measure(jsMinerStep(blake3, 2_000)),
};
for (const [name, rate] of Object.entries(results)) console.log(`  ${name.padEnd(24)} ${fmt(rate)}`);
const ratio = (a: Rate, b: Rate): string => `${(a.cpu / b.cpu).toFixed(1)}× (wall ${(a.wall / b.wall).toFixed(1)}×)`;
console.log(`ratio wasm-simd / hash-wasm: ${ratio(results['wasm-simd'], results['hash-wasm'])}   [target ≥ 15×]`);
console.log(`ratio wasm-simd / noble:     ${ratio(results['wasm-simd'], results.noble)}`);
console.log(`ratio wasm-simd / scalar:    ${ratio(results['wasm-simd'], results['wasm-scalar'])}`);

const threads = availableParallelism();
const pool = await createWasmPowPool({ threads });
const poolNonces = 1 << 22;
const poolRate = await measure(
  async (start) =>
    (await pool.search({ prePowHash: prePow, target: 0n, nonceStart: start, nonceCount: poolNonces })).hashes,
);
await pool.close();
console.log(`  ${`pool ${pool.name} ×${threads}`.padEnd(24)} ${fmt(poolRate)}`);
console.log(`ratio pool / one-thread wasm-simd (wall): ${(poolRate.wall / results['wasm-simd'].wall).toFixed(2)}×`);

console.log('general hash, MB per CPU-second (kernel.hash of the SIMD build | noble blake3):');
for (const bytes of [64, 1024, 65536]) {
  const data = new Uint8Array(bytes).fill(0x5a);
  const bytesStep = (hash: (d: Uint8Array) => Uint8Array) => (): number => {
    for (let i = 0; i < 64; i++) hash(data);
    return 64 * bytes;
  };
  const wasm = await measure(bytesStep((d) => simd.hash(d)), 0.3);
  const js = await measure(bytesStep(blake3), 0.3);
  const mb = (r: Rate): string => (r.cpu / 1e6).toFixed(0).padStart(5);
  console.log(`  ${String(bytes).padStart(6)} B  ${mb(wasm)} | ${mb(js)}   ratio ${(wasm.cpu / js.cpu).toFixed(1)}×`);
}
