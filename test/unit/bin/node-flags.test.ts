// bin/node-flags.mjs: the V8 flags a node runs under are the same in the `weft` command's shebang, `npm start` and
// the benches' spawns (V8 reads them from the command line only), so a bench measures the node as shipped.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeV8Flags } from '../../../bin/node-flags.mjs';

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');

describe('nodeV8Flags', () => {
  it('are the flags of the shebang and of npm start, in order', () => {
    expect(nodeV8Flags.length).toBeGreaterThan(0);
    expect(read('bin/weft.mjs').split('\n')[0]).toBe(`#!/usr/bin/env -S node ${nodeV8Flags.join(' ')}`);
    const start = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts.start!;
    expect(start.startsWith(`node ${nodeV8Flags.join(' ')} bin/weft.mjs `)).toBe(true);
  });

  it('are what the benches spawn nodes with', () => {
    for (const bench of ['bench/throughput-nodes.ts', 'bench/lab/lab-node.ts']) expect(read(bench)).toMatch(/\.\.\.nodeV8Flags, \.\.\.nodeFlags/);
  });
});
