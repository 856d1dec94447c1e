import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createGhostdagEngine } from '../../../src/consensus/ghostdag.ts';
import { exponentialFractions, splitExponentialSizes } from '../../../src/consensus/reachability-interval.ts';
import { type ReachabilityCounters, createReachabilityIndex } from '../../../src/consensus/reachability.ts';
import { type TestDag, dagArbitrary, networkDag, pastBfs, pastMasks } from '../../consensus-dags.ts';

const has = (mask: bigint, i: number): boolean => ((mask >> BigInt(i)) & 1n) === 1n;

/** Selected-parent chains: chain[b] = the set of b's chain ancestors (b excluded). */
function chains(selectedParent: readonly number[]): Set<number>[] {
  const out: Set<number>[] = [];
  for (let b = 0; b < selectedParent.length; b++) {
    const sp = selectedParent[b]!;
    out.push(sp < 0 ? new Set() : new Set([...out[sp]!, sp]));
  }
  return out;
}

const totals = { reindexes: 0, reindexesBeforeRoot: 0, concentrations: 0 };
function addTotals(c: ReachabilityCounters): void {
  totals.reindexes += c.reindexes;
  totals.reindexesBeforeRoot += c.reindexesBeforeRoot;
  totals.concentrations += c.concentrations;
}

describe('reachability index on its own (selected parent = highest tree, then newest)', () => {
  it('answers chain and DAG queries like a naive reference, through reindexing and reindex-root moves', () => {
    const params = fc.record({
      capacity: fc.integer({ min: 2 ** 14, max: 2 ** 24 }),
      reindexDepth: fc.integer({ min: 1, max: 6 }),
      reindexSlack: fc.integer({ min: 1, max: 8 }),
      hintEvery: fc.boolean(),
    });
    fc.assert(
      fc.property(dagArbitrary(60), params, (dag, { hintEvery, ...options }) => {
        const reach = createReachabilityIndex(options);
        const past = pastMasks(dag.parents);
        const sp: number[] = [-1];
        let best = 0;
        reach.addRoot(0);
        for (let b = 1; b < dag.parents.length; b++) {
          const ps = dag.parents[b]!;
          const s = ps.reduce((x, y) => (reach.height(y) > reach.height(x) || (reach.height(y) === reach.height(x) && y > x) ? y : x));
          const below = past[s]! | (1n << BigInt(s));
          const mergeset: number[] = [];
          for (let a = 0; a < b; a++) if (has(past[b]!, a) && !has(below, a)) mergeset.push(a);
          reach.addBlock(b, s, mergeset);
          sp.push(s);
          if (hintEvery || reach.height(b) > reach.height(best)) {
            best = b;
            reach.hintSelectedTip(b);
          }
        }
        reach.validate(dag.parents.length);
        addTotals(reach.counters());
        const chain = chains(sp);
        for (let a = 0; a < dag.parents.length; a++) {
          for (let b = 0; b < dag.parents.length; b++) {
            expect(reach.isDagAncestor(a, b)).toBe(a === b || has(past[b]!, a));
            expect(reach.isChainAncestor(a, b)).toBe(a === b || chain[b]!.has(a));
          }
        }
      }),
      { numRuns: 200 },
    );
    // The runs went through every reindex path (fresh space, slack borrowed before the root, root moves).
    expect(totals.reindexes).toBeGreaterThan(0);
    expect(totals.reindexesBeforeRoot).toBeGreaterThan(0);
    expect(totals.concentrations).toBeGreaterThan(0);
  });

  it('a long chain in a small interval space stays valid', () => {
    // 2^16 points halve out in 16 blocks, so the chain below the reindex root (40 deep) must be reindexed.
    const reach = createReachabilityIndex({ capacity: 2 ** 16, reindexDepth: 40, reindexSlack: 2 });
    reach.addRoot(0);
    for (let b = 1; b < 2_000; b++) {
      reach.addBlock(b, b - 1, []);
      reach.hintSelectedTip(b);
    }
    reach.validate(2_000);
    expect(reach.isChainAncestor(0, 1_999)).toBe(true);
    expect(reach.isChainAncestor(1_000, 999)).toBe(false);
    expect(reach.counters().reindexes).toBeGreaterThan(0);
    expect(reach.counters().concentrations).toBeGreaterThan(0);
  });
});

