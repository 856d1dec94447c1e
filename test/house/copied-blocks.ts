// The copy-paste check (docs/style.md "Copied blocks"): jscpd over the production TypeScript of src/, server/ and
// web/, a block of six lines or more (and jscpd's default 50 tokens, so a run of closing braces is no copy) found
// twice is a copied block unless the exception table of docs/style.md lists its pair of files with a reason.
import { createRequire } from 'node:module';
import { join } from 'node:path';

// jscpd 4.2's ESM build imports 'colors/safe' without an extension, which Node's ESM resolver refuses; its CommonJS
// build loads. (4.2.4 is pinned: later 4.x releases need commander 15, which needs Node 22.)
const { detectClones } = createRequire(import.meta.url)('jscpd') as typeof import('jscpd');

export const copiedLinesMin = 6;
export const copiedTokensMin = 50;
export const copyCheckedRoots = ['src', 'server', 'web'];

export interface CopiedBlock {
  /** Repo-relative paths, the two sorted so a pair reads the same whichever copy jscpd saw first. */
  readonly files: readonly [string, string];
  readonly where: string;
  readonly lines: number;
}

export async function findCopiedBlocks(repoRoot: string): Promise<CopiedBlock[]> {
  const clones = await detectClones({
    path: copyCheckedRoots.map((root) => join(repoRoot, root)),
    format: ['typescript'],
    minLines: copiedLinesMin,
    minTokens: copiedTokensMin,
    ignore: ['**/*.d.ts', '**/node_modules/**'],
    reporters: [],
    silent: true,
    noTips: true,
  });
  const rel = (path: string): string => (path.startsWith(repoRoot) ? path.slice(repoRoot.length + 1) : path).split('\\').join('/');
  return clones.map((clone) => {
    const a = { file: rel(clone.duplicationA.sourceId), line: clone.duplicationA.start.line };
    const b = { file: rel(clone.duplicationB.sourceId), line: clone.duplicationB.start.line };
    const [first, second] = a.file <= b.file ? [a, b] : [b, a];
    return {
      files: [first.file, second.file],
      where: `${first.file}:${first.line} = ${second.file}:${second.line}`,
      lines: clone.duplicationA.end.line - clone.duplicationA.start.line + 1,
    };
  });
}

export interface CopyException {
  readonly files: readonly [string, string];
  readonly reason: string;
}

/** Rows `| \`a\` | \`b\` | reason |` under the "Copied blocks" heading of docs/style.md (a file may pair with itself). */
export function readCopyExceptions(styleText: string): CopyException[] {
  const section = styleText.split(/^## Copied blocks\s*$/m)[1]?.split(/^## /m)[0] ?? '';
  return [...section.matchAll(/^\|\s*`([^`]+)`\s*\|\s*`([^`]+)`\s*\|\s*([^|]*?)\s*\|\s*$/gm)].map((m) => {
    const [a, b] = [m[1]!, m[2]!];
    return { files: a <= b ? [a, b] : [b, a], reason: m[3]! };
  });
}
