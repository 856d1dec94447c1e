// Builds the example contracts (assembly/contracts/*.ts) to build/wasm/contracts/<name>.wasm with AssemblyScript's
// programmatic API. `npm run build` runs this through assembly/build.mjs; tests run it when the outputs are missing.
// With two arguments (`node build-contracts.mjs SOURCE.ts OUT.wasm`, what `weft contract build` runs) it compiles
// that one contract with the same flags.
// Flags, and why (docs/contracts.md "AssemblyScript SDK"):
//   -O3 --runtime stub --noAssert       small, fast, no GC: each call is a fresh instance, so nothing needs freeing
//   --disable bulk-memory               prepare refuses memory.copy/fill (O(n) in one instruction); asc emits loops
//   --disable nontrapping-f2i           no 0xfc float truncations (and contracts use no floats at all)
//   --exportStart __start               no start section: the VM runs __start itself, under metering
//   --initialMemory 2 --maximumMemory 2 the VM fixes memory at initial = maximum (128 KiB here)
import asc from 'assemblyscript/asc';
import { mkdir, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const contractNames = ['counter', 'token', 'faulty', 'escrow'];
export const contractOutDir = 'build/wasm/contracts';
const flags = [
  '-O3', '--runtime', 'stub', '--noAssert',
  '--disable', 'bulk-memory', '--disable', 'nontrapping-f2i',
  '--exportStart', '__start', '--initialMemory', '2', '--maximumMemory', '2',
];

/** Compiles one contract source to `outFile` (paths as the caller's working directory sees them). */
export async function compileContract(source, outFile) {
  await mkdir(dirname(resolve(outFile)), { recursive: true });
  const { error, stderr } = await asc.main([source, ...flags, '--outFile', outFile]);
  if (error) {
    process.stderr.write(stderr.toString());
    throw new Error(`asc failed for ${source}: ${error.message}`);
  }
  const { size } = await stat(resolve(outFile));
  console.log(`built ${outFile} (${size} bytes)`);
}

export async function buildContracts() {
  const cwd = process.cwd();
  process.chdir(repoRoot);
  try {
    for (const name of contractNames) await compileContract(`assembly/contracts/${name}.ts`, `${contractOutDir}/${name}.wasm`);
  } finally {
    process.chdir(cwd);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [source, outFile] = process.argv.slice(2);
  if (source !== undefined && outFile !== undefined) await compileContract(source, outFile);
  else await buildContracts();
}
