/**
 * Lighthouse (mobile profile: Moto G Power-class viewport, simulated slow 4G and 4× CPU slowdown) against the node as
 * shipped (issue 32): a real `weft node` (regtest, a generated 2,000-block DAG, every port 0) serves the built web
 * app (`npm run build` first, the precompressed files included), and Lighthouse drives Debian's Chromium
 * (/usr/bin/chromium, or $CHROMIUM_PATH, launched by chrome-launcher: no tool downloads a browser) over the explorer
 * home, a block page, the wallet and the miner. Each page is audited `runs` times (fresh profile, storage reset: a
 * first visit); the bench prints the median run's four category scores and first contentful paint, and the audits
 * that lost points. Any Lighthouse runtime error, unscored category or page that did not load ends it non-zero.
 *
 *   npm run build && npx tsx bench/lighthouse.ts [runs=3] [report-dir]
 *
 * With a report-dir, every run's full JSON report is written there (open one in the Lighthouse viewer).
 * Not part of `npm test`: scores depend on the machine's load, so they are measured and recorded, not asserted.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { startRegtestNode } from '../e2e/helpers/regtest-node.ts';
import { categoryIds, medianRun, summarize, type LighthouseResultLike, type PageSummary } from './lighthouse-summary.ts';

const runs = Number(process.argv[2] ?? 3);
const reportDir = process.argv[3];
if (!Number.isInteger(runs) || runs < 1) throw new RangeError(`runs must be a positive integer, got ${process.argv[2]}`);

const pages = [
  { name: 'explorer home', path: '/' },
  { name: 'block', path: '/#/block/1000' },
  { name: 'wallet', path: '/wallet.html' },
  { name: 'miner', path: '/miner.html' },
] as const;

/** The flags the e2e suite gives Chromium (playwright.config.ts) less WebGPU: keep it off a closed network. */
const chromeFlags = ['--headless', '--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

/** What ran, from the reports themselves: Lighthouse's version and the browser's user agent. */
let ranWith = '';

async function auditOnce(port: number, url: string, name: string, run: number): Promise<PageSummary> {
  const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: [...categoryIds] });
  if (!result) throw new Error(`${name}: Lighthouse returned no result`);
  ranWith = `Lighthouse ${result.lhr.lighthouseVersion}, ${result.lhr.environment.hostUserAgent.match(/(Headless)?Chrome\/[\d.]+/)?.[0] ?? 'Chromium'}`;
  if (reportDir) writeFileSync(join(reportDir, `${name.replace(/\W+/g, '-')}-${run}.json`), JSON.stringify(result.lhr));
  return summarize(name, result.lhr as unknown as LighthouseResultLike);
}

const node = await startRegtestNode(2_000);
const chrome = await chromeLauncher.launch({ chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', chromeFlags });
try {
  if (reportDir) mkdirSync(reportDir, { recursive: true });
  const rows: string[] = [];
  const failing = new Map<string, readonly string[]>();
  for (const { name, path } of pages) {
    const results: PageSummary[] = [];
    for (let run = 1; run <= runs; run++) results.push(await auditOnce(chrome.port, `${node.url}${path}`, name, run));
    const median = medianRun(results);
    const s = median.scores;
    rows.push(`| ${name} | ${s.performance} | ${s.accessibility} | ${s['best-practices']} | ${s.seo} | ${(median.fcpMs / 1000).toFixed(1)} s | ${results.map((r) => r.scores.performance).join(' ')} |`);
    failing.set(name, median.failing);
  }
  console.log(`${ranWith}, mobile profile, median of ${runs} runs per page`);
  console.log('| page | performance | accessibility | best practices | SEO | FCP | performance, every run |');
  console.log('|---|---:|---:|---:|---:|---:|---|');
  for (const row of rows) console.log(row);
  for (const [name, audits] of failing) if (audits.length) console.log(`\n${name}, audits below full marks (median run):\n  ${audits.join('\n  ')}`);
} finally {
  await chrome.kill();
  await node.stop();
}
