// Bundles the `weft` command's TypeScript (server/cli.ts and everything it imports from the repo) into
// build/node/ with esbuild, so `bin/weft.mjs` starts without tsx's loader: compiling ~400 modules through the
// loader's hooks on every start cost about two seconds; the bundle loads in under one (docs/operations.md
// "Start-up"). `npm run build` runs this. Packages stay external (node_modules is resolved at run time as before).
//
// Each module's `import.meta.url` is rewritten to the URL its source file has, computed from the bundle's own URL,
// so paths a module builds relative to itself (proto files, build/wasm, dist/web, worker sources) are the same
// bundled or not, and the bundle stays relocatable with the checkout. Dynamic imports split into chunks, so a
// lazily loaded module's packages (webgpu) still load only when it is. build/node/inputs.json lists the sources and
// when the build began; bin/weft.mjs falls back to tsx when any source changed since. The worker threads' modules are bundled too.
import { build } from 'esbuild';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const bundleDir = resolve(repoRoot, 'build/node');

/** `import.meta.url` in a source file, as an expression valid inside a bundle written to `bundleDir`. */
const ownUrlPlugin = {
  name: 'own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta.url')) return { contents: source, loader: 'ts' };
      const fromBundle = relative(bundleDir, args.path).split('\\').join('/');
      const ownUrl = `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`;
      return { contents: source.replaceAll('import.meta.url', ownUrl), loader: 'ts' };
    });
  },
};

// Built beside the bundle (the same depth, so the rewritten URLs hold) and swapped in, so a running bundled node
// that loads a lazy chunk or starts a worker finds a whole bundle, never a half-written or missing one.
const nextDir = `${bundleDir}-next`;
const started = performance.now();
// Sources changed after this instant may not be in the bundle: bin/weft.mjs takes only older ones as built.
const sourcesBeforeMs = Date.now();
await rm(nextDir, { recursive: true, force: true });
const result = await build({
  absWorkingDir: repoRoot,
  // The worker threads' modules are entries of their own: server/worker-entry.ts points a bundled process at them.
  entryPoints: { weft: 'server/cli.ts', 'verify-worker': 'server/crypto/verify-worker.ts', 'wasm-worker': 'server/mining/wasm-worker.ts' },
  define: { WEFT_BUNDLED: 'true' },
  outdir: nextDir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  // Error classes name themselves after their constructor (WeftError's `name`); a renamed duplicate would change it.
  keepNames: true,
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'warning',
  plugins: [ownUrlPlugin],
});
// Relative to the repo root (esbuild's own form), so a moved checkout's bundle still checks against its sources;
// with them what shapes the output besides: this script, the TypeScript config and the locked esbuild version.
const sources = [...Object.keys(result.metafile.inputs), 'bin/bundle-node.mjs', 'tsconfig.json', 'package-lock.json'];
await writeFile(resolve(nextDir, 'inputs.json'), JSON.stringify({ sourcesBeforeMs, sources }));
const oldDir = `${bundleDir}-old`;
await rm(oldDir, { recursive: true, force: true });
await rename(bundleDir, oldDir).catch((error) => {
  if (error.code !== 'ENOENT') throw error;
});
await rename(nextDir, bundleDir);
await rm(oldDir, { recursive: true, force: true });
console.log(`bundled server/cli.ts and the worker modules into build/node (${sources.length} sources, ${Math.round(performance.now() - started)} ms)`);
