// DAG builders and naive reference oracles shared by the GHOSTDAG and reachability tests.
import fc from 'fast-check';

export interface TestDag {
  /** Block ids, genesis first; parents[i] index earlier blocks (an antichain); blocks are in a topological order. */
  readonly ids: string[];
  readonly parents: number[][];
}

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 64 lowercase hex digits from the rng: hash-like ids whose order is unrelated to the topology. */
export function randomIds(n: number, rand: () => number): string[] {
  const ids = new Set<string>();
  while (ids.size < n) {
    let id = '';
    for (let w = 0; w < 8; w++) id += Math.floor(rand() * 2 ** 32).toString(16).padStart(8, '0');
    ids.add(id);
  }
  return [...ids];
}

/**
 * A network-like DAG: each block sees the DAG as it was 0..lagMax blocks earlier and takes all of that view's
 * recent tips as parents (tips of a prefix are an antichain). lagMax 3 gives width ~3 (mean mergeset ~2.2).
 */
export function networkDag(n: number, seed: number, lagMax = 3, parentsMax = 10): TestDag {
  const rand = mulberry32(seed);
  const ids = randomIds(n, rand);
  const parents: number[][] = [[]];
  const firstChild: number[] = [Infinity];
  const tipWindowBlocks = 40;
  for (let i = 1; i < n; i++) {
    const visible = Math.max(1, i - Math.floor(rand() * (lagMax + 1)));
    const tips: number[] = [];
    for (let j = visible - 1; j >= Math.max(0, visible - tipWindowBlocks) && tips.length < parentsMax; j--) {
      if (firstChild[j]! >= visible) tips.push(j);
    }
    for (const p of tips) firstChild[p] = Math.min(firstChild[p]!, i);
    parents.push(tips);
    firstChild.push(Infinity);
  }
  return { ids, parents };
}

/** past(i) as bitmasks (bit j set ⇔ j ∈ past(i)); fine for the small DAGs of property tests. */
export function pastMasks(parents: readonly (readonly number[])[]): bigint[] {
  const past: bigint[] = [];
  for (let i = 0; i < parents.length; i++) {
    let m = 0n;
    for (const p of parents[i]!) m |= past[p]! | (1n << BigInt(p));
    past.push(m);
  }
  return past;
}

/** past(b) by a plain backwards BFS over parents: the reference for reachability. */
export function pastBfs(parents: readonly (readonly number[])[], b: number): Set<number> {
  const seen = new Set<number>();
  const queue = [...parents[b]!];
  for (const p of queue) seen.add(p);
  for (let q = 0; q < queue.length; q++) {
    for (const p of parents[queue[q]!]!) {
      if (!seen.has(p)) {
        seen.add(p);
        queue.push(p);
      }
    }
  }
  return seen;
}

/**
 * Random small DAGs: block i picks 1–4 parents among the `window` blocks before it (a small window gives wide
 * anticones, so red blocks appear for small k), reduced to an antichain. Ids are random 64-digit hex.
 */
export function dagArbitrary(maxBlocks: number): fc.Arbitrary<TestDag> {
  const spec = fc.record({
    window: fc.integer({ min: 1, max: 8 }),
    picks: fc.array(fc.nat({ max: 1000 }), { minLength: 1, maxLength: 4 }),
  });
  return fc.tuple(fc.array(spec, { minLength: 1, maxLength: maxBlocks - 1 }), fc.integer()).map(([specs, seed]) => {
    const parents: number[][] = [[]];
    const past: bigint[] = [0n];
    specs.forEach((s, n) => {
      const i = n + 1;
      const span = Math.min(i, s.window);
      const chosen = [...new Set(s.picks.map((p) => i - 1 - (p % span)))];
      const antichain = chosen.filter((p) => !chosen.some((q) => q !== p && ((past[q]! >> BigInt(p)) & 1n) === 1n));
      let m = 0n;
      for (const p of antichain) m |= past[p]! | (1n << BigInt(p));
      parents.push(antichain);
      past.push(m);
    });
    return { ids: randomIds(parents.length, mulberry32(seed)), parents };
  });
}

/** A topological order of the DAG picked by `choices` (each picks among the blocks whose parents are all placed). */
export function topologicalOrder(dag: TestDag, choices: readonly number[]): number[] {
  const n = dag.parents.length;
  const pending = dag.parents.map((ps) => ps.length);
  const children: number[][] = dag.parents.map(() => []);
  dag.parents.forEach((ps, i) => ps.forEach((p) => children[p]!.push(i)));
  const ready = [0];
  const order: number[] = [];
  for (let step = 0; step < n; step++) {
    const at = (choices[step % Math.max(1, choices.length)] ?? 0) % ready.length;
    const [b] = ready.splice(at, 1);
    order.push(b!);
    for (const c of children[b!]!) if (--pending[c]! === 0) ready.push(c);
  }
  return order;
}
