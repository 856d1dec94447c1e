// A selfish miner: 8 nodes of degree 4 over 100 ms links; node 7 holds a third of the hash rate and withholds its
// blocks from 20 s for 20 s (its node cut from every link while it mines its private chain), then releases them.
// GHOSTDAG should colour the withheld chain red (it is ~20 blocks behind the honest DAG's anticone bound k = 18)
// and every node converge soon after the release.
import type { Scenario } from '../lab.ts';

export const scenario: Scenario = {
  name: 'selfish', nodes: 8, degree: 4, link: { delayMs: 100, jitter: 0.2, rateBytesPerS: 10_000_000 / 8 }, durationS: 70, seed: 8,
  miners: [{ node: 0, share: 1 }, { node: 3, share: 1 }, { node: 7, share: 1 }], blockIntervalMs: 1000, templateRefreshMs: 500,
  withhold: { node: 7, atS: 20, forS: 20 },
};
