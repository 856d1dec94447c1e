// The lab's random regular graphs (bench/lab/topology.ts): simple, connected, every node of degree d, repeatable
// from the seed, and drawable at the 16 nodes of degree 8 (the configuration model alone never drew one);
// each edge dialled by a random end, every node dialling at least one.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diameter, isConnected, orientEdges, randomRegularGraph, seededRandom } from '../../../bench/lab/topology.ts';

function check(n: number, d: number, seed: number): void {
  const edges = randomRegularGraph(n, d, seededRandom(seed));
  expect(edges).toHaveLength((n * d) / 2);
  const degree = new Array<number>(n).fill(0);
  const seen = new Set<string>();
  for (const [a, b] of edges) {
    expect(a).toBeLessThan(b);
    expect(seen.has(`${a}-${b}`)).toBe(false);
    seen.add(`${a}-${b}`);
    degree[a]!++;
    degree[b]!++;
  }
  expect(degree.every((x) => x === d)).toBe(true);
  expect(isConnected(n, edges)).toBe(true);
}

describe('randomRegularGraph', () => {
  it('draws 16 nodes of degree 8, and the same graph again from the same seed', () => {
    check(16, 8, 16);
    expect(randomRegularGraph(16, 8, seededRandom(16))).toEqual(randomRegularGraph(16, 8, seededRandom(16)));
    expect(randomRegularGraph(16, 8, seededRandom(16))).not.toEqual(randomRegularGraph(16, 8, seededRandom(17)));
    expect(diameter(16, randomRegularGraph(16, 8, seededRandom(16)))).toBeLessThanOrEqual(3);
  });

  it('is simple, connected and d-regular for any size, degree and seed', () => {
    fc.assert(fc.property(fc.integer({ min: 3, max: 40 }), fc.integer({ min: 2, max: 12 }), fc.integer(), (n, d, seed) => {
      fc.pre(d < n && (n * d) % 2 === 0);
      check(n, d, seed);
    }), { numRuns: 200 });
  });

  it('refuses a degree no graph of that size has', () => {
    expect(() => randomRegularGraph(5, 3, seededRandom(1))).toThrow(/no 3-regular graph on 5 nodes/);
    expect(() => randomRegularGraph(4, 4, seededRandom(1))).toThrow(/no 4-regular graph on 4 nodes/);
  });
});

describe('orientEdges', () => {
  it('keeps every edge, gives every node an outbound link, and does not dial by node number', () => {
    fc.assert(fc.property(fc.integer({ min: 3, max: 24 }), fc.integer({ min: 2, max: 8 }), fc.integer(), (n, d, seed) => {
      fc.pre(d < n && (n * d) % 2 === 0);
      const random = seededRandom(seed);
      const edges = randomRegularGraph(n, d, random);
      const oriented = orientEdges(n, edges, random);
      expect(oriented.map(([a, b]) => `${Math.min(a, b)}-${Math.max(a, b)}`).sort()).toEqual(edges.map(([a, b]) => `${a}-${b}`).sort());
      for (let i = 0; i < n; i++) expect(oriented.some(([from]) => from === i)).toBe(true);
    }), { numRuns: 100 });
    // Stems run every way: some edges are dialled by their higher-numbered end.
    const edges = randomRegularGraph(16, 8, seededRandom(16));
    expect(orientEdges(16, edges, seededRandom(1)).filter(([from, to]) => from > to).length).toBeGreaterThan(16);
  });

  it('leaves out a node that is absent (a late joiner, which dials its neighbours itself)', () => {
    const edges = randomRegularGraph(8, 4, seededRandom(3));
    const present = edges.filter(([a, b]) => a !== 5 && b !== 5);
    const oriented = orientEdges(8, present, seededRandom(4), 5);
    expect(oriented.some(([a, b]) => a === 5 || b === 5)).toBe(false);
    for (const i of [0, 1, 2, 3, 4, 6, 7]) expect(oriented.some(([from]) => from === i)).toBe(true);
  });
});

