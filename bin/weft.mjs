#!/usr/bin/env node
// The `weft` command. It runs the bundle `npm run build` writes (build/node/, bin/bundle-node.mjs) when that is
// at least as new as every source it was built from, and otherwise the TypeScript sources through tsx's loader
// (about two seconds slower to start), so an edit never runs stale code.
import { readFileSync, statSync } from 'node:fs';

const bundleUrl = new URL('../build/node/weft.mjs', import.meta.url);

function bundleIsFresh() {
  try {
    const built = statSync(bundleUrl).mtimeMs;
    const inputs = JSON.parse(readFileSync(new URL('../build/node/inputs.json', import.meta.url), 'utf8'));
    return inputs.every((path) => statSync(new URL(`../${path}`, import.meta.url)).mtimeMs <= built);
  } catch {
    return false; // no bundle, or a source it lists is gone
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
