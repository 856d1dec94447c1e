// Steady state under a transaction load: 8 nodes of degree 4 over 100 ms ± 20 % links at 10 Mbit/s, four miners,
// 50 tx/s offered to random nodes once 256 senders are funded; 90 s.
import type { Scenario } from '../lab.ts';

export const scenario: Scenario = {
  name: 'load', nodes: 8, degree: 4, link: { delayMs: 100, jitter: 0.2, rateBytesPerS: 10_000_000 / 8 }, durationS: 90, seed: 8,
  miners: [0, 2, 4, 6].map((node) => ({ node, share: 1 })), blockIntervalMs: 1000, templateRefreshMs: 500,
  load: { txPerS: 50, senders: 256 },
};
