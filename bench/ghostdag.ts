/**
 * GHOSTDAG engine insertion speed: 100,000 blocks of a random DAG of width ~3 (each block sees the DAG as it was
 * 0–5 blocks ago and takes all its tips as parents), inserted in order as a node does when it rebuilds the engine at
 * start. Prints blocks/s for the first and the last 10,000 blocks and their ratio (the baseline is the first 10,000
 * of the same run): a ratio near 1 means per-block cost does not grow with the DAG.
 *
 * Run: npx tsx bench/ghostdag.ts [blocks]
 */
import { type GhostdagEngine, createGhostdagEngine } from '../src/consensus/ghostdag.ts';
import { networkDag } from '../test/consensus-dags.ts';

const blocksTotal = Number(process.argv[2] ?? 100_000);
const windowBlocks = 10_000;
/** A block sees the DAG as it was 0..lagMax blocks earlier: with 5, a block has 2.8 parents on average (width ~3). */
const lagMax = 5;

/** Inserts the DAG into a fresh engine; returns blocks/s per window of `windowBlocks` and the mean mergeset size. */
function insertAll(dag: { ids: string[]; parents: number[][] }): { windows: number[]; mergesetMean: number; engine: GhostdagEngine } {
  const engine = createGhostdagEngine({ k: 18 });
  engine.addGenesis(dag.ids[0]!, 1n);
  const windows: number[] = [];
  let mergesetSum = 0;
  let t0 = performance.now();
  let windowStart = 1;
  for (let i = 1; i < dag.ids.length; i++) {
    const data = engine.addBlock(
      dag.ids[i]!,
      dag.parents[i]!.map((p) => dag.ids[p]!),
      1n,
    );
    mergesetSum += data.mergesetSize;
    if (i % windowBlocks === 0 || i === dag.ids.length - 1) {
      const t1 = performance.now();
      windows.push((i + 1 - windowStart) / ((t1 - t0) / 1000));
      windowStart = i + 1;
      t0 = t1;
    }
  }
  return { windows, mergesetMean: mergesetSum / (dag.ids.length - 1), engine };
}

// Warm the JIT on other DAGs first (two passes: optimised code settles after ~40,000 blocks), so the first window
// measures the engine rather than the compiler.
for (const seed of [0xbeef, 0xcafe]) insertAll(networkDag(2 * windowBlocks, seed, lagMax));
const dag = networkDag(blocksTotal, 0xdab, lagMax);
const { windows, mergesetMean, engine } = insertAll(dag);
const first = windows[0]!;
const last = windows[windows.length - 1]!;
const stats = engine.stats();
console.log(`ghostdag insert: ${blocksTotal} blocks, k=18, mean mergeset ${mergesetMean.toFixed(2)}, mean parents ${(dag.parents.reduce((s, p) => s + p.length, 0) / (blocksTotal - 1)).toFixed(2)}`);
console.log(`first ${windowBlocks}: ${first.toFixed(0)} blocks/s (baseline)`);
console.log(`last  ${windowBlocks}: ${last.toFixed(0)} blocks/s`);
console.log(`ratio last/first: ${(last / first).toFixed(2)}`);
console.log(`every window (blocks/s): ${windows.map((w) => w.toFixed(0)).join(' ')}`);
console.log(`per block: ${(stats.reachabilityQueries / stats.blocks).toFixed(1)} reachability queries, ${(stats.storeReads / stats.blocks).toFixed(1)} store reads, ${(stats.reachability.intervalWrites / stats.blocks).toFixed(1)} interval writes; ${stats.reachability.reindexes} reindexes, ${stats.reachability.concentrations} root moves`);
