// The contract VM in Debian's Chromium gives what it gives in Node: the same prepared bytes (BLAKE3 of each
// instrumented module), and for a fixed sequence of calls over the example contracts the same status, gas used,
// storage writes, events and return data (docs/contracts.md "How determinism is guaranteed"). The scenario
// (e2e/helpers/vm-scenario.ts) is bundled for the browser with Vite's library mode and run on the page's main thread.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { build } from 'vite';
import { toHex } from '../src/util/bytes.ts';
import { contractBytes } from '../test/helpers/vm-contracts.ts';
import { repoRoot } from '../test/vectors.ts';
import { runVmScenario, type VmTranscriptEntry } from './helpers/vm-scenario.ts';

declare global {
  interface Window {
    weftVmScenario: { runVmScenario(contractsHex: Record<string, string>): VmTranscriptEntry[] };
  }
}

let bundle = '';

test.beforeAll(async () => {
  const outDir = mkdtempSync(join(tmpdir(), 'weft-vm-bundle-'));
  try {
    await build({
      configFile: false,
      root: repoRoot,
      logLevel: 'warn',
      build: {
        outDir,
        emptyOutDir: true,
        minify: false,
        lib: { entry: join(repoRoot, 'e2e/helpers/vm-scenario.ts'), name: 'weftVmScenario', formats: ['iife'], fileName: () => 'vm.js' },
      },
    });
    const file = join(outDir, 'vm.js');
    expect(existsSync(file)).toBe(true);
    bundle = readFileSync(file, 'utf8');
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
});

test('Chromium prepares and runs the example contracts exactly as Node does', async ({ page }) => {
  const contracts = Object.fromEntries((['counter', 'token', 'faulty'] as const).map((n) => [n, toHex(contractBytes(n))]));
  const expected = runVmScenario(contracts);
  // The scenario covers every outcome, so a transcript that agreed only on the easy cases would not pass.
  expect(new Set(expected.map((e) => e.status))).toEqual(
    new Set([...expected.filter((e) => e.call.startsWith('prepare')).map((e) => e.status), 'ok', 'revert', 'out_of_gas', 'stack_exhausted', 'trap', 'no_entry']),
  );

  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto('about:blank');
  await page.addScriptTag({ content: bundle });
  const got = await page.evaluate((c) => window.weftVmScenario.runVmScenario(c), contracts);
  expect(pageErrors).toEqual([]);
  expect(got).toEqual(expected);
});
