// The repo explains itself: no file points at design documents that live outside it, and every pointer into the
// design and style documents (docs/design.md "<Section>", docs/style.md "<Section>") names a heading that exists.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './vectors.ts';

const roots = ['src', 'server', 'web', 'test', 'e2e', 'bench', 'docs', 'bin', 'assembly', 'shaders', 'README.md'];
const textFile = /\.(ts|mjs|js|md|html|css|wgsl)$/;

function walk(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return textFile.test(path) ? [path] : [];
  return readdirSync(path).flatMap((name) => (name === 'node_modules' ? [] : walk(join(path, name))));
}

const files = roots.flatMap((root) => walk(join(repoRoot, root)));
const outsideDoc = new RegExp(['DESIGN', 'STYLE'].map((n) => `\\b${n}\\.md`).join('|'));
const pointer = /docs\/(design|style)\.md "([^"]+)"/g;

function headings(doc: string): Set<string> {
  const text = readFileSync(join(repoRoot, 'docs', `${doc}.md`), 'utf8');
  return new Set([...text.matchAll(/^#{1,6}\s+(.+?)\s*$/gm)].map((m) => m[1]!));
}

/** Pointers of `text` whose document or heading does not exist. */
export function danglingPointers(text: string): string[] {
  const bad: string[] = [];
  for (const [whole, doc, section] of text.matchAll(pointer)) {
    if (!existsSync(join(repoRoot, 'docs', `${doc}.md`)) || !headings(doc!).has(section!)) bad.push(whole);
  }
  return bad;
}

describe('the repo explains itself', () => {
  it('has files to check', () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it('cites no design document that lives outside the repo', () => {
    // docs/design.md names the old citation form once, in the table that maps it.
    const exempt = [join('test', 'repo-docs.test.ts'), join('docs', 'design.md')];
    const citing = files.filter((f) => !exempt.some((e) => f.endsWith(e)) && outsideDoc.test(readFileSync(f, 'utf8')));
    expect(citing.map((f) => relative(repoRoot, f))).toEqual([]);
  });

  it('points only at sections that exist', () => {
    const dangling = files.filter((f) => !f.endsWith(join('test', 'repo-docs.test.ts'))).flatMap((f) => danglingPointers(readFileSync(f, 'utf8')).map((p) => `${relative(repoRoot, f)}: ${p}`));
    expect(dangling).toEqual([]);
  });

  it('catches a dangling pointer', () => {
    expect(danglingPointers('see docs/design.md "Consensus" and docs/design.md "No such section"')).toEqual(['docs/design.md "No such section"']);
  });
});
