// Churn and an adversary peer: 6 nodes of degree 3 over 50 ms links, two miners; every 20 s a non-mining node is
// killed (-9) and restarted 5 s later; at 15 s an adversary relays an invalid block and a junk transaction to three
// nodes. Every target must ban it, no honest node may ban another, and every node must end on the same tip.
import type { Scenario } from '../lab.ts';

export const scenario: Scenario = {
  name: 'adversary', nodes: 6, degree: 3, link: { delayMs: 50, jitter: 0.2, rateBytesPerS: 10_000_000 / 8 }, durationS: 60, seed: 6,
  miners: [{ node: 0, share: 1 }, { node: 3, share: 1 }], blockIntervalMs: 1000, templateRefreshMs: 500,
  churn: { everyS: 20, downS: 5 },
  attacker: { atS: 15, targets: [1, 2, 4] },
};
