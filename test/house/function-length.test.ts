// No production function's own body (its lines, not counting the bodies of functions nested in it) runs past
// ownBodyLinesMax lines, except those docs/style.md "Function length" lists with a reason; a listed function that
// no longer runs past the limit (or no longer exists) is a stale row and fails too, so the table and the code agree.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../vectors.ts';
import { measureRepo, measureSource, ownBodyLinesMax, productionFiles, readLengthExceptions } from './function-length.ts';

const styleText = readFileSync(join(repoRoot, 'docs/style.md'), 'utf8');
const exceptions = readLengthExceptions(styleText);
const measured = measureRepo(repoRoot);
const key = (file: string, name: string): string => `${file} ${name}`;

describe('the own-body measure', () => {
  const lines = (n: number, text: string): string => Array.from({ length: n }, () => text).join('\n');

  it('counts a function from its first to its last line', () => {
    const source = `export function long(): number {\n  let x = 0;\n${lines(ownBodyLinesMax - 2, '  x++;')}\n  return x;\n}\n`;
    const [fn] = measureSource('a.ts', source);
    expect(fn).toMatchObject({ name: 'long', line: 1, ownLines: ownBodyLinesMax + 2 });
  });

  it('leaves the bodies of nested functions to those functions, callbacks and returned methods included', () => {
    const source = [
      'export function createThing() {',
      '  const items = [1, 2].map((n) => {',
      lines(80, '    n++;'),
      '    return n;',
      '  });',
      '  return {',
      '    get(): number {',
      lines(5, '      void 0;'),
      '      return items.length;',
      '    },',
      '  };',
      '}',
    ].join('\n');
    const byName = Object.fromEntries(measureSource('b.ts', source).map((f) => [f.name, f.ownLines]));
    expect(byName).toEqual({ createThing: 8, 'createThing.<anonymous>': 83, 'createThing.get': 8 });
  });

  it('names class members by their class', () => {
    const names = measureSource('c.ts', 'class Peer {\n  constructor() {}\n  send(): void {}\n  get open(): boolean { return true; }\n}\n').map((f) => f.name);
    expect(names).toEqual(['Peer.constructor', 'Peer.send', 'Peer.open']);
  });
});

describe(`production functions (own body at most ${ownBodyLinesMax} lines)`, () => {
  it('measures the production tree', () => {
    expect(productionFiles(repoRoot).length).toBeGreaterThan(300);
    expect(measured.length).toBeGreaterThan(3000);
  });

  it('reads the exception table of docs/style.md, each row with a reason', () => {
    // The table may be empty (no exceptions), but never missing: a moved heading or a renamed column would read as none.
    const section = styleText.split(/^## Function length\s*$/m)[1]?.split(/^## /m)[0] ?? '';
    expect(section).toMatch(/^\| file \| function \| reason \|$/m);
    for (const row of exceptions) expect(row.reason, key(row.file, row.name)).not.toBe('');
    const keys = exceptions.map((row) => key(row.file, row.name));
    expect(new Set(keys).size, 'a row listed twice').toBe(keys.length);
  });

  it('has no function over the limit that docs/style.md does not list', () => {
    const listed = new Set(exceptions.map((row) => key(row.file, row.name)));
    const over = measured
      .filter((f) => f.ownLines > ownBodyLinesMax && !listed.has(key(f.file, f.name)))
      .map((f) => `${f.file}:${f.line} ${f.name} (${f.ownLines} lines)`);
    expect(over, 'split these, or list them with a reason in docs/style.md "Function length"').toEqual([]);
  });

  it('lists no function that is within the limit or gone (stale rows)', () => {
    const stale = exceptions
      .filter((row) => !measured.some((f) => f.file === row.file && f.name === row.name && f.ownLines > ownBodyLinesMax))
      .map((row) => key(row.file, row.name));
    expect(stale, 'drop these rows from docs/style.md "Function length"').toEqual([]);
  });
});
