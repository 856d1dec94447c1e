import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeLevelParents, levelOfBlock, sameLevelParents, type LevelParentsSource } from '../../../src/chain/level-parents.ts';
import { encodeHeader, decodeHeader, type BlockHeader, type LevelParentsRun } from '../../../src/codec/header.ts';
import { createGhostdagEngine, type GhostdagEngine } from '../../../src/consensus/ghostdag.ts';
import { maxTargetDefault } from '../../../src/consensus/params.ts';
import { headerLevelsCovered } from '../../../src/limits.ts';
import { fromHex, toHex } from '../../../src/util/bytes.ts';
import { dagArbitrary, pastBfs, type TestDag } from '../../consensus-dags.ts';

const topLevel = headerLevelsCovered;

/** A version 2 header carrying `runs`; the other fields do not matter to level parents. */
function headerWith(parents: readonly string[], runs: LevelParentsRun[] | undefined): BlockHeader {
  return {
    version: runs === undefined ? 1 : 2,
    parents: parents.map(fromHex).sort((a, b) => (toHex(a) < toHex(b) ? -1 : 1)),
    txRoot: new Uint8Array(32),
    stateRoot: new Uint8Array(32),
    timestampMs: 0,
    bits: 0,
    daaScore: 0,
    blueScore: 0,
    blueWork: 0n,
    miner: new Uint8Array(33),
    gpuMining: false,
    nonce: 0n,
    ...(runs === undefined ? {} : { levelParents: runs, pruningPoint: new Uint8Array(32) }),
  };
}

/** Builds the DAG in an engine, each block's header carrying the runs computeLevelParents gives it. */
function buildDag(dag: TestDag, levels: readonly number[], maxParents?: number): { engine: GhostdagEngine; headers: Map<string, BlockHeader>; source: LevelParentsSource } {
  const engine = createGhostdagEngine({ k: 18 });
  const headers = new Map<string, BlockHeader>();
  const levelById = new Map(dag.ids.map((id, i) => [id, i === 0 ? topLevel : levels[i]!]));
  const source: LevelParentsSource = {
    header: (id) => headers.get(id)!,
    level: (id) => levelById.get(id)!,
    hasReachability: () => true,
    isDagAncestorOf: (a, b) => engine.isDagAncestorOf(a, b),
    blueWork: (id) => engine.get(id)!.blueWork,
  };
  engine.addGenesis(dag.ids[0]!, 1n);
  headers.set(dag.ids[0]!, headerWith([], undefined));
  for (let b = 1; b < dag.ids.length; b++) {
    const parentIds = dag.parents[b]!.map((p) => dag.ids[p]!);
    const runs = computeLevelParents(source, parentIds, maxParents === undefined ? {} : { maxParents });
    const data = engine.addBlock(dag.ids[b]!, parentIds, 1n);
    headers.set(dag.ids[b]!, { ...headerWith(parentIds, runs), blueScore: data.blueScore });
  }
  return { engine, headers, source };
}

/** The oracle: the maximal blocks of level ≥ L in b's past, by plain BFS over parents. */
function maximalAtLevel(dag: TestDag, pasts: readonly Set<number>[], levels: readonly number[], b: number, level: number): string[] {
  const levelOf = (i: number): number => (i === 0 ? topLevel : levels[i]!);
  const high = [...pasts[b]!].filter((x) => levelOf(x) >= level);
  return high.filter((x) => !high.some((y) => y !== x && pasts[y]!.has(x))).map((x) => dag.ids[x]!).sort();
}

const expand = (runs: readonly LevelParentsRun[]): string[][] => runs.flatMap((run) => Array.from({ length: run.levels }, () => run.parents.map(toHex)));

