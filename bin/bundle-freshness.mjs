// Whether build/node/ (bin/bundle-node.mjs) may run: built, and no source it was built from (build/node/inputs.json)
// changed after its build began. bin/weft.mjs runs the bundle only then, so an edit never runs stale code; a test
// asks the same question to know which runtime a started node must report.
import { readFileSync, statSync } from 'node:fs';

/** @returns {boolean} */
export function bundleIsFresh() {
  try {
    const { sourcesBeforeMs, sources } = JSON.parse(readFileSync(new URL('../build/node/inputs.json', import.meta.url), 'utf8'));
    return sources.every((path) => statSync(new URL(`../${path}`, import.meta.url)).mtimeMs < sourcesBeforeMs);
  } catch {
    return false; // no bundle, an older one's list, or a source it lists is gone
  }
}
