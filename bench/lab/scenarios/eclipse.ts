// An eclipse attempt: 8 nodes of degree 4 over 100 ms links, four miners; at 15 s an attacker opens 150 connections
// (fresh identities, each answering pings) to node 0, which dialled all its neighbours. The victim must keep its
// honest outbound peers and stay on the network's tip.
import type { Scenario } from '../lab.ts';

export const scenario: Scenario = {
  name: 'eclipse', nodes: 8, degree: 4, link: { delayMs: 100, jitter: 0.2, rateBytesPerS: 10_000_000 / 8 }, durationS: 60, seed: 8,
  miners: [0, 2, 4, 6].map((node) => ({ node, share: 1 })), blockIntervalMs: 1000, templateRefreshMs: 500,
  eclipse: { victim: 0, atS: 15, connections: 150 },
};
