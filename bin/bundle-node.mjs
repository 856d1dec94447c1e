// Bundles the `weft` command's TypeScript (server/cli.ts and everything it imports from the repo) into
// build/node/ with esbuild, so `bin/weft.mjs` starts without tsx's loader: compiling ~400 modules through the
// loader's hooks on every start cost about two seconds; the bundle loads in under one (docs/operations.md
// "Start-up"). `npm run build` runs this. Packages stay external (node_modules is resolved at run time as before).
//
// Each module's `import.meta.url` is rewritten to the URL its source file has, computed from the bundle's own URL,
// so paths a module builds relative to itself (proto files, build/wasm, dist/web, worker sources) are the same
// bundled or not, and the bundle stays relocatable with the checkout. Dynamic imports split into chunks, so a
// lazily loaded module's packages (webgpu) still load only when it is. build/node/inputs.json lists the sources;
// bin/weft.mjs falls back to tsx when any is newer than the bundle. The worker threads' modules are bundled too.
import { build } from 'esbuild';
import { readFile, rm, writeFile } from 'node:fs/promises';
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

const started = performance.now();
await rm(bundleDir, { recursive: true, force: true });
const result = await build({
  absWorkingDir: repoRoot,
  // The worker threads' modules are entries of their own: server/worker-entry.ts points a bundled process at them.
  entryPoints: { weft: 'server/cli.ts', 'verify-worker': 'server/crypto/verify-worker.ts', 'wasm-worker': 'server/mining/wasm-worker.ts' },
  define: { WEFT_BUNDLED: 'true' },
  outdir: bundleDir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'warning',
  plugins: [ownUrlPlugin],
});
// Relative to the repo root (esbuild's own form), so a moved checkout's bundle still checks against its sources.
const inputs = Object.keys(result.metafile.inputs);
await writeFile(resolve(bundleDir, 'inputs.json'), JSON.stringify(inputs));
console.log(`bundled server/cli.ts and the worker modules into build/node (${inputs.length} sources, ${Math.round(performance.now() - started)} ms)`);
