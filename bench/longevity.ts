/**
 * A node that runs for years (issue 18): how resident memory, start-up time and store size grow with the chain.
 * For each size, a regtest DAG of about one block a second (test/helpers/regtest-dag.ts, built once and cached under
 * `.tmp/`) is copied to a fresh datadir and `weft node` (bin/weft.mjs, as shipped) is started on it; the bench
 * prints the time from spawn to /health answering `ready`, the resident memory then (VmRSS, after a 2 s settle, and
 * the peak VmHWM) and the store's size on disk, then the ratio of the largest chain's figures to the smallest's.
 *
 * `--baseline DIR` runs the same on another checkout (e.g. the landed code unpacked with
 * `git archive <commit> | tar -x -C DIR` and node_modules linked in): its datadirs are built by its own
 * regtest-dag.ts under DIR/.tmp, so each code reads the store layout it wrote. The baseline's figures print beside
 * the current code's, with the current/baseline ratio per size.
 *
 *   npx tsx bench/longevity.ts [sizes=2000,10000,40000] [--baseline DIR] [--rounds N]
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

interface Figures {
  readonly blocks: number;
  readonly startSeconds: number;
  readonly rssMb: number;
  readonly peakMb: number;
  readonly storeMb: number;
  /** The node's own "chain loaded" line: how long opening the chain took (ms). */
  readonly chainLoadMs: number;
}

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const value = args[at + 1];
  args.splice(at, 2);
  return value;
};
const baseline = option('--baseline');
const rounds = Number(option('--rounds') ?? 1);
const sizes = (args[0] ?? '2000,10000,40000').split(',').map(Number);
const here = resolve(import.meta.dirname, '..');

/** Builds (or finds cached) the datadir of `count` blocks with `checkout`'s own regtest-dag.ts, in a child process. */
function datadirOf(checkout: string, count: number): string {
  const helper = pathToFileURL(join(checkout, 'test/helpers/regtest-dag.ts')).href;
  const script = `const m = await import(${JSON.stringify(helper)}); console.log(await m.regtestDatadir(${count}));`;
  const began = performance.now();
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: checkout, encoding: 'utf8', maxBuffer: 1 << 26 });
  if (run.status !== 0) throw new Error(`building ${count} blocks in ${checkout} failed: ${run.stderr.slice(-2000)}`);
  const seconds = (performance.now() - began) / 1000;
  if (seconds > 5) console.log(`  built ${count} blocks in ${checkout} in ${seconds.toFixed(0)} s`);
  return run.stdout.trim().split('\n').pop()!;
}

function storeBytes(datadir: string): number {
  const dir = join(datadir, 'chain');
  return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
}

function memoryMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)![1]);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

async function health(port: number): Promise<{ ready?: boolean; blocks?: number } | undefined> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/health`);
    return (await res.json()) as { ready?: boolean; blocks?: number };
  } catch {
    return undefined;
  }
}

/** Starts `checkout`'s weft node on a copy of `source`; measures and stops it. */
async function measure(checkout: string, source: string, count: number): Promise<Figures> {
  const datadir = mkdtempSync(join(tmpdir(), 'weft-longevity-'));
  try {
    cpSync(source, datadir, { recursive: true });
    const storeMb = storeBytes(datadir) / 2 ** 20;
    const began = performance.now();
    const child = spawn(
      process.execPath,
      [join(checkout, 'bin/weft.mjs'), 'node', '--network', 'regtest', '--datadir', datadir, '--rpc-port', '0', '--ws-port', '0', '--p2p-port', '0'],
      { cwd: checkout, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<void>((done) => child.on('exit', () => done()));
    let port = 0;
    let chainLoadMs = Number.NaN;
    createInterface({ input: child.stdout }).on('line', (text) => {
      try {
        const line = JSON.parse(text) as { msg?: string; port?: number; ms?: number };
        if (line.msg === 'http listening') port = line.port!;
        if (line.msg === 'chain loaded') chainLoadMs = line.ms!;
      } catch {
        // not a log line
      }
    });
    try {
      for (;;) {
        if (child.exitCode !== null) throw new Error(`node exited ${child.exitCode}: ${stderr.slice(-2000)}`);
        if (performance.now() - began > 600_000) throw new Error('node not ready after 600 s');
        if (port > 0) {
          const answer = await health(port);
          if (answer?.ready) {
            if (answer.blocks !== count + 1) throw new Error(`node reports ${answer.blocks} blocks, expected ${count + 1}`);
            break;
          }
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      const startSeconds = (performance.now() - began) / 1000;
      await new Promise((r) => setTimeout(r, 2_000));
      const { rss, peak } = memoryMb(child.pid!);
      return { blocks: count, startSeconds, rssMb: rss, peakMb: peak, storeMb, chainLoadMs };
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  } finally {
    rmSync(datadir, { recursive: true, force: true });
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function figuresFor(checkout: string): Promise<Figures[]> {
  const out: Figures[] = [];
  for (const count of sizes) {
    const source = datadirOf(checkout, count);
    const runs: Figures[] = [];
    for (let r = 0; r < rounds; r++) runs.push(await measure(checkout, source, count));
    const pick = (f: (x: Figures) => number) => median(runs.map(f));
    out.push({
      blocks: count,
      startSeconds: pick((x) => x.startSeconds),
      rssMb: pick((x) => x.rssMb),
      peakMb: pick((x) => x.peakMb),
      storeMb: runs[0]!.storeMb,
      chainLoadMs: pick((x) => x.chainLoadMs),
    });
  }
  return out;
}

function print(label: string, rows: readonly Figures[]): void {
  console.log(`\n${label}`);
  console.log('  blocks   start s   chain load ms   RSS MB   peak MB   store MB   store KB/block');
  for (const f of rows) {
    console.log(
      `  ${String(f.blocks).padStart(6)}   ${f.startSeconds.toFixed(2).padStart(7)}   ${String(Math.round(f.chainLoadMs)).padStart(13)}   ${f.rssMb.toFixed(0).padStart(6)}   ${f.peakMb.toFixed(0).padStart(7)}   ${f.storeMb.toFixed(1).padStart(8)}   ${((f.storeMb * 1024) / f.blocks).toFixed(2).padStart(14)}`,
    );
  }
  const first = rows[0]!;
  const last = rows[rows.length - 1]!;
  console.log(
    `  ${last.blocks}/${first.blocks} blocks: start ${(last.startSeconds / first.startSeconds).toFixed(2)}×, RSS ${(last.rssMb / first.rssMb).toFixed(2)}×, store ${(last.storeMb / first.storeMb).toFixed(2)}×`,
  );
}

console.log(`longevity: sizes ${sizes.join(', ')}; rounds ${rounds}; load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
const current = await figuresFor(here);
print(`current code (${here})`, current);
if (baseline) {
  const base = await figuresFor(resolve(baseline));
  print(`baseline (${resolve(baseline)})`, base);
  console.log('\ncurrent / baseline');
  for (let i = 0; i < sizes.length; i++) {
    const c = current[i]!;
    const b = base[i]!;
    console.log(`  ${String(c.blocks).padStart(6)} blocks: start ${(c.startSeconds / b.startSeconds).toFixed(2)}×, RSS ${(c.rssMb / b.rssMb).toFixed(2)}×, store ${(c.storeMb / b.storeMb).toFixed(2)}×`);
  }
}
