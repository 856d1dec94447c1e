// The repo explains itself: no file cites design documents that live outside it, and every pointer into the design
// and style documents — docs/design.md "<Section>" (or "<A>" and "<B>"), docs/style.md "<Section>",
// docs/style.md habit <N> — names a heading or a habit that exists.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../vectors.ts';

const roots = ['src', 'server', 'web', 'test', 'e2e', 'bench', 'docs', 'bin', 'assembly', 'shaders', 'README.md'];
const skippedDirs = new Set(['node_modules', 'dist', 'build', 'coverage', 'test-results', 'playwright-report']);
const textFile = /\.(ts|mts|mjs|js|md|html|css|wgsl)$/;

// Built from parts so this file does not cite them itself.
const outsideDoc = new RegExp(['DESIGN', 'STYLE'].map((n) => `\\b${n}\\.md\\b`).join('|'));
// docs/design.md "A", docs/design.md "A" and "B", docs/design.md "A", "B" and "C".
const sectionPointer = /docs\/(design|style)\.md ("[^"\n]+"(?:(?:,| and) "[^"\n]+")*)/g;
const habitPointer = /docs\/style\.md habits? (\d+)/g;

function walk(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return textFile.test(path) ? [path] : [];
  return readdirSync(path).flatMap((name) => (skippedDirs.has(name) ? [] : walk(join(path, name))));
}

function filesUnder(root: string): string[] {
  return roots.flatMap((r) => walk(join(root, r)));
}

function readDoc(docsRoot: string, doc: string): string | undefined {
  const path = join(docsRoot, 'docs', `${doc}.md`);
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}

function headings(text: string): Set<string> {
  return new Set([...text.matchAll(/^#{1,6}\s+(.+?)\s*$/gm)].map((m) => m[1]!));
}

/** The numbers of the numbered list under "## Habits". */
function habits(text: string): Set<number> {
  const section = text.split(/^## Habits\s*$/m)[1]?.split(/^## /m)[0] ?? '';
  return new Set([...section.matchAll(/^(\d+)\. /gm)].map((m) => Number(m[1])));
}

/** Pointers in `text` whose document, heading or habit does not exist; `docsRoot` holds the docs/ they point into. */
export function danglingPointers(text: string, docsRoot = repoRoot): string[] {
  const bad: string[] = [];
  for (const [whole, doc, list] of text.matchAll(sectionPointer)) {
    const docText = readDoc(docsRoot, doc!);
    const known = docText === undefined ? new Set<string>() : headings(docText);
    const sections = [...list!.matchAll(/"([^"\n]+)"/g)].map((m) => m[1]!);
    if (sections.some((s) => !known.has(s))) bad.push(whole);
  }
  const styleText = readDoc(docsRoot, 'style');
  const knownHabits = styleText === undefined ? new Set<number>() : habits(styleText);
  for (const [whole, n] of text.matchAll(habitPointer)) {
    if (!knownHabits.has(Number(n))) bad.push(whole);
  }
  return bad;
}

/** Every problem under `root`: files citing the outside documents, and dangling pointers, as `path: what`. */
export function repoDocProblems(root: string, docsRoot = root): string[] {
  const problems: string[] = [];
  for (const file of filesUnder(root)) {
    const rel = relative(root, file).split(sep).join('/');
    // This file builds its examples from parts and plants bad ones on purpose; docs/design.md names the old
    // citation form once, in the table that maps it.
    if (rel === 'test/house/repo-docs.test.ts') continue;
    const text = readFileSync(file, 'utf8');
    if (rel !== 'docs/design.md' && outsideDoc.test(text)) problems.push(`${rel}: cites a document outside the repo`);
    for (const p of danglingPointers(text, docsRoot)) problems.push(`${rel}: ${p}`);
  }
  return problems;
}

describe('the repo explains itself', () => {
  const planted = mkdtempSync(join(tmpdir(), 'weft-repo-docs-'));
  afterAll(() => rmSync(planted, { recursive: true, force: true }));

  it('has files to check', () => {
    expect(filesUnder(repoRoot).length).toBeGreaterThan(100);
  });

  it('cites no outside design document and points only at sections and habits that exist', () => {
    expect(repoDocProblems(repoRoot)).toEqual([]);
  });

  it('has the headings the pointers are made of', () => {
    const design = headings(readDoc(repoRoot, 'design')!);
    for (const s of ['Networks and units', 'Consensus', 'State, accounts and energy', 'Node APIs and access', 'Mining']) {
      expect(design.has(s), s).toBe(true);
    }
    expect([...habits(readDoc(repoRoot, 'style')!)]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('fails on files with a dangling pointer or an outside citation', () => {
    const q = '"';
    mkdirSync(join(planted, 'src'), { recursive: true });
    mkdirSync(join(planted, 'web'), { recursive: true });
    writeFileSync(join(planted, 'src', 'fine.ts'), `// docs/design.md ${q}Consensus${q} and docs/style.md habit 4\n`);
    writeFileSync(join(planted, 'src', 'gone.ts'), `// docs/design.md ${q}Consensus${q} and ${q}No such section${q}\n`);
    writeFileSync(join(planted, 'src', 'habit.ts'), '// docs/style.md habit 11\n');
    writeFileSync(join(planted, 'web', 'old.ts'), `// ${['DESIGN', 'md'].join('.')} §3\n`);
    expect(repoDocProblems(planted, repoRoot).sort()).toEqual([
      `src/gone.ts: docs/design.md ${q}Consensus${q} and ${q}No such section${q}`,
      'src/habit.ts: docs/style.md habit 11',
      'web/old.ts: cites a document outside the repo',
    ]);
  });
});
