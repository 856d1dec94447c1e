// A node joining by proof mid-run: 5 nodes of degree 2 over 50 ms links, two miners, on a version 2 regtest with the
// short depths of test/integration/server/node/node-fast-join.test.ts (finality 6, merge 3, pruning 12), so the
// pruning point passes genesis within a minute. Node 4 starts 45 s into the mining with an empty datadir, dials its
// two neighbours, joins at their proven pruning point and must reach the network's tip while the others mine on.
import type { Scenario } from '../lab.ts';

export const scenario: Scenario = {
  name: 'late-join', nodes: 5, degree: 2, link: { delayMs: 50, jitter: 0.2, rateBytesPerS: 10_000_000 / 8 }, durationS: 90, seed: 5,
  miners: [{ node: 0, share: 1 }, { node: 2, share: 1 }], blockIntervalMs: 1000, templateRefreshMs: 500,
  nodeFlags: ['--regtest-header-version=2', '--regtest-finality-depth', '6', '--regtest-merge-depth', '3', '--regtest-pruning-depth', '12'],
  lateJoin: { node: 4, atS: 45 },
};
