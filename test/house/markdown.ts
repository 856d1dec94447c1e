// Reading the repo's markdown for the docs tests: which files, which repo paths they name, their sections, a table.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../vectors.ts';

/** README.md and every docs/*.md, as repo paths. */
export function docFiles(): string[] {
  const docs = readdirSync(join(repoRoot, 'docs')).filter((f) => f.endsWith('.md')).sort();
  return ['README.md', ...docs.map((f) => `docs/${f}`)];
}

export function readDoc(path: string): string {
  return readFileSync(join(repoRoot, path), 'utf8');
}

/** Top-level folders a repo path in the docs starts with. */
const roots = ['src', 'server', 'web', 'test', 'bench', 'docs', 'e2e', 'assembly', 'shaders', 'bin', 'packages', 'proto'];
// A root not preceded by a path or word character (so `../shared/x` and `https://h/src/x` are not ours), then path
// characters; placeholders (`<kind>`, `*`, `{id}`) are read too and then skipped.
const pathPattern = new RegExp(`(?<![\\w./-])((?:${roots.join('|')})/[\\w./<>*{}-]*)`, 'g');

export interface NamedPath {
  readonly path: string;
  readonly line: number;
}

/** Every repo path a markdown text names, backticked, linked or bare; sentence punctuation after it dropped. */
export function pathsNamed(text: string): NamedPath[] {
  const named: NamedPath[] = [];
  for (const match of text.matchAll(pathPattern)) {
    const path = match[1]!.replace(/[.,:;]+$/, '');
    if (/[<>*{}]/.test(path)) continue;
    named.push({ path, line: text.slice(0, match.index).split('\n').length });
  }
  return named;
}

/**
 * What a `docs/x.md "Section"` citation may point at: a heading, a bold paragraph lead (`**Backup file**`), or a
 * paragraph that opens with a label and a colon (`Visibility: …`).
 */
export function sectionsOf(text: string): string[] {
  const headings = text.split('\n').filter((l) => /^#+ /.test(l)).map((l) => l.replace(/^#+ /, '').trim());
  const bold = [...text.matchAll(/\*\*([^*\n]+)\*\*/g)].map((m) => m[1]!.trim());
  const labels = [...text.matchAll(/^(?:- )?([A-Z][\w ,'-]*):/gm)].map((m) => m[1]!.trim());
  return [...headings, ...bold, ...labels];
}

/** The body rows (cells trimmed) of every table whose header row is exactly `header`; throws when there is none. */
export function markdownTable(text: string, header: readonly string[]): string[][] {
  const lines = text.split('\n');
  const cells = (line: string) => line.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim());
  const isHeader = (line: string) => line.trim().startsWith('|') && cells(line).join('\u0000') === header.join('\u0000');
  const starts = lines.flatMap((line, i) => (isHeader(line) ? [i] : []));
  if (starts.length === 0) throw new Error(`no table with the header | ${header.join(' | ')} |`);
  const rows: string[][] = [];
  for (const start of starts) {
    for (const line of lines.slice(start + 2)) {
      if (!line.trim().startsWith('|')) break;
      rows.push(cells(line));
    }
  }
  return rows;
}
