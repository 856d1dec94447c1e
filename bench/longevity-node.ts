/**
 * bench/longevity.ts's two instruments: building (or finding cached) a regtest datadir with a checkout's own
 * test/helpers/regtest-dag.ts, and starting that checkout's `weft node` (bin/weft.mjs, as shipped) on a copy of it
 * to measure start-up, resident memory and the store on disk.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { open } from 'lmdb';

export interface Figures {
  readonly blocks: number;
  readonly startSeconds: number;
  /** A second start on the store the first left (compacted if it was sparse): what every later start costs. */
  readonly restartSeconds: number;
  readonly rssMb: number;
  readonly peakMb: number;
  readonly storeMb: number;
  /** The LMDB files once the node ran and stopped (a start may compact a sparse store, server/storage/compact-store.ts). */
  readonly storeAfterMb: number;
  /** The node's own "chain loaded" line: how long opening the chain took (ms). */
  readonly chainLoadMs: number;
  readonly store: StoreUse;
  /** /health's `pruning` object (docs/api.md "Health"); undefined on code that predates pruning. */
  readonly pruning?: HealthPruning;
}

export interface HealthPruning {
  readonly archive: boolean;
  readonly pruning_point?: string;
  readonly pruning_point_blue_score?: number;
  readonly pruning_point_height?: number;
  readonly pruned_through?: string;
  readonly running?: boolean;
}

/** regtestDatadir's options (test/helpers/regtest-dag.ts); only the current code's helper takes them. */
export interface DatadirOptions {
  readonly pruningDepth?: number;
  readonly finalityDepth?: number;
  readonly mergeDepth?: number;
  readonly archive?: boolean;
}

/** Builds (or finds cached) the datadir of `count` blocks with `checkout`'s own regtest-dag.ts, in a child process. */
export function datadirOf(checkout: string, count: number, options?: DatadirOptions): string {
  const helper = pathToFileURL(join(checkout, 'test/helpers/regtest-dag.ts')).href;
  const passed = options === undefined ? '' : `, ${JSON.stringify(options)}`;
  const script = `const m = await import(${JSON.stringify(helper)}); console.log(await m.regtestDatadir(${count}${passed}));`;
  const began = performance.now();
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: checkout, encoding: 'utf8', maxBuffer: 1 << 26 });
  if (run.status !== 0) throw new Error(`building ${count} blocks in ${checkout} failed: ${run.stderr.slice(-2000)}`);
  const seconds = (performance.now() - began) / 1000;
  if (seconds > 5) console.log(`  built ${count} blocks ${JSON.stringify(options ?? {})} in ${checkout} in ${seconds.toFixed(0)} s`);
  return run.stdout.trim().split('\n').pop()!;
}

/** The store's files on disk (LMDB's data file keeps its high-water mark: freed pages are reused, not returned). */
function storeBytes(datadir: string): number {
  const dir = join(datadir, 'chain');
  return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
}

/** What a store holds, beside its size on disk: docs/storage.md's tables, key and value bytes. */
export interface StoreUse {
  /** B-tree pages in use (branch, leaf, overflow) × page size: the file less LMDB's free pages. */
  readonly pagesMb: number;
  /** Key + value bytes of every row. */
  readonly rowsMb: number;
  /** Key + value bytes of the rows a pruned node keeps for every block: headers (H) and consensus rows (C D K N O S). */
  readonly everyBlockBytes: number;
}

const keptForEveryBlock = new Set(['H', 'C', 'D', 'K', 'N', 'O', 'S']);

async function storeUse(datadir: string): Promise<StoreUse> {
  const root = open<Buffer, Buffer>({ path: join(datadir, 'chain'), keyEncoding: 'binary', encoding: 'binary', compression: false, readOnly: true });
  try {
    let rows = 0;
    let everyBlock = 0;
    for (const { key, value } of root.getRange({})) {
      rows += key.length + value.length;
      if (keptForEveryBlock.has(String.fromCharCode(key[0]!))) everyBlock += key.length + value.length;
    }
    const stats = root.getStats() as { pageSize: number; treeBranchPageCount: number; treeLeafPageCount: number; overflowPages: number };
    const pages = stats.treeBranchPageCount + stats.treeLeafPageCount + stats.overflowPages;
    return { pagesMb: (pages * stats.pageSize) / 2 ** 20, rowsMb: rows / 2 ** 20, everyBlockBytes: everyBlock };
  } finally {
    await root.close();
  }
}

function memoryMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)![1]);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

interface Health {
  ready?: boolean;
  blocks?: number;
  pruning?: HealthPruning;
}

async function health(port: number): Promise<Health | undefined> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/health`);
    return (await res.json()) as Health;
  } catch {
    return undefined;
  }
}

interface RunningNode {
  readonly pid: number;
  readonly port: number;
  /** Spawn to /health answering ready. */
  readonly startSeconds: number;
  readonly chainLoadMs: number;
  readonly health: Health;
  stop(): Promise<void>;
}

/** Spawns `checkout`'s weft node on `datadir` and waits for /health to answer ready with `count` + genesis blocks. */
async function startUntilReady(checkout: string, datadir: string, count: number, flags: readonly string[]): Promise<RunningNode> {
  const began = performance.now();
  const child = spawn(
    process.execPath,
    [join(checkout, 'bin/weft.mjs'), 'node', '--network', 'regtest', '--datadir', datadir, '--rpc-port', '0', '--ws-port', '0', '--p2p-port', '0', ...flags],
    { cwd: checkout, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((done) => child.on('exit', () => done()));
  // A node that does not stop within 30 s is killed and the bench fails: its next start would measure a leftover.
  const stop = async (): Promise<void> => {
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(killer);
    if (child.signalCode === 'SIGKILL') throw new Error(`node did not stop within 30 s of SIGTERM: ${stderr.slice(-2000)}`);
  };
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
          return { pid: child.pid!, port, startSeconds: (performance.now() - began) / 1000, chainLoadMs, health: answer, stop };
        }
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Starts `checkout`'s weft node (with `flags` after the common ones) on a copy of `source`; measures and stops it,
 * then starts it once more on the store that start left (compacted, its pruning round finished) and times that.
 * Throws when /health's block count is not `count` + genesis.
 */
export async function measure(checkout: string, source: string, count: number, flags: readonly string[] = []): Promise<Figures> {
  const datadir = mkdtempSync(join(tmpdir(), 'weft-longevity-'));
  try {
    cpSync(source, datadir, { recursive: true });
    const storeMb = storeBytes(datadir) / 2 ** 20;
    const store = await storeUse(datadir);
    const first = await startUntilReady(checkout, datadir, count, flags);
    let figures: Omit<Figures, 'storeAfterMb' | 'restartSeconds'>;
    try {
      await new Promise((r) => setTimeout(r, 2_000));
      const { rss, peak } = memoryMb(first.pid);
      // The pruning object after the settle: a round the node resumed at start has had its chance to finish.
      const pruning = (await health(first.port))?.pruning ?? first.health.pruning;
      figures = { blocks: count, startSeconds: first.startSeconds, rssMb: rss, peakMb: peak, storeMb, store, chainLoadMs: first.chainLoadMs, pruning };
    } finally {
      await first.stop();
    }
    const storeAfterMb = storeBytes(datadir) / 2 ** 20;
    const second = await startUntilReady(checkout, datadir, count, flags);
    await second.stop();
    return { ...figures, storeAfterMb, restartSeconds: second.startSeconds };
  } finally {
    rmSync(datadir, { recursive: true, force: true });
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** `rounds` measurements of one datadir, each figure the median (store and pruning from the first). */
export async function measureRounds(checkout: string, source: string, count: number, flags: readonly string[], rounds: number): Promise<Figures> {
  const runs: Figures[] = [];
  for (let r = 0; r < rounds; r++) runs.push(await measure(checkout, source, count, flags));
  const pick = (f: (x: Figures) => number) => median(runs.map(f));
  return {
    blocks: count,
    startSeconds: pick((x) => x.startSeconds),
    restartSeconds: pick((x) => x.restartSeconds),
    rssMb: pick((x) => x.rssMb),
    peakMb: pick((x) => x.peakMb),
    storeMb: runs[0]!.storeMb,
    storeAfterMb: runs[0]!.storeAfterMb,
    store: runs[0]!.store,
    chainLoadMs: pick((x) => x.chainLoadMs),
    pruning: runs[0]!.pruning,
  };
}
