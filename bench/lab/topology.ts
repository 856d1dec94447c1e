/**
 * Topologies for the network lab: a random d-regular graph (a circulant graph shuffled by degree-keeping swaps,
 * redrawn until connected), or a named one, and which end of each edge dials it (orientEdges), through a link
 * emulator in front of the other end.
 */
export type Edge = readonly [number, number];

/** A seeded generator (mulberry32), so a scenario's graph and jitter repeat from its seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function isConnected(n: number, edges: readonly Edge[]): boolean {
  const adjacent = Array.from({ length: n }, () => [] as number[]);
  for (const [a, b] of edges) {
    adjacent[a]!.push(b);
    adjacent[b]!.push(a);
  }
  const seen = new Set([0]);
  const stack = [0];
  while (stack.length > 0) for (const next of adjacent[stack.pop()!]!) if (!seen.has(next)) seen.add(next) && stack.push(next);
  return seen.size === n;
}

/**
 * A simple connected d-regular graph on n nodes (n·d even, d < n): a circulant graph (node i joined to the d/2
 * nearest on each side, and to its opposite when d is odd) shuffled by degree-keeping double-edge swaps, ten per
 * edge. The configuration model alone draws a simple graph with probability ~e^-(d²-1)/4: fine for d = 4, never in
 * practice for d = 8 (~10^-7).
 */
export function randomRegularGraph(n: number, d: number, random: () => number): Edge[] {
  if ((n * d) % 2 !== 0 || d >= n) throw new Error(`no ${d}-regular graph on ${n} nodes`);
  const key = (a: number, b: number): string => (a < b ? `${a}-${b}` : `${b}-${a}`);
  for (let attempt = 0; attempt < 100; attempt++) {
    const edges: [number, number][] = [];
    for (let i = 0; i < n; i++) {
      for (let k = 1; k <= Math.floor(d / 2); k++) edges.push([i, (i + k) % n]);
      if (d % 2 === 1 && i < n / 2) edges.push([i, i + n / 2]);
    }
    const present = new Set(edges.map(([a, b]) => key(a, b)));
    for (let swap = 0; swap < edges.length * 10; swap++) {
      const i = Math.floor(random() * edges.length);
      const j = Math.floor(random() * edges.length);
      const [a, b] = edges[i]!;
      const [c, e] = random() < 0.5 ? edges[j]! : [edges[j]![1], edges[j]![0]];
      // a-b, c-e become a-e, c-b when that keeps the graph simple.
      if (i === j || a === e || c === b || present.has(key(a, e)) || present.has(key(c, b))) continue;
      present.delete(key(a, b));
      present.delete(key(c, e));
      present.add(key(a, e));
      present.add(key(c, b));
      edges[i] = [a, e];
      edges[j] = [c, b];
    }
    const simple = edges.map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const);
    if (isConnected(n, simple)) return simple.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  }
  throw new Error(`could not draw a simple connected ${d}-regular graph on ${n} nodes`);
}

/** The graph's diameter in hops (breadth-first from every node). */
export function diameter(n: number, edges: readonly Edge[]): number {
  const adjacent = Array.from({ length: n }, () => [] as number[]);
  for (const [a, b] of edges) {
    adjacent[a]!.push(b);
    adjacent[b]!.push(a);
  }
  let worst = 0;
  for (let start = 0; start < n; start++) {
    const depth = new Map([[start, 0]]);
    const queue = [start];
    for (let at = 0; at < queue.length; at++) {
      const node = queue[at]!;
      for (const next of adjacent[node]!) {
        if (depth.has(next)) continue;
        depth.set(next, depth.get(node)! + 1);
        queue.push(next);
      }
    }
    worst = Math.max(worst, ...depth.values());
  }
  return worst;
}

/**
 * Which end dials each edge, returned as [dialer, target]: drawn at random, then while some node (but `absent`, a
 * late joiner whose edges are not in `edges`) dials none, one of the edges into it is turned round — which may leave
 * the node it came from dialling none, so the walk goes on from there until it reaches a node that dialled two.
 * Dandelion++ forwards a stem to an outbound peer only: with every edge dialled by its lower-numbered end, outbound
 * peers were all higher-numbered, so every stem ran one way and ended at the top node.
 */
export function orientEdges(n: number, edges: readonly Edge[], random: () => number, absent?: number): Edge[] {
  const oriented = edges.map(([a, b]): Edge => (random() < 0.5 ? [a, b] : [b, a]));
  const dials = new Array<number>(n).fill(0);
  for (const [from] of oriented) dials[from]!++;
  for (let step = 0; step < 100 * n * n; step++) {
    const idle = dials.findIndex((d, i) => d === 0 && i !== absent);
    if (idle < 0) return oriented;
    const incoming = oriented.flatMap(([, to], k) => (to === idle ? [k] : []));
    if (incoming.length === 0) break;
    const k = incoming[Math.floor(random() * incoming.length)]!;
    const from = oriented[k]![0];
    oriented[k] = [idle, from];
    dials[idle]!++;
    dials[from]!--;
  }
  throw new Error(`could not orient ${edges.length} edges so that each of ${n} nodes dials one`);
}