describe('level parents', () => {
  it('equal the maximal level-≥L blocks of the past at every level, on random DAGs', () => {
    // Levels 0..7, geometric like real ones (one block in 2^j at level ≥ j), so several levels have runs of their own.
    const levelArb = fc.array(fc.integer({ min: 0, max: 255 }).map((r) => Math.min(7, Math.clz32(r) - 24)), { minLength: 60, maxLength: 60 });
    fc.assert(
      fc.property(dagArbitrary(45), levelArb, (dag, levels) => {
        const { headers } = buildDag(dag, levels, 1_000);
        const pasts = dag.ids.map((_, b) => pastBfs(dag.parents, b));
        for (let b = 1; b < dag.ids.length; b++) {
          const byLevel = expand(headers.get(dag.ids[b]!)!.levelParents!);
          expect(byLevel.length).toBe(topLevel);
          for (let level = 1; level <= topLevel; level++) {
            expect(byLevel[level - 1]!.sort()).toEqual(maximalAtLevel(dag, pasts, levels, b, level));
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it('give the same runs when the older blocks are held as headers only (pruned, or below a join)', () => {
    const levelArb = fc.array(fc.integer({ min: 0, max: 255 }).map((r) => Math.min(7, Math.clz32(r) - 24)), { minLength: 60, maxLength: 60 });
    fc.assert(
      fc.property(dagArbitrary(45), levelArb, fc.integer({ min: 1, max: 30 }), (dag, levels, cut) => {
        const { engine, headers, source } = buildDag(dag, levels, 1_000);
        // Everything below a blue score loses its reachability data, as on a pruned node; the engine must not be asked.
        const kept = (id: string): boolean => engine.get(id)!.blueScore >= cut;
        const pruned: LevelParentsSource = {
          ...source,
          hasReachability: kept,
          isDagAncestorOf: (a, b) => {
            if (!kept(a) || !kept(b)) throw new Error(`asked the engine about a pruned block (${a.slice(0, 4)}, ${b.slice(0, 4)})`);
            return engine.isDagAncestorOf(a, b);
          },
        };
        for (let b = 1; b < dag.ids.length; b++) {
          const parentIds = dag.parents[b]!.map((p) => dag.ids[p]!);
          if (!parentIds.every(kept)) continue;
          const runs = computeLevelParents(pruned, parentIds, { maxParents: 1_000 });
          expect(sameLevelParents(runs, headers.get(dag.ids[b]!)!.levelParents!)).toBe(true);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('gives canonical runs: the codec takes them and re-encodes the same bytes', () => {
    fc.assert(
      fc.property(dagArbitrary(30), fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 30, maxLength: 30 }), (dag, levels) => {
        const { headers } = buildDag(dag, levels);
        for (const id of dag.ids.slice(1)) {
          const header = headers.get(id)!;
          const back = decodeHeader(encodeHeader(header));
          expect(sameLevelParents(back.levelParents!, header.levelParents!)).toBe(true);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('keeps the headerParentsMax candidates of highest blue work (ties: higher hash) when more are maximal', () => {
    // genesis → A1..A12 (level 5), P1 on A1..A10 and P2 on A11, A12 (level 0), B on P1, P2: B's level-1 candidates
    // are the twelve A's, an antichain.
    const ids = Array.from({ length: 16 }, (_, i) => i.toString(16).padStart(2, '0').repeat(32));
    const parents = [[], ...Array.from({ length: 12 }, () => [0]), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [11, 12], [13, 14]];
    const levels = [topLevel, ...Array.from({ length: 12 }, () => 5), 0, 0, 0];
    const dag: TestDag = { ids: ids.slice(0, 16), parents };
    const { headers } = buildDag(dag, levels);
    const b = headers.get(ids[15]!)!;
    const kept = ids.slice(1, 13).sort().reverse().slice(0, 10).sort();
    expect(b.levelParents![0]).toEqual({ levels: 5, parents: kept.map(fromHex) });
    expect(b.levelParents![1]).toEqual({ levels: topLevel - 5, parents: [fromHex(ids[0]!)] });
  });

  it('reads a real block level from its id, genesis at the top', () => {
    const genesisId = 'ff'.repeat(32);
    const levelOf = levelOfBlock(maxTargetDefault, genesisId);
    expect(levelOf(genesisId)).toBe(255);
    expect(levelOf('7f' + 'ff'.repeat(31))).toBe(0);
    expect(levelOf('00' + '3f' + 'ff'.repeat(30))).toBe(9);
  });
});
