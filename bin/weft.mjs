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
const code = await main(process.argv.slice(2));
// A node that failed to start may still hold what it opened before the failure (its store, worker threads, timers),
// which would keep the process alive with nothing serving: exit, so a supervisor sees the failure and restarts it.
if (code !== 0) process.exit(code);
process.exitCode = code;
