// The network lab's own check (bench/lab/, docs/network.md), so the lab cannot rot: the short scenario (4 `weft
// node` processes as shipped, links through the emulator, Poisson mining, a 10 tx/s load, half of it by Dandelion++
// stem, 30 s, watched by the spy) runs, every figure is produced, each node's log is kept, and no session through a
// link broke.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../bench/lab/lab.ts';
import { writeLabReport } from '../../bench/lab/report.ts';
import { scenario } from '../../bench/lab/scenarios/short.ts';

describe('network lab', () => {
  it('runs the short scenario: every mined block reaches every node, no stall, no ban, a whole report', async () => {
    const run = await runScenario(scenario);
    const dir = mkdtempSync(join(tmpdir(), 'weft-lab-test-'));
    try {
      const figures = writeLabReport(run, dir);
      for (const file of ['report.json', 'report.md', 'report.svg']) expect(existsSync(join(dir, file))).toBe(true);
      for (const node of run.nodes) {
        expect(existsSync(join(dir, `node-${node.index}.jsonl`))).toBe(true);
        // Bytes through the link emulator arrive in order: no session was refused for bytes out of place.
        expect(node.log.filter((line) => /authentication failed/.test(String(line.reason)))).toEqual([]);
      }
      expect(figures.errors).toEqual([]);
      // ~30 Poisson blocks in 30 s; fewer than 12 would mean the miners or the nodes fell behind.
      expect(figures.blocksMined).toBeGreaterThanOrEqual(12);
      expect(figures.blocksEverywhere).toBe(figures.blocksMined);
      expect(figures.stalledNodes).toEqual([]);
      expect(figures.honestBans).toBe(0);
      expect(figures.propagationMs.reach100.p50).toBeGreaterThanOrEqual(scenario.link.delayMs * (1 - scenario.link.jitter));
      expect(figures.tipAgreement).toBeGreaterThan(0.5);
      // The transaction load (bench/lab/load.ts): its senders funded in time, transfers offered, relayed and confirmed.
      expect(figures.load?.submitted).toBeGreaterThan(0);
      expect(figures.load?.confirmedTxPerS).toBeGreaterThan(0);
      expect(figures.load?.propagationAllMs.p50).toBeGreaterThanOrEqual(scenario.link.delayMs * (1 - scenario.link.jitter));
      // The wire-bytes baseline: a window of mining alone that held blocks, and transfers that cost bytes beyond it.
      expect(figures.load?.baseline.blocks).toBeGreaterThan(0);
      expect(figures.load?.wireBytesPerTxPerNode).toBeGreaterThan(0);
      // Transfers by Dandelion++ stem and announced at once are reported apart, every transfer on one route.
      const routes = figures.load?.propagationByRoute;
      expect((routes?.stem.transfers ?? 0) + (routes?.fluff.transfers ?? 0)).toBe(figures.load?.submitted);
      // The spy, a peer of every node, names each transfer's first announcer: the origin of nearly every transfer
      // announced at once, of fewer of those that went by stem (the privacy the stem buys).
      const share = (r: { spied: number; originFirst: number } | undefined) => (r === undefined || r.spied === 0 ? NaN : r.originFirst / r.spied);
      expect(routes?.stem.spied).toBeGreaterThan(0);
      expect(routes?.fluff.spied).toBeGreaterThan(0);
      expect(share(routes?.stem)).toBeLessThan(share(routes?.fluff));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
