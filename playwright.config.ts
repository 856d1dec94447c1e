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
  workers: 1,
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
