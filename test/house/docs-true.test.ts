// The docs a newcomer reads first stay true to the tree: every repo path README.md and docs/*.md name exists, every
// `docs/<file>.md "Section"` they cite has that section, docs/architecture.md's folder tables list exactly the folders
// of src/, server/ and web/, and docs/transactions.md's kind table lists exactly the kinds of the registry.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UnknownTxKindError } from '../../src/kinds/errors.ts';
import { txKindModule } from '../../src/kinds/registry.ts';
import { repoRoot } from '../vectors.ts';
import { docFiles, markdownTable, pathsNamed, readDoc, sectionsOf } from './markdown.ts';

describe('paths named in the docs', () => {
  it('finds the docs and the paths they name', () => {
    expect(docFiles().length).toBeGreaterThan(20);
    expect(docFiles().flatMap((f) => pathsNamed(readDoc(f))).length).toBeGreaterThan(500);
  });

  it.each(docFiles())('%s names only paths that exist', (file) => {
    const missing = pathsNamed(readDoc(file)).filter((p) => !existsSync(join(repoRoot, p.path))).map((p) => `line ${p.line}: ${p.path}`);
    expect(missing, `${file} names paths the tree does not have`).toEqual([]);
  });

  it('reads a path whether it is backticked, linked or bare, and skips placeholders and outside paths', () => {
    const text = 'See `src/kinds/kind.ts`, [x](docs/design.md) and server/cli.ts. Not `src/kinds/<kind>.ts`, ../shared/vectors/x, https://h/src/a.';
    expect(pathsNamed(text).map((p) => p.path)).toEqual(['src/kinds/kind.ts', 'docs/design.md', 'server/cli.ts']);
  });
});

describe('sections the docs cite', () => {
  const cite = /(?<![\w./-])(docs\/[\w.-]+\.md)\s+"([^"\n]+)"/g;
  it.each(docFiles())('%s cites only sections that exist', (file) => {
    const text = readDoc(file);
    const missing = [...text.matchAll(cite)]
      .filter(([, doc]) => existsSync(join(repoRoot, doc!)))
      .filter(([, doc, section]) => !sectionsOf(readDoc(doc!)).some((s) => s === section || s.startsWith(section!)))
      .map(([, doc, section]) => `${doc} "${section}"`);
    expect(missing, `${file} cites sections that are not there`).toEqual([]);
  });
});

/** The top-level entries of a folder as repo paths: `src/chain`, `src/errors.ts`. */
function entriesOf(folder: string, dirsOnly: boolean): string[] {
  return readdirSync(join(repoRoot, folder))
    .filter((name) => !dirsOnly || statSync(join(repoRoot, folder, name)).isDirectory())
    .map((name) => `${folder}/${name}`)
    .sort();
}

/** The backticked paths of one column of a table, trailing slashes dropped. */
function column(rows: readonly string[][], index: number): string[] {
  return rows.flatMap((row) => [...(row[index] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1]!.replace(/\/$/, ''))).sort();
}

describe('docs/architecture.md', () => {
  const text = readDoc('docs/architecture.md');

  it('gives every entry of src/ a layer, and names no folder src/ does not have', () => {
    expect(column(markdownTable(text, ['layer', 'folders', 'owns', 'does not own']), 1)).toEqual(entriesOf('src', false));
  });

  it('gives every folder of server/ and web/ a row', () => {
    const folders = markdownTable(text, ['folder', 'owns']);
    const named = column(folders, 0);
    expect(named.filter((p) => p.startsWith('server/'))).toEqual(entriesOf('server', true));
    expect(named.filter((p) => p.startsWith('web/'))).toEqual(entriesOf('web', true));
  });
});

describe('docs/transactions.md kind table', () => {
  const registry = (): Array<[string, string]> => {
    const kinds: Array<[string, string]> = [];
    for (let tag = 0; tag <= 0xff; tag++) {
      try {
        kinds.push([`0x${tag.toString(16).padStart(2, '0')}`, txKindModule(tag).name]);
      } catch (error) {
        if (!(error instanceof UnknownTxKindError)) throw error;
      }
    }
    return kinds;
  };

  it('lists exactly the registry: each tag with its kind name, in tag order', () => {
    const rows = markdownTable(readDoc('docs/transactions.md'), ['tag', 'kind', 'module', 'docs']);
    expect(rows.map(([tag, name]) => [tag!.toLowerCase(), name!])).toEqual(registry());
  });

  it('names the module file that declares each kind', () => {
    const rows = markdownTable(readDoc('docs/transactions.md'), ['tag', 'kind', 'module', 'docs']);
    expect(rows.length).toBeGreaterThan(0);
    for (const [, name, module] of rows) {
      const path = module!.replace(/`/g, '');
      const source = readFileSync(join(repoRoot, path), 'utf8');
      expect(source.includes(`name: '${name}'`), `${path} declares kind ${name}`).toBe(true);
    }
  });
});
