// Builds the BLAKE3 PoW kernel (assembly/blake3-pow.ts) twice with AssemblyScript's programmatic API:
//   build/wasm/blake3-pow-simd.wasm    with Wasm SIMD (128-bit, four nonces per step)
//   build/wasm/blake3-pow-scalar.wasm  without, for engines that lack SIMD
// and then the example contracts (assembly/contracts/build-contracts.mjs). `npm run build` runs this. Kernel flags:
//   -O3              Binaryen at optimize level 3 (speed); inlines the unrolled rounds and removes dead lanes of work
//   --runtime stub   the kernel never allocates, so no GC or allocator is linked in
//   --noAssert       no abort paths, hence no `env.abort` import: the module instantiates with an empty import object
//   --enable simd    SIMD variant only; ASC_FEATURE_SIMD selects the 4-way search loop at compile time
import asc from 'assemblyscript/asc';
import { buildContracts } from './contracts/build-contracts.mjs';
import { mkdir, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const entry = 'assembly/blake3-pow.ts';
const outDir = 'build/wasm';
const commonFlags = ['-O3', '--runtime', 'stub', '--noAssert'];
const variants = [
  { name: 'blake3-pow-simd.wasm', flags: ['--enable', 'simd'] },
  { name: 'blake3-pow-scalar.wasm', flags: [] },
];

async function buildVariant({ name, flags }) {
  const outFile = `${outDir}/${name}`;
  const started = performance.now();
  const { error, stderr } = await asc.main([entry, ...commonFlags, ...flags, '--outFile', outFile]);
  if (error) {
    process.stderr.write(stderr.toString());
    throw new Error(`asc failed for ${name}: ${error.message}`);
  }
  const { size } = await stat(resolve(repoRoot, outFile));
  console.log(`built ${outFile} (${size} bytes, ${Math.round(performance.now() - started)} ms)`);
}

// asc resolves relative paths against the working directory; pin it so the script runs from anywhere.
process.chdir(repoRoot);
await mkdir(outDir, { recursive: true });
for (const variant of variants) await buildVariant(variant);
// The example contracts and their SDK (assembly/contracts/, docs/contracts.md), with their own flags.
await buildContracts();
