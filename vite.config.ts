import { defineConfig } from 'vitest/config';

// One config for the web build (web/) and for Vitest (test/). Playwright (e2e/) has its own runner.
export default defineConfig({
  root: '.',
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    // Every page of web/ is an input (paths kept: dist/web/web/<page>.html). The kernel page loads build/wasm/*.wasm
    // as assets, so `npm run build` compiles assembly/ first.
    rolldownOptions: { input: { 'kernel-check': 'web/kernel-check.html' } },
  },
  worker: { format: 'es' },
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
