// net8 at 300 ms ± 20 % links (issue 31 "Done when": red ratio ≤ 3 % at 300 ms): 8 nodes of degree 4 at 10 Mbit/s,
// four miners at one block a second, templates refreshed every 500 ms; 120 s.
import type { Scenario } from '../lab.ts';

export const scenario: Scenario = {
  name: 'net8-300ms', nodes: 8, degree: 4, link: { delayMs: 300, jitter: 0.2, rateBytesPerS: 10_000_000 / 8 }, durationS: 120, seed: 8,
  miners: [0, 2, 4, 6].map((node) => ({ node, share: 1 })), blockIntervalMs: 1000, templateRefreshMs: 500,
};
