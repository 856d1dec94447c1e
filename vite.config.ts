import { readdirSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import { inlineCssPlugin } from './bin/inline-css.mjs';

// Every web/*.html is a page of the app (explorer, miner, wallet, widget pages, kernel check): new pages need no edit here.
const pages = Object.fromEntries(
  readdirSync('web').filter((f) => f.endsWith('.html')).map((f) => [f.slice(0, -'.html'.length), `web/${f}`]),
);

// One config for the web build (web/) and for Vitest (test/). Playwright (e2e/) has its own runner.
export default defineConfig({
  root: '.',
  // Each page's CSS inlined into its HTML: no render-blocking request before the first paint (bin/inline-css.mjs).
  plugins: [inlineCssPlugin()],
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    // Every page of web/ is an input (paths kept: dist/web/web/<page>.html). The kernel page loads build/wasm/*.wasm
    // as assets, so `npm run build` compiles assembly/ first.
    rolldownOptions: { input: pages },
  },
  worker: { format: 'es' },
  // Four Vitest projects (docs/testing.md): `unit` mirrors src/, server/ and web/ one module at a time and runs in
  // well under a minute (`npm run test:unit`); `integration` holds real servers, processes, several nodes and the
  // long vector and fuzz runs (and the packages' tests, which talk to a node); `journeys` the flows a user or
  // operator walks end to end; `house` the checks on the repository itself.
  test: {
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      { name: 'unit', include: ['test/unit/**/*.test.ts'] },
      { name: 'integration', include: ['test/integration/**/*.test.ts', 'packages/*/test/**/*.test.ts'] },
      { name: 'journeys', include: ['test/journeys/**/*.test.ts'] },
      { name: 'house', include: ['test/house/**/*.test.ts'] },
    ].map((test) => ({ extends: true as const, test })),
  },
});
