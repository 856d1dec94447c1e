/**
 * Topologies for the network lab: a random d-regular graph (the configuration model, redrawn until simple and
 * connected), or a named one. Each undirected edge is dialled by its lower-numbered node, through a link emulator
 * in front of the higher-numbered one.
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

/** A simple connected d-regular graph on n nodes (n·d even, d < n). */
export function randomRegularGraph(n: number, d: number, random: () => number): Edge[] {
  if ((n * d) % 2 !== 0 || d >= n) throw new Error(`no ${d}-regular graph on ${n} nodes`);
  for (let attempt = 0; attempt < 10_000; attempt++) {
    const stubs = Array.from({ length: n * d }, (_, i) => Math.floor(i / d));
    for (let i = stubs.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [stubs[i], stubs[j]] = [stubs[j]!, stubs[i]!];
    }
    const edges: Edge[] = [];
    const seen = new Set<string>();
    let simple = true;
    for (let i = 0; i < stubs.length; i += 2) {
      const a = Math.min(stubs[i]!, stubs[i + 1]!);
      const b = Math.max(stubs[i]!, stubs[i + 1]!);
      if (a === b || seen.has(`${a}-${b}`)) {
        simple = false;
        break;
      }
      seen.add(`${a}-${b}`);
      edges.push([a, b]);
    }
    if (simple && isConnected(n, edges)) return edges;
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
