// A half/half partition: 8 nodes of degree 4, 100 ms links, the halves cut apart for 60 s from 20 s, then healed.
import type { Scenario } from '../lab.ts';

export const scenario: Scenario = {
  name: 'partition', nodes: 8, degree: 4, link: { delayMs: 100, jitter: 0.2, rateBytesPerS: 10_000_000 / 8 }, durationS: 110, seed: 8,
  miners: [0, 2, 4, 6].map((node) => ({ node, share: 1 })), blockIntervalMs: 1000, templateRefreshMs: 500,
  partition: { atS: 20, forS: 60 },
};
