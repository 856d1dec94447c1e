// Whether what `npm run build` made may be used as it is. The same question two ways:
//  - bundleIsFresh(): build/node/ (bin/bundle-node.mjs) is built and no source it lists (build/node/inputs.json)
//    changed after its build began. bin/weft.mjs runs the bundle only then, so an edit never runs stale code; a test
//    asks the same question to know which runtime a started node must report.
//  - buildIsFresh(): the whole build — the bundle as above, and build/wasm and dist/web, which build/build-stamp.json
//    (written by a build that finished) says were made from inputs none of which changed after that build began.
//    `npm start` rebuilds only when it is not (bin/build-if-stale.mjs).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** @param {string} [root] @returns {boolean} */
export function bundleIsFresh(root = repoRoot) {
  try {
    const { sourcesBeforeMs, sources } = JSON.parse(readFileSync(join(root, 'build/node/inputs.json'), 'utf8'));
    return sources.every((path) => statSync(join(root, path)).mtimeMs < sourcesBeforeMs);
  } catch {
    return false; // no bundle, an older one's list, or a source it lists is gone
  }
}

/** What the Wasm kernels, the native verifier, the web app and the widget are built from (the bundle lists its own sources). */
export const buildInputs = ['assembly', 'web', 'src', 'shaders', 'bin', 'server/crypto/native', 'vite.config.ts', 'vite.widget.config.ts', 'package.json', 'package-lock.json', 'tsconfig.json'];
/** What a finished build leaves; a missing one means it must run. */
export const buildOutputs = ['build/wasm/blake3-pow-simd.wasm', 'build/node/weft.mjs', 'dist/web/web/index.html', 'dist/web/weft-wallet.js'];
export const buildStampPath = 'build/build-stamp.json';

/** The newest mtime under `path` (a file or a folder, walked), or 0 when it does not exist. */
function newestMtimeMs(path) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a deleted file shows as its folder's change
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    newest = Math.max(newest, newestMtimeMs(join(path, entry)));
  }
  return newest;
}

/**
 * Why the build must run, or null when everything it makes is there and fresh.
 * @param {string} [root] @returns {string | null}
 */
export function staleBuildReason(root = repoRoot) {
  const missing = buildOutputs.find((path) => newestMtimeMs(join(root, path)) === 0);
  if (missing) return `${missing} is missing`;
  if (!bundleIsFresh(root)) return 'a source of the node bundle changed since it was built';
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(join(root, buildStampPath), 'utf8'));
  } catch {
    return `${buildStampPath} is missing (no finished build recorded)`;
  }
  if (typeof stamp.startedMs !== 'number') return `${buildStampPath} has no startedMs`;
  const changed = buildInputs.find((path) => newestMtimeMs(join(root, path)) >= stamp.startedMs);
  return changed ? `${changed} changed since the last build` : null;
}

/** @param {string} [root] @returns {boolean} */
export function buildIsFresh(root = repoRoot) {
  return staleBuildReason(root) === null;
}
