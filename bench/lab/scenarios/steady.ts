// Steady state: 8 nodes of degree 4 over 100 ms ± 20 % links, four miners with equal shares, 2 minutes.
import type { Scenario } from '../lab.ts';

export const scenario: Scenario = {
  name: 'steady', nodes: 8, degree: 4, link: { delayMs: 100, jitter: 0.2, rateBytesPerS: 10_000_000 / 8 }, durationS: 120, seed: 8,
  miners: [0, 2, 4, 6].map((node) => ({ node, share: 1 })), blockIntervalMs: 1000, templateRefreshMs: 500,
};
