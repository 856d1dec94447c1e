#!/usr/bin/env node
// The `weft` command. It runs the bundle `npm run build` writes (build/node/, bin/bundle-node.mjs) when no source
// it was built from changed after its build began, and otherwise the TypeScript sources through tsx's loader
// (about two seconds slower to start), so an edit never runs stale code.
import { readFileSync, statSync } from 'node:fs';

const bundleUrl = new URL('../build/node/weft.mjs', import.meta.url);

function bundleIsFresh() {
  try {
    const { sourcesBeforeMs, sources } = JSON.parse(readFileSync(new URL('../build/node/inputs.json', import.meta.url), 'utf8'));
    return sources.every((path) => statSync(new URL(`../${path}`, import.meta.url)).mtimeMs < sourcesBeforeMs);
  } catch {
    return false; // no bundle, an older one's list, or a source it lists is gone
  }
}

let main;
if (bundleIsFresh()) {
  process.setSourceMapsEnabled(true); // stack traces name the TypeScript sources (build/node/*.map)
  ({ main } = await import(bundleUrl.href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../server/cli.ts'));
}
process.exitCode = await main(process.argv.slice(2));
