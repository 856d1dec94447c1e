import { defineConfig } from 'vitest/config';

// One config for the web build (web/) and for Vitest (test/). Playwright (e2e/) has its own runner.
export default defineConfig({
  root: '.',
  build: { outDir: 'dist/web', emptyOutDir: true },
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
