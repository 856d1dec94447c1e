// The network (issue 31 "Done when"): 16 nodes of degree 8 over 100 ms ± 20 % links at 10 Mbit/s, eight
// miners with equal shares at one block a second, templates refreshed every 500 ms as a miner would, a transaction
// load at random nodes, and a half/half partition of 60 s from 40 s; 150 s.
import type { Scenario } from '../lab.ts';

export const scenario: Scenario = {
  name: 'net16', nodes: 16, degree: 8, link: { delayMs: 100, jitter: 0.2, rateBytesPerS: 10_000_000 / 8 }, durationS: 150, seed: 16,
  miners: [0, 2, 4, 6, 8, 10, 12, 14].map((node) => ({ node, share: 1 })), blockIntervalMs: 1000, templateRefreshMs: 500,
  load: { txPerS: 20, senders: 128 },
  partition: { atS: 40, forS: 60 },
};
