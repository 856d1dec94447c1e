import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../src/errors.ts';
import { type BlockId, type GhostdagEngine, createGhostdagEngine } from '../../../src/consensus/ghostdag.ts';
import {
  DuplicateBlockError,
  GhostdagUsageError,
  InvalidParentsError,
  MergesetTooLargeError,
  UnknownBlockError,
} from '../../../src/consensus/ghostdag-errors.ts';
import { compareBlueWork, compareHashesDefault } from '../../../src/consensus/ghostdag-order.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { type TestDag, dagArbitrary, networkDag, topologicalOrder } from '../../consensus-dags.ts';
import { readVectorJson } from '../../vectors.ts';

interface VectorBlock {
  ID: string;
  Parents: string[];
  ExpectedSelectedParent: string;
  ExpectedScore: number;
  ExpectedBlues: string[];
  ExpectedReds: string[];
}
interface VectorFile {
  K: number;
  GenesisID: string;
  Blocks: VectorBlock[];
}

const vectorFiles = [0, 1, 2, 3, 4, 5].map((n) => ({ name: `dag${n}.json`, data: readVectorJson<VectorFile>('ghostdag', `dag${n}.json`) }));

/** Kaspa's vector hashes: the id's UTF-8 bytes in a zero-filled 32-byte array. */
function vectorHash(id: string): BlockId {
  const bytes = new Uint8Array(32);
  bytes.set(new TextEncoder().encode(id));
  return toHex(bytes);
}

/** Byte order of the zero-filled arrays, on the raw ids. */
function compareVectorIds(a: string, b: string): number {
  return compareHashesDefault(vectorHash(a), vectorHash(b));
}

/** Runs one vector file; returns the blocks whose result differs from the expected one. */
function runVector(file: VectorFile, toId: (id: string) => BlockId, compareHashes?: (a: BlockId, b: BlockId) => number): string[] {
  const engine = createGhostdagEngine({ k: file.K, ...(compareHashes ? { compareHashes } : {}) });
  engine.addGenesis(toId(file.GenesisID), 1n);
  const failures: string[] = [];
  for (const b of file.Blocks) {
    const d = engine.addBlock(toId(b.ID), b.Parents.map(toId), 1n);
    const same =
      d.selectedParent === toId(b.ExpectedSelectedParent) &&
      d.blueScore === b.ExpectedScore &&
      d.blueWork === BigInt(b.ExpectedScore) &&
      d.mergesetSize === b.ExpectedBlues.length + b.ExpectedReds.length &&
      JSON.stringify(d.mergesetBlues) === JSON.stringify(b.ExpectedBlues.map(toId)) &&
      JSON.stringify(d.mergesetReds) === JSON.stringify(b.ExpectedReds.map(toId));
    if (!same) failures.push(b.ID);
  }
  return failures;
}

describe('GHOSTDAG: Kaspa vectors (testing/integration/testdata/dags)', () => {
  it.each(vectorFiles)('$name block by block, ids as 32-byte hashes in hex', ({ data }) => {
    expect(runVector(data, vectorHash)).toEqual([]);
  });

  it.each(vectorFiles)('$name block by block, raw ids with an injected hash order', ({ data }) => {
    expect(runVector(data, (id) => id, compareVectorIds)).toEqual([]);
  });

  it('the injected hash order is honoured: reversing it breaks every file', () => {
    for (const { data } of vectorFiles) {
      expect(runVector(data, (id) => id, (a, b) => compareVectorIds(b, a)).length).toBeGreaterThan(0);
    }
  });

  it('get() returns the stored data and orderedMergeset() sorts the mergeset by (blue work, hash), selected parent first', () => {
    for (const { data } of vectorFiles) {
      const engine = createGhostdagEngine({ k: data.K });
      engine.addGenesis(data.GenesisID, 1n);
      expect(engine.orderedMergeset(data.GenesisID)).toEqual([]);
      for (const b of data.Blocks) {
        const added = engine.addBlock(b.ID, b.Parents, 1n);
        expect(engine.get(b.ID)).toEqual(added);
        const rest = [...added.mergesetBlues.slice(1), ...added.mergesetReds].sort((x, y) =>
          compareBlueWork({ id: x, blueWork: engine.get(x)!.blueWork }, { id: y, blueWork: engine.get(y)!.blueWork }),
        );
        expect(engine.orderedMergeset(b.ID)).toEqual([b.ExpectedSelectedParent, ...rest]);
      }
    }
  });
});

