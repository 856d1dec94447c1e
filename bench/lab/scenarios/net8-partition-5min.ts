// net8's long partition (issue 31 "Done when"): 8 nodes of degree 4 over 100 ms ± 20 % links at 10 Mbit/s, four
// miners at one block a second, the halves cut apart for 5 minutes from 30 s, then 60 s healed; 390 s; at mainnet's finality and
// merge depths.
import type { Scenario } from '../lab.ts';

export const scenario: Scenario = {
  name: 'net8-partition-5min', nodes: 8, degree: 4, link: { delayMs: 100, jitter: 0.2, rateBytesPerS: 10_000_000 / 8 }, durationS: 390, seed: 8,
  miners: [0, 2, 4, 6].map((node) => ({ node, share: 1 })), blockIntervalMs: 1000, templateRefreshMs: 500,
  partition: { atS: 30, forS: 300 },
  // Mainnet's finality and merge depths: regtest's (100, 50) are shorter than the cut's ~150 blocks a side, and a side
  // that outgrew the finality depth is, by consensus, never merged again (docs/consensus.md): the run would measure that.
  nodeFlags: ['--regtest-finality-depth', '43200', '--regtest-merge-depth', '3600'],
};
