// `npm start` rebuilds only what is stale (bin/build-if-stale.mjs over bin/bundle-freshness.mjs): a finished build
// whose inputs all predate it is fresh; a missing output, a missing stamp, an edited source (web app, kernels or
// the node bundle's) makes it stale and says why.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildOutputs, buildStampPath, staleBuildReason } from '../../bin/bundle-freshness.mjs';

const root = mkdtempSync(join(tmpdir(), 'weft-build-fresh-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const builtAt = Date.now() - 60_000;
const write = (path: string, text: string, atMs: number): void => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
  utimesSync(join(root, path), atMs / 1000, atMs / 1000);
};
const inputs = ['src/a.ts', 'web/index.html', 'assembly/pow.ts', 'server/cli.ts', 'package.json'];

function finishedBuild(): void {
  for (const path of inputs) write(path, 'x', builtAt - 10_000);
  // Folders' own mtimes count too (a deleted file shows there): the build predates them in a real checkout.
  for (const dir of ['src', 'web', 'assembly', 'server', '.']) utimesSync(join(root, dir), (builtAt - 10_000) / 1000, (builtAt - 10_000) / 1000);
  for (const path of buildOutputs) write(path, 'built', builtAt + 5_000);
  write('build/node/inputs.json', JSON.stringify({ sourcesBeforeMs: builtAt, sources: ['server/cli.ts', 'src/a.ts'] }), builtAt + 5_000);
  write(buildStampPath, JSON.stringify({ startedMs: builtAt }), builtAt + 6_000);
}

describe('staleBuildReason', () => {
  it('is null for a finished build whose inputs all predate it', () => {
    finishedBuild();
    expect(staleBuildReason(root)).toBeNull();
  });

  it('names an edited web source, an edited bundle source, a missing output and a missing stamp', () => {
    finishedBuild();
    write('web/index.html', 'edited', builtAt + 30_000);
    expect(staleBuildReason(root)).toBe('web changed since the last build');
    finishedBuild();
    write('server/cli.ts', 'edited', builtAt + 30_000);
    expect(staleBuildReason(root)).toBe('a source of the node bundle changed since it was built');
    finishedBuild();
    rmSync(join(root, 'dist/web/web/index.html'));
    expect(staleBuildReason(root)).toBe('dist/web/web/index.html is missing');
    finishedBuild();
    rmSync(join(root, buildStampPath));
    expect(staleBuildReason(root)).toMatch(/build-stamp.json is missing/);
  });
});