describe('reachability through the GHOSTDAG engine', () => {
  function check(dag: TestDag, options: Parameters<typeof createGhostdagEngine>[0]): void {
    const engine = createGhostdagEngine(options);
    engine.addGenesis(dag.ids[0]!, 1n);
    for (let i = 1; i < dag.ids.length; i++) engine.addBlock(dag.ids[i]!, dag.parents[i]!.map((p) => dag.ids[p]!), 1n);
    const sp = dag.ids.map((id) => {
      const s = engine.get(id)!.selectedParent;
      return s === null ? -1 : dag.ids.indexOf(s);
    });
    const chain = chains(sp);
    for (let b = 0; b < dag.ids.length; b++) {
      const past = pastBfs(dag.parents, b);
      for (let a = 0; a < dag.ids.length; a++) {
        expect(engine.isDagAncestorOf(dag.ids[a]!, dag.ids[b]!)).toBe(past.has(a));
        expect(engine.isChainAncestorOf(dag.ids[a]!, dag.ids[b]!)).toBe(chain[b]!.has(a));
      }
    }
  }

  it('agrees with a BFS over parents on random DAGs (small interval space, so reindexing happens)', () => {
    fc.assert(
      fc.property(dagArbitrary(50), fc.integer({ min: 0, max: 5 }), (dag, k) => {
        check(dag, { k, reachability: { capacity: 2 ** 16, reindexDepth: 3, reindexSlack: 4 } });
      }),
      { numRuns: 100 },
    );
  });

  it('agrees with the reference on a 3,000-block network DAG at default parameters', () => {
    const dag = networkDag(3_000, 11);
    const engine = createGhostdagEngine({ k: 18 });
    engine.addGenesis(dag.ids[0]!, 1n);
    for (let i = 1; i < dag.ids.length; i++) engine.addBlock(dag.ids[i]!, dag.parents[i]!.map((p) => dag.ids[p]!), 1n);
    const past = pastMasks(dag.parents);
    const stats = engine.stats().reachability;
    expect(stats.concentrations).toBeGreaterThan(0); // the reindex root moved along the chain
    expect(stats.reindexes).toBeGreaterThan(0);
    for (let b = 0; b < dag.ids.length; b += 7) {
      // Every block near b, and a spread of older ones.
      for (let a = Math.max(0, b - 60); a < Math.min(dag.ids.length, b + 60); a++) {
        expect(engine.isDagAncestorOf(dag.ids[a]!, dag.ids[b]!)).toBe(has(past[b]!, a));
      }
      for (let a = 0; a < b; a += 97) expect(engine.isDagAncestorOf(dag.ids[a]!, dag.ids[b]!)).toBe(has(past[b]!, a));
    }
  });
});

describe('reachability interval splitting', () => {
  it('splitExponentialSizes keeps every subtree size and hands the spare space mostly to the largest', () => {
    expect(splitExponentialSizes(10, [3, 2, 5])).toEqual([3, 2, 5]);
    const parts = splitExponentialSizes(1_000_000, [1, 20, 1]);
    expect(parts.reduce((a, b) => a + b, 0)).toBe(1_000_000);
    expect(parts[1]!).toBeGreaterThan(999_990);
    expect(exponentialFractions([2, 2])).toEqual([0.5, 0.5]);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 200 }), { minLength: 1, maxLength: 8 }), fc.nat({ max: 2 ** 40 }), (sizes, spare) => {
        const total = sizes.reduce((a, b) => a + b, 0) + spare;
        const out = splitExponentialSizes(total, sizes);
        expect(out.reduce((a, b) => a + b, 0)).toBe(total);
        out.forEach((o, i) => expect(o).toBeGreaterThanOrEqual(sizes[i]!));
      }),
    );
  });
});