function build(k: number, blocks: [string, string[]][], options: { compareHashes?: (a: BlockId, b: BlockId) => number; mergesetSizeLimit?: number } = {}): GhostdagEngine {
  const engine = createGhostdagEngine({ k, ...options });
  engine.addGenesis('g', 1n);
  for (const [id, parents] of blocks) engine.addBlock(id, parents, 1n);
  return engine;
}

describe('GHOSTDAG: hand-built DAGs', () => {
  it('a chain: every block blue, score = height, work accumulates, chain ancestry holds', () => {
    const engine = createGhostdagEngine({ k: 18 });
    expect(engine.addGenesis('g', 5n)).toEqual({
      selectedParent: null,
      blueScore: 0,
      blueWork: 0n,
      mergesetBlues: [],
      mergesetReds: [],
      bluesAnticoneSizes: new Map(),
      mergesetSize: 0,
    });
    let prev = 'g';
    for (let i = 1; i <= 50; i++) {
      const d = engine.addBlock(`c${i}`, [prev], 5n);
      expect(d.selectedParent).toBe(prev);
      expect(d.blueScore).toBe(i);
      expect(d.blueWork).toBe(5n * BigInt(i)); // genesis's work counts from its child on
      expect(d.mergesetBlues).toEqual([prev]);
      expect(d.mergesetReds).toEqual([]);
      expect(d.bluesAnticoneSizes).toEqual(new Map([[prev, 0]]));
      prev = `c${i}`;
    }
    expect(engine.height('c50')).toBe(50);
    expect(engine.isChainAncestorOf('g', 'c50')).toBe(true);
    expect(engine.isChainAncestorOf('c10', 'c11')).toBe(true);
    expect(engine.isChainAncestorOf('c11', 'c10')).toBe(false);
    expect(engine.isDagAncestorOf('c50', 'c50')).toBe(false);
    expect(engine.selectedTip()).toBe('c50');
    expect(engine.size()).toBe(51);
  });

  it('a diamond: the selected parent is the higher hash on equal blue work, the other parent is blue', () => {
    const engine = build(18, [['a', ['g']], ['b', ['g']], ['c', ['a', 'b']]]);
    const c = engine.get('c')!;
    expect(c.selectedParent).toBe('b');
    expect(c.mergesetBlues).toEqual(['b', 'a']);
    expect(c.blueScore).toBe(3);
    expect(c.bluesAnticoneSizes).toEqual(new Map([['b', 1], ['a', 1]]));
    expect(engine.orderedMergeset('c')).toEqual(['b', 'a']);
    expect(engine.isDagAncestorOf('a', 'c')).toBe(true);
    expect(engine.isChainAncestorOf('a', 'c')).toBe(false);
    expect(engine.isChainAncestorOf('b', 'c')).toBe(true);
    expect(engine.isDagAncestorOf('a', 'b')).toBe(false);
  });

  it('ties are broken by the injected hash order', () => {
    const engine = build(18, [['a', ['g']], ['b', ['g']], ['c', ['a', 'b']]], { compareHashes: (x, y) => compareHashesDefault(y, x) });
    expect(engine.get('c')!.selectedParent).toBe('a');
    expect(engine.get('c')!.mergesetBlues).toEqual(['a', 'b']);
  });

  it('higher blue work wins over a higher hash', () => {
    const engine = build(18, [['a', ['g']], ['z', ['g']], ['a2', ['a']], ['m', ['a2', 'z']]]);
    expect(engine.get('m')!.selectedParent).toBe('a2');
    expect(engine.compareBlocks('a2', 'z')).toBeGreaterThan(0);
  });

  it('an anticone wider than k turns blocks red', () => {
    // k = 1: a, b, c are parallel; d merges them. sp = c (highest hash), a is blue (anticone {c}), then b would be
    // the third blue with two blues in its anticone: red.
    const engine = build(1, [['a', ['g']], ['b', ['g']], ['c', ['g']], ['d', ['a', 'b', 'c']]]);
    const d = engine.get('d')!;
    expect(d.selectedParent).toBe('c');
    expect(d.mergesetBlues).toEqual(['c', 'a']);
    expect(d.mergesetReds).toEqual(['b']);
    expect(d.blueScore).toBe(3);
    expect(d.mergesetSize).toBe(3);
    expect(d.bluesAnticoneSizes).toEqual(new Map([['c', 1], ['a', 1]]));
    // Reds are still ordered for acceptance.
    expect(engine.orderedMergeset('d')).toEqual(['c', 'a', 'b']);
    // A later block on top of d inherits the colouring: b stays outside the blue set.
    const e = engine.addBlock('e', ['d'], 1n);
    expect(e.blueScore).toBe(4);
  });

  it('k = 0 keeps only the selected chain blue', () => {
    const engine = build(0, [['a', ['g']], ['b', ['g']], ['c', ['a', 'b']]]);
    expect(engine.get('c')!.mergesetBlues).toEqual(['b']);
    expect(engine.get('c')!.mergesetReds).toEqual(['a']);
  });
});

