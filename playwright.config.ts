import { defineConfig } from '@playwright/test';

// Debian's Chromium only: Playwright never downloads a browser here. The flags keep it off a closed network.
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--enable-unsafe-webgpu',
];

export default defineConfig({
  testDir: 'e2e',
  timeout: 120_000,
  // Two spec files at a time, one per core: each starts its own nodes on port 0 and its own browser context. The
  // suite took 6.9 min with one worker and 5.1–5.2 min with two (83 tests, twice each, all passing) on the 2-core box.
  workers: 2,
  retries: 0,
  reporter: [['list']],
  outputDir: 'test-results/e2e',
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs },
    screenshot: 'only-on-failure',
    trace: 'off',
  },
});
