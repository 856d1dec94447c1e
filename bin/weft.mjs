#!/usr/bin/env -S node --max-semi-space-size=64
// The `weft` command. It runs the bundle `npm run build` writes (build/node/, bin/bundle-node.mjs) when no source
// it was built from changed after its build began, and otherwise the TypeScript sources through tsx's loader
// (about two seconds slower to start), so an edit never runs stale code.
import { bundleIsFresh } from './bundle-freshness.mjs';

const bundleUrl = new URL('../build/node/weft.mjs', import.meta.url);

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
