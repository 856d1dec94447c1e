// The lab's own check (test/journeys/lab-short.test.ts, in `npm test`): 4 nodes, 30 s, 20 ms links, 10 tx/s from 48 senders.
import type { Scenario } from '../lab.ts';

export const scenario: Scenario = {
  name: 'short', nodes: 4, degree: 2, link: { delayMs: 20, jitter: 0.2 }, durationS: 30, seed: 4,
  miners: [{ node: 0, share: 1 }, { node: 2, share: 1 }], blockIntervalMs: 1000, templateRefreshMs: 500,
  // A 5 s baseline (not 10): the funder's coinbase matures in about that time, so the offering keeps its seconds.
  // Half the transfers travel a Dandelion++ stem of 2 hops, so propagation is reported by route.
  load: { txPerS: 10, senders: 48, baselineS: 5, stem: { share: 0.5, hops: 2 } },
};
