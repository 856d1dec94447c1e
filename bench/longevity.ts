/**
 * A node that runs for years (issue 18): how resident memory, start-up time and store size grow with the chain.
 * For each size, a regtest DAG of about one block a second (test/helpers/regtest-dag.ts, built once and cached under
 * `.tmp/`) is copied to a fresh datadir and `weft node` (bin/weft.mjs, as shipped) is started on it; the bench
 * prints the time from spawn to /health answering `ready`, the resident memory then (VmRSS, after a 2 s settle, and
 * the peak VmHWM) and the store's size on disk, then the ratio of the largest chain's figures to the smallest's.
 *
 * Three modes:
 * - sizes (default): plain regtest datadirs of the given block counts. `--baseline DIR` runs the same on another
 *   checkout (e.g. the landed code unpacked with `git archive <commit> | tar -x -C DIR` and node_modules linked in):
 *   its datadirs are built by its own regtest-dag.ts under DIR/.tmp, so each code reads the store layout it wrote.
 * - `--pruning-depth N [--windows 1,5,20]`: chains of k·N blocks (blue score ≈ block count on these DAGs) built
 *   with that pruning depth, pruning as they grow, each started with `--regtest-pruning-depth N`; beside them the
 *   same chains kept whole (`--archive`). The target (issue 18): the 20× figures within 1.25× of the 1× figures.
 * - `--mainnet-depths [sizes=604800]`: regtest PoW with mainnet's finality, merge and pruning depths; targets
 *   RSS ≤ 1 GB and start-up ≤ 3 s. Sizes build in ascending steps, each extending the last cached one; the first
 *   step's rate projects how long the largest will take.
 *
 * Without `--baseline`, the landed code's figures (issue 18, measured before the consensus stores and pruning)
 * are quoted beside the new ones.
 *
 *   npx tsx bench/longevity.ts [sizes=2000,10000,40000] [--baseline DIR] [--rounds N]
 *   npx tsx bench/longevity.ts --pruning-depth 1000 [--windows 1,5,20] [--rounds N]
 *   npx tsx bench/longevity.ts --mainnet-depths [20000,100000,...,604800]
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { mainnetParams, regtestParams } from '../src/consensus/params.ts';
import { bundleIsFresh } from '../bin/bundle-freshness.mjs';
import { datadirOf, measureRounds, type DatadirOptions, type Figures } from './longevity-node.ts';

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const value = args[at + 1];
  args.splice(at, 2);
  return value;
};
const flag = (name: string): boolean => {
  const at = args.indexOf(name);
  if (at >= 0) args.splice(at, 1);
  return at >= 0;
};
const baseline = option('--baseline');
const rounds = Number(option('--rounds') ?? 1);
const pruningDepth = option('--pruning-depth');
const windows = (option('--windows') ?? '1,5,20').split(',').map(Number);
const mainnetDepths = flag('--mainnet-depths');
const here = resolve(import.meta.dirname, '..');
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** Issue 18's figures for the landed code (before the consensus stores and pruning), quoted when no baseline runs. */
const landed = [
  { blocks: 10_000, rssMb: 281 },
  { blocks: 86_400, rssMb: 703, startSeconds: 8.3 },
  { blocks: 172_800, rssMb: 1_117, startSeconds: 17.8 },
];
function quoteLanded(): void {
  console.log('\nlanded code (issue 18, quoted: RSS grows ~4.8 KB a block, start-up ~0.1 s per 1,000 blocks, store ~1.7 KB per empty block)');
  for (const f of landed) console.log(`  ${String(f.blocks).padStart(7)} blocks: RSS ${f.rssMb} MB${f.startSeconds ? `, start ${f.startSeconds} s` : ''}, store ~${((f.blocks * 1.7) / 1024).toFixed(0)} MB`);
}

const pad = (text: string | number, width: number) => String(text).padStart(width);

function row(f: Figures): string {
  const p = f.pruning;
  const point = p === undefined ? '' : p.archive ? 'archive' : `${p.pruning_point_blue_score}${p.pruned_through === p.pruning_point ? '' : ' (round unfinished)'}`;
  const s = f.store;
  return `  ${pad(f.blocks, 7)}   ${pad(f.startSeconds.toFixed(2), 7)}   ${pad(f.restartSeconds.toFixed(2), 9)}   ${pad(Math.round(f.chainLoadMs), 13)}   ${pad(f.rssMb.toFixed(0), 6)}   ${pad(f.peakMb.toFixed(0), 7)}   ${pad(f.storeMb.toFixed(1), 8)}   ${pad(f.storeAfterMb.toFixed(1), 11)}   ${pad(((f.storeMb * 1024) / f.blocks).toFixed(2), 8)}   ${pad(s.pagesMb.toFixed(1), 8)}   ${pad(s.rowsMb.toFixed(1), 7)}   ${pad((s.everyBlockBytes / (f.blocks + 1)).toFixed(0), 11)}   ${point}`;
}
const header =
  '   blocks   start s   restart s   chain load ms   RSS MB   peak MB   store MB   after start   KB/block   pages MB   rows MB   H+cons B/bl   pruning point blue score';
