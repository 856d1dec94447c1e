// The network at the size this 2-core box can host (docs/network.md "Sixteen nodes"): 8 nodes of degree 4
// over 100 ms ± 20 % links at 10 Mbit/s, four miners with equal shares at one block a second, templates refreshed
// every 500 ms, 10 tx/s at random nodes, and a half/half partition of 60 s from 40 s; 150 s.
import type { Scenario } from '../lab.ts';

export const scenario: Scenario = {
  name: 'net8', nodes: 8, degree: 4, link: { delayMs: 100, jitter: 0.2, rateBytesPerS: 10_000_000 / 8 }, durationS: 150, seed: 8,
  miners: [0, 2, 4, 6].map((node) => ({ node, share: 1 })), blockIntervalMs: 1000, templateRefreshMs: 500,
  load: { txPerS: 10, senders: 64 },
  partition: { atS: 40, forS: 60 },
};