describe('GHOSTDAG: errors', () => {
  it('a mergeset over the limit throws MergesetTooLargeError from addBlock and computeBlock, storing nothing', () => {
    const engine = build(18, [['a', ['g']], ['b', ['g']], ['c', ['g']]], { mergesetSizeLimit: 2 });
    expect(() => engine.computeBlock(['a', 'b', 'c'], 1n)).toThrow(MergesetTooLargeError);
    let caught: unknown;
    try {
      engine.addBlock('d', ['a', 'b', 'c'], 1n);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(MergesetTooLargeError);
    expect((caught as MergesetTooLargeError).code).toBe(ErrorCode.MiningError);
    expect(engine.has('d')).toBe(false);
    expect(engine.size()).toBe(4);
    // The limit counts the selected parent: two parents fit.
    expect(engine.addBlock('d', ['a', 'b'], 1n).mergesetSize).toBe(2);
  });

  it('a mergeset found deep in the past stops at the limit', () => {
    const engine = createGhostdagEngine({ k: 18, mergesetSizeLimit: 10 });
    engine.addGenesis('g', 1n);
    let prev = 'g';
    for (let i = 0; i < 30; i++) prev = (engine.addBlock(`x${i}`, [prev], 1n), `x${i}`);
    prev = 'g';
    for (let i = 0; i < 30; i++) prev = (engine.addBlock(`y${i}`, [prev], 1n), `y${i}`);
    expect(() => engine.addBlock('m', ['x29', 'y29'], 1n)).toThrow(MergesetTooLargeError);
  });

  it('bad parents and ids are coded errors', () => {
    const engine = build(18, [['a', ['g']], ['b', ['a']]]);
    expect(() => engine.addBlock('x', [], 1n)).toThrow(InvalidParentsError);
    expect(() => engine.addBlock('x', ['a', 'a'], 1n)).toThrow(InvalidParentsError);
    expect(() => engine.addBlock('x', ['a', 'b'], 1n)).toThrow(/in the past of parent b/);
    expect(() => engine.addBlock('x', ['nope'], 1n)).toThrow(UnknownBlockError);
    expect(() => engine.addBlock('a', ['g'], 1n)).toThrow(DuplicateBlockError);
    expect(() => engine.addBlock('x', ['b'], 0n)).toThrow(GhostdagUsageError);
    expect(() => engine.addGenesis('g2', 1n)).toThrow(GhostdagUsageError);
    expect(() => engine.isDagAncestorOf('a', 'nope')).toThrow(UnknownBlockError);
    expect(() => engine.parents('nope')).toThrow(UnknownBlockError);
    expect(new UnknownBlockError('x', 'block').code).toBe(ErrorCode.BlockNotFound);
    expect(engine.get('nope')).toBeUndefined();
    expect(engine.size()).toBe(3);
  });

  it('computeBlock gives what addBlock stores, and stores nothing', () => {
    const engine = build(2, [['a', ['g']], ['b', ['g']], ['c', ['g']], ['d', ['a']]]);
    const computed = engine.computeBlock(['d', 'b', 'c'], 7n);
    expect(engine.size()).toBe(5);
    expect(engine.addBlock('e', ['d', 'b', 'c'], 7n)).toEqual(computed);
    expect(engine.parents('e')).toEqual(['d', 'b', 'c']);
  });
});

describe('GHOSTDAG: helpers', () => {
  it('compareBlueWork orders by blue work, then hash', () => {
    expect(compareBlueWork({ id: 'ff', blueWork: 1n }, { id: '00', blueWork: 2n })).toBeLessThan(0);
    expect(compareBlueWork({ id: '01', blueWork: 2n }, { id: '00', blueWork: 2n })).toBeGreaterThan(0);
    expect(compareBlueWork({ id: '01', blueWork: 2n }, { id: '01', blueWork: 2n })).toBe(0);
  });

  it('virtualParents puts the selected tip first, then tips by blue work, within maxParents and the mergeset limit', () => {
    const blocks: [string, string[]][] = [['a', ['g']], ['b', ['g']], ['c', ['g']], ['a2', ['a']]];
    const engine = build(18, blocks);
    expect(engine.virtualParents(['b', 'c', 'a2'], 10)).toEqual(['a2', 'c', 'b']);
    expect(engine.virtualParents(['b', 'c', 'a2'], 2)).toEqual(['a2', 'c']);
    expect(engine.virtualParents(['b', 'c', 'a2'], 1)).toEqual(['a2']);
    // With a mergeset limit of 2, a third parent would make the mergeset 3 blocks.
    expect(build(18, blocks, { mergesetSizeLimit: 2 }).virtualParents(['b', 'c', 'a2'], 10)).toEqual(['a2', 'c']);
    // Not tips: a is in the past of a2, so it cannot join a2.
    expect(engine.virtualParents(['a', 'a2'], 10)).toEqual(['a2']);
    expect(() => engine.virtualParents(['zz'], 10)).toThrow(UnknownBlockError);
  });
});

function insert(dag: TestDag, order: readonly number[], k: number): GhostdagEngine {
  const engine = createGhostdagEngine({ k, reachability: { capacity: 2 ** 20, reindexDepth: 3, reindexSlack: 4 } });
  for (const i of order) {
    if (i === 0) engine.addGenesis(dag.ids[0]!, 1n);
    else engine.addBlock(dag.ids[i]!, dag.parents[i]!.map((p) => dag.ids[p]!), BigInt(1 + (i % 3)));
  }
  return engine;
}

function snapshot(engine: GhostdagEngine, id: BlockId): unknown {
  const d = engine.get(id)!;
  return { ...d, bluesAnticoneSizes: [...d.bluesAnticoneSizes].sort(), ordered: engine.orderedMergeset(id) };
}

describe('GHOSTDAG: properties', () => {
  it('the same DAG inserted in any topological order gives the same colouring, scores and order', () => {
    fc.assert(
      fc.property(dagArbitrary(40), fc.array(fc.nat()), fc.array(fc.nat()), fc.integer({ min: 0, max: 4 }), (dag, c1, c2, k) => {
        const e1 = insert(dag, topologicalOrder(dag, c1), k);
        const e2 = insert(dag, topologicalOrder(dag, c2), k);
        for (const id of dag.ids) expect(snapshot(e2, id)).toEqual(snapshot(e1, id));
      }),
      { numRuns: 150 },
    );
  });

  it('blue work grows along every edge and blue score counts the blue past', () => {
    const dag = networkDag(600, 7, 6);
    const engine = insert(dag, dag.ids.map((_, i) => i), 3);
    let reds = 0;
    for (let i = 1; i < dag.ids.length; i++) {
      const d = engine.get(dag.ids[i]!)!;
      reds += d.mergesetReds.length;
      for (const p of dag.parents[i]!) expect(engine.get(dag.ids[p]!)!.blueWork < d.blueWork).toBe(true);
      const sp = engine.get(d.selectedParent!)!;
      expect(d.blueScore).toBe(sp.blueScore + d.mergesetBlues.length);
    }
    expect(reds).toBeGreaterThan(0); // width ~6 against k = 3
  });
});

describe('GHOSTDAG: scaling (operation counts, not timings)', () => {
  /** Reachability and store operations per block over the last `tail` blocks of an n-block network DAG. */
  function opsPerBlock(n: number, tail: number): number {
    const dag = networkDag(n, 42);
    const engine = createGhostdagEngine({ k: 18 });
    engine.addGenesis(dag.ids[0]!, 1n);
    const ops = (): number => {
      const s = engine.stats();
      return s.reachabilityQueries + s.storeReads + s.reachability.intervalWrites + s.reachability.subtreeVisits;
    };
    let before = 0;
    for (let i = 1; i < n; i++) {
      if (i === n - tail) before = ops();
      engine.addBlock(dag.ids[i]!, dag.parents[i]!.map((p) => dag.ids[p]!), 1n);
    }
    return (ops() - before) / tail;
  }

  it('per-block work on a 16,000-block DAG is no more than on a 4,000-block one', () => {
    const small = opsPerBlock(4_000, 2_000);
    const large = opsPerBlock(16_000, 2_000);
    expect(large).toBeLessThan(small * 1.5);
  });
});