const legend =
  '  start = spawn to /health ready on a copy of the built datadir; restart = a second start on the store the first left;\n' +
  '  store = the LMDB files on disk (before the node starts; "after start" once it ran: a start compacts a store over half free); pages = B-tree pages in use (the rest of the file is free pages LMDB reuses); rows = key + value bytes;\n' +
  '  H+cons B/bl = header and consensus rows (H C D K N O S), which a pruned node keeps for every block, per block';

function ratios(rows: readonly Figures[]): string {
  const first = rows[0]!;
  const last = rows[rows.length - 1]!;
  return `  ${last.blocks}/${first.blocks} blocks: start ${(last.startSeconds / first.startSeconds).toFixed(2)}×, restart ${(last.restartSeconds / first.restartSeconds).toFixed(2)}×, chain load ${(last.chainLoadMs / first.chainLoadMs).toFixed(2)}×, RSS ${(last.rssMb / first.rssMb).toFixed(2)}×, peak ${(last.peakMb / first.peakMb).toFixed(2)}×, store ${(last.storeMb / first.storeMb).toFixed(2)}× (after start ${(last.storeAfterMb / first.storeAfterMb).toFixed(2)}×), pages ${(last.store.pagesMb / first.store.pagesMb).toFixed(2)}×, rows ${(last.store.rowsMb / first.store.rowsMb).toFixed(2)}×`;
}

function print(label: string, rows: readonly Figures[]): void {
  console.log(`\n${label}`);
  console.log(legend);
  console.log(header);
  for (const f of rows) console.log(row(f));
  if (rows.length > 1) console.log(ratios(rows));
}

/** Fails loudly when a pruned node's /health shows no pruning where the chain is long enough to have pruned. */
function checkPruned(f: Figures, depth: number, finality: number): void {
  const p = f.pruning;
  if (!p || p.archive) throw new Error(`${f.blocks} blocks: /health reports ${JSON.stringify(p)} on a pruned node`);
  if (p.pruning_point === undefined || p.pruning_point_blue_score === undefined) throw new Error(`${f.blocks} blocks: /health names no pruning point`);
  // Blue score ≈ block count here; the point is the last finality-interval start at least `depth` below the tip.
  if (f.blocks >= depth + 2 * finality && p.pruning_point_blue_score === 0) throw new Error(`${f.blocks} blocks, pruning depth ${depth}: the pruning point is still genesis`);
  if (p.pruning_point_blue_score > f.blocks - depth) throw new Error(`${f.blocks} blocks: pruning point blue score ${p.pruning_point_blue_score} is less than ${depth} below the tip`);
  if (p.pruned_through !== p.pruning_point) console.log(`  note: ${f.blocks} blocks: the round to ${p.pruning_point} had not finished 2 s after start (pruned through ${p.pruned_through})`);
}

async function sizesMode(): Promise<void> {
  const sizes = (args[0] ?? '2000,10000,40000').split(',').map(Number);
  console.log(`longevity: sizes ${sizes.join(', ')}; rounds ${rounds}; load ${load()}`);
  const figuresFor = async (checkout: string): Promise<Figures[]> => {
    const out: Figures[] = [];
    for (const count of sizes) out.push(await measureRounds(checkout, datadirOf(checkout, count), count, [], rounds));
    return out;
  };
  const current = await figuresFor(here);
  print(`current code (${here})`, current);
  if (!baseline) return quoteLanded();
  const base = await figuresFor(resolve(baseline));
  print(`baseline (${resolve(baseline)})`, base);
  console.log('\ncurrent / baseline');
  for (let i = 0; i < sizes.length; i++) {
    const c = current[i]!;
    const b = base[i]!;
    console.log(`  ${pad(c.blocks, 7)} blocks: start ${(c.startSeconds / b.startSeconds).toFixed(2)}×, RSS ${(c.rssMb / b.rssMb).toFixed(2)}×, store ${(c.storeMb / b.storeMb).toFixed(2)}×`);
  }
}

