/**
 * First paint of the web app as shipped (issue 21, "Lighthouse-style budgets measured in a bench, not asserted"):
 * a real `weft node` (regtest, a generated 2,000-block DAG) serves the built app (`npm run build` first); each page
 * is loaded in Debian's Chromium (headless, playwright.config.ts's flags) in a fresh context — cold cache, as a first
 * visit — and the bench prints its first contentful paint (PerformanceObserver 'paint') and the JavaScript bytes
 * transferred (Resource Timing `transferSize` of script resources, compressed as sent), median of N loads. The
 * baseline, in the same run, is the node's server-rendered /status page (one inline script, no app bundle).
 *
 *   npx tsx bench/first-paint.ts [loads=7]
 */
import { chromium, type Browser } from '@playwright/test';
import { chromiumArgs } from '../playwright.config.ts';
import { startRegtestNode } from '../e2e/helpers/regtest-node.ts';

const loads = Number(process.argv[2] ?? 7);

const pages = [
  { name: 'status page (baseline: server-rendered, no bundle)', path: '/status' },
  { name: 'explorer home', path: '/' },
  { name: 'block', path: '/#/block/1000' },
  { name: 'mempool', path: '/#/mempool' },
  { name: 'supply', path: '/#/supply' },
  { name: 'miner', path: '/miner.html' },
  { name: 'wallet', path: '/wallet.html' },
] as const;

interface Load { readonly fcpMs: number; readonly jsBytes: number; readonly jsFiles: number }

/** Runs in the page: waits for first-contentful-paint, then sums the scripts' transferred bytes. */
const measureInPage = `new Promise((resolve) => {
  new PerformanceObserver((list, observer) => {
    const fcp = list.getEntries().find((e) => e.name === 'first-contentful-paint');
    if (!fcp) return;
    observer.disconnect();
    const scripts = performance.getEntriesByType('resource').filter((e) => /\\.m?js(\\?|$)/.test(e.name));
    resolve({ fcpMs: fcp.startTime, jsBytes: scripts.reduce((s, e) => s + e.transferSize, 0), jsFiles: scripts.length });
  }).observe({ type: 'paint', buffered: true });
})`;

async function loadOnce(browser: Browser, url: string): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    // A string, not a function: tsx's name-keeping helper (__name) does not exist in the page.
    return (await page.evaluate(measureInPage)) as Load;
  } finally {
    await context.close();
  }
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const node = await startRegtestNode(2_000);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs });
try {
  console.log(`first contentful paint and JS transferred, median of ${loads} cold loads per page (Chromium headless, 1280×900)`);
  console.log('| page | FCP (ms) | vs baseline | JS transferred | JS files |');
  console.log('|---|---:|---:|---:|---:|');
  let baseline = 0;
  for (const { name, path } of pages) {
    const runs: Load[] = [];
    await loadOnce(browser, `${node.url}${path}`); // warm the node's file cache, not the browser's
    for (let i = 0; i < loads; i++) runs.push(await loadOnce(browser, `${node.url}${path}`));
    const fcp = median(runs.map((r) => r.fcpMs));
    if (baseline === 0) baseline = fcp;
    const kb = median(runs.map((r) => r.jsBytes)) / 1024;
    console.log(`| ${name} | ${fcp.toFixed(0)} | ${(fcp / baseline).toFixed(2)}× | ${kb.toFixed(1)} KiB | ${median(runs.map((r) => r.jsFiles))} |`);
  }
} finally {
  await browser.close();
  await node.stop();
}
