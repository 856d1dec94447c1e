#!/usr/bin/env node
// `npm start`'s first step: runs `npm run build` only when the build is missing or older than a source
// (bin/bundle-freshness.mjs `staleBuildReason`), and says which; a fresh build starts the node at once.
// `--begin` and `--end` are the build script's own first and last steps: they record when a build began and, once it
// finished, build/build-stamp.json, the instant every input must predate for the build to count as fresh.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildStampPath, staleBuildReason } from './bundle-freshness.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const stamp = join(root, buildStampPath);
const begun = `${stamp}.begun`;
const mode = process.argv[2];

if (mode === '--begin') {
  mkdirSync(dirname(stamp), { recursive: true });
  writeFileSync(begun, JSON.stringify({ startedMs: Date.now() }));
} else if (mode === '--end') {
  JSON.parse(readFileSync(begun, 'utf8'));
  renameSync(begun, stamp);
} else {
  const reason = staleBuildReason(root);
  if (reason === null) {
    console.log('build is fresh: skipping `npm run build` (edit a source, or run it yourself, to rebuild)');
  } else {
    console.log(`building: ${reason}`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const result = spawnSync(npm, ['run', 'build'], { cwd: root, stdio: 'inherit' });
    process.exitCode = result.status ?? 1;
  }
}