async function pruningWindowsMode(depth: number): Promise<void> {
  const finality = regtestParams.finalityDepth;
  if (!(depth > finality)) throw new Error(`--pruning-depth must exceed the regtest finality depth (${finality})`);
  console.log(`longevity with pruning: pruning depth ${depth} (finality depth ${finality}); windows ${windows.join(', ')}×; rounds ${rounds}; load ${load()}`);
  const pruned: Figures[] = [];
  const archive: Figures[] = [];
  for (const k of windows) {
    const count = k * depth;
    const options: DatadirOptions = { pruningDepth: depth };
    const prunedFigures = await measureRounds(here, datadirOf(here, count, options), count, ['--regtest-pruning-depth', String(depth)], rounds);
    checkPruned(prunedFigures, depth, finality);
    pruned.push(prunedFigures);
    const archiveSource = datadirOf(here, count, { ...options, archive: true });
    const archiveFigures = await measureRounds(here, archiveSource, count, ['--archive', '--regtest-pruning-depth', String(depth)], rounds);
    if (!archiveFigures.pruning?.archive) throw new Error(`${count} blocks: /health reports ${JSON.stringify(archiveFigures.pruning)} on an archive node`);
    archive.push(archiveFigures);
    console.log(`  ${k}× (${count} blocks) measured; load ${load()}`);
  }
  print(`pruned (--regtest-pruning-depth ${depth})`, pruned);
  print(`archive (--archive), the same chains`, archive);
  console.log('\npruned / archive');
  for (let i = 0; i < pruned.length; i++) {
    const p = pruned[i]!;
    const a = archive[i]!;
    console.log(`  ${pad(p.blocks, 7)} blocks: start ${(p.startSeconds / a.startSeconds).toFixed(2)}×, RSS ${(p.rssMb / a.rssMb).toFixed(2)}×, store ${(p.storeMb / a.storeMb).toFixed(2)}×`);
  }
  const first = pruned[0]!;
  const last = pruned[pruned.length - 1]!;
  const within = (a: number, b: number) => (a / b <= 1.25 ? 'met' : 'NOT met');
  console.log(
    `\ntarget (issue 18): ${windows[windows.length - 1]}× within 1.25× of ${windows[0]}× — start ${within(last.startSeconds, first.startSeconds)}, RSS ${within(last.rssMb, first.rssMb)}, store ${within(last.storeMb, first.storeMb)} as built, ${within(last.storeAfterMb, first.storeAfterMb)} after a start (${(last.storeAfterMb / first.storeAfterMb).toFixed(2)}×)`,
  );
  quoteLanded();
}

async function mainnetDepthsMode(): Promise<void> {
  const sizes = (args[0] ?? '604800').split(',').map(Number).sort((a, b) => a - b);
  const { finalityDepth, mergeDepth, pruningDepth: depth } = mainnetParams;
  const options: DatadirOptions = { finalityDepth, mergeDepth, pruningDepth: depth };
  const flags = ['--regtest-finality-depth', String(finalityDepth), '--regtest-merge-depth', String(mergeDepth), '--regtest-pruning-depth', String(depth)];
  console.log(`longevity at mainnet depths (finality ${finalityDepth}, merge ${mergeDepth}, pruning ${depth}), regtest PoW: sizes ${sizes.join(', ')}; rounds ${rounds}; load ${load()}`);
  console.log(legend);
  console.log(header);
  const rows: Figures[] = [];
  let built = 0;
  for (const count of sizes) {
    const began = performance.now();
    const source = datadirOf(here, count, options);
    const seconds = (performance.now() - began) / 1000;
    if (seconds > 5) {
      const msPerBlock = (seconds * 1000) / (count - built);
      const largest = sizes[sizes.length - 1]!;
      console.log(`  ${count - built} blocks built at ${msPerBlock.toFixed(2)} ms a block (load ${load()}); ${largest} blocks: ~${((msPerBlock * (largest - count)) / 60_000).toFixed(0)} min more`);
    }
    built = count;
    const figures = await measureRounds(here, source, count, flags, rounds);
    if (count >= depth + 2 * finalityDepth) checkPruned(figures, depth, finalityDepth);
    rows.push(figures);
    console.log(row(figures));
  }
  const last = rows[rows.length - 1]!;
  console.log(`\ntarget (issue 18) at ${last.blocks} blocks: RSS ${last.rssMb.toFixed(0)} MB ≤ 1,024 MB ${last.rssMb <= 1024 ? 'met' : 'NOT met'}; start ${last.startSeconds.toFixed(2)} s ≤ 3 s ${last.startSeconds <= 3 ? 'met' : 'NOT met'}, restart ${last.restartSeconds.toFixed(2)} s ${last.restartSeconds <= 3 ? 'met' : 'NOT met'}`);
  if (rows.length > 1) console.log(ratios(rows));
  quoteLanded();
}

// Start-up and memory depend on it (docs/operations.md "Start-up"): the bundle when `npm run build` is current.
console.log(`weft runs from ${bundleIsFresh() ? 'its bundle (build/node)' : 'the TypeScript sources through tsx (no current bundle: npm run build)'}`);
if (pruningDepth !== undefined) await pruningWindowsMode(Number(pruningDepth));
else if (mainnetDepths) await mainnetDepthsMode();
else await sizesMode();
