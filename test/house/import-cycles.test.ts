// No import cycles in the production tree, type-only imports included (docs/style.md "House style"): a module and
// what it imports form a DAG, so each file can be read, tested and moved after the files below it. Shared types live
// in their own file (src/chain/chain-types.ts, src/consensus/ghostdag-types.ts) instead of beside the code that
// imports their users.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../vectors.ts';

const roots = ['src', 'server', 'web', 'packages/client/src'];
const importRe = /(?:import|export)\s[^'";]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return walk(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** File → the repo files it imports (relative specifiers only; packages are leaves). */
export function importGraph(files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const deps = new Set<string>();
    for (const m of readFileSync(file, 'utf8').matchAll(importRe)) {
      const target = resolve(dirname(file), (m[1] ?? m[2])!);
      if (existsSync(target) && statSync(target).isFile()) deps.add(target);
      else if (existsSync(`${target}.ts`)) deps.add(`${target}.ts`);
    }
    graph.set(file, [...deps]);
  }
  return graph;
}

/** The strongly connected components of more than one file (Tarjan), each a cycle to break. */
export function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('import cycles', () => {
  it('finds a cycle, a type-only one included, and none in a chain', () => {
    expect(cyclesOf(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).toEqual([['a', 'b', 'c']]);
    expect(cyclesOf(new Map([['a', ['b']], ['b', ['c']], ['c', []]]))).toEqual([]);
  });

  it('has none in src/, server/, web/ or packages/client', () => {
    const files = roots.flatMap((root) => walk(resolve(repoRoot, root)));
    const cycles = cyclesOf(importGraph(files)).map((c) => c.map((f) => relative(repoRoot, f)).join(' → '));
    expect(cycles).toEqual([]);
  });
});
