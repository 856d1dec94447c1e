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
  test: {
    include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
