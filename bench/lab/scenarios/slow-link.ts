// One node behind a slow line: 8 nodes of degree 4 over 100 ms links, node 5's links 300 ms ± 20 % at 10 Mbit/s,
// four miners and a transaction load of 20 tx/s; 90 s. The slow node must keep up (no stall) and the red ratio stay
// near the honest network's.
import type { Scenario } from '../lab.ts';

export const scenario: Scenario = {
  name: 'slow-link', nodes: 8, degree: 4, link: { delayMs: 100, jitter: 0.2, rateBytesPerS: 10_000_000 / 8 }, durationS: 90, seed: 8,
  miners: [0, 2, 4, 6].map((node) => ({ node, share: 1 })), blockIntervalMs: 1000, templateRefreshMs: 500,
  slowNode: { node: 5, link: { delayMs: 300, jitter: 0.2, rateBytesPerS: 10_000_000 / 8 } },
  load: { txPerS: 20, senders: 128 },
};
