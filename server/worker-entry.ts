/**
 * The code a worker thread starts from (`new Worker(code, { eval: true })`). When this process runs from the bundle
 * (runtime.ts), the worker imports its own bundle entry, `build/node/<name>.mjs`, written beside the main one.
 * Otherwise it registers tsx's loader in the thread and imports the TypeScript module:
 * Node 20 does not apply `execArgv: ['--import', 'tsx']` to a worker's entry ("Unknown file extension .ts", measured
 * on 20.20; docs/mining-kernels.md).
 */
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runtime } from './runtime.ts';

const bundleDir = new URL('../build/node/', import.meta.url);

/** The bootstrap for the worker module at `source` (a `.ts` file URL under server/). */
export function workerEntry(source: URL): string {
  if (runtime === 'bundle') {
    const bundled = new URL(`${basename(fileURLToPath(source), '.ts')}.mjs`, bundleDir);
    return `import(${JSON.stringify(bundled.href)});`;
  }
  // Resolved through require from this package, so it holds under Vitest's module runner as under Node.
  const tsxApi = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
  return `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source.href)}); });`;
}
