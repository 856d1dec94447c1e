// The network at 300 ms ± 20 % links (issue 31 "Done when": red ratio ≤ 3 %): 16 nodes of degree 8 at
// 10 Mbit/s, eight miners at one block a second, templates refreshed every 500 ms; 120 s.
import type { Scenario } from '../lab.ts';

export const scenario: Scenario = {
  name: 'net16-300ms', nodes: 16, degree: 8, link: { delayMs: 300, jitter: 0.2, rateBytesPerS: 10_000_000 / 8 }, durationS: 120, seed: 16,
  miners: [0, 2, 4, 6, 8, 10, 12, 14].map((node) => ({ node, share: 1 })), blockIntervalMs: 1000, templateRefreshMs: 500,
};
