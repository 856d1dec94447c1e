// Initial block download between node processes: a node started late syncs a 10,000-block regtest DAG
// headers-first from two peers; it is killed with SIGKILL in the middle of the sync, restarted, resumes from what it
// had committed and converges on the peers' tip. Progress (percent, blocks/s, ETA) shows in its logs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyDatadir, startP2pProcess, type P2pProcess } from '../../helpers/p2p-process.ts';
import { regtestDatadir } from '../../helpers/regtest-dag.ts';

const blocks = 10_000;
const dirs: string[] = [];
const processes: P2pProcess[] = [];
afterAll(async () => {
  for (const p of processes) await p.kill();
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

function tempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `weft-ibd-${name}-`));
  dirs.push(dir);
  return dir;
}

describe('initial block download between node processes', () => {
  it('syncs 10,000 blocks from two peers, survives kill -9 mid-sync, resumes and converges', async () => {
    const source = await regtestDatadir(blocks);
    // The two serving nodes do not know each other: they start at once.
    const serving = await Promise.all(
      ['a', 'b'].map(async (name) => {
        const dir = join(tempDir(name), 'data');
        copyDatadir(source, dir);
        const p = await startP2pProcess(dir);
        processes.push(p);
        return p;
      }),
    );
    const target = await serving[0]!.health();
    expect(target.blocks).toBe(blocks + 1);
    const seeds = serving.flatMap((p) => ['--addnode', `127.0.0.1:${p.p2pPort}`]);

    const lateDir = tempDir('late');
    const first = await startP2pProcess(lateDir, seeds);
    processes.push(first);
    await first.proc.waitFor((l) => l.event === 'sync_started', 30_000);
    const progress = await first.proc.waitFor((l) => l.event === 'sync_progress' && (l.applied as number) > 0, 120_000);
    expect(progress).toMatchObject({ percent: expect.any(Number), blocksPerSecond: expect.any(Number) });
    // Killed early, going by /health (log lines reach the test with some lag; a 10k sync takes only seconds), once a
    // first batch is durable: /health counts blocks as they are accepted, `block_committed` is logged once their batch
    // is on disk, and on a loaded box the first commit can come after 300 accepted blocks.
    for (let h = await first.health(); (h.blocks as number) < 300 || first.committed().length === 0; h = await first.health()) await new Promise((r) => setTimeout(r, 20));
    await first.kill();
    const reported = first.committed().length;
    expect(reported).toBeGreaterThan(0);

    const second = await startP2pProcess(lateDir, seeds);
    processes.push(second);
    const loaded = await second.proc.waitFor((l) => l.msg === 'chain loaded', 60_000);
    // Nothing the killed process reported as committed was lost, and it was killed mid-sync.
    expect(loaded.blocks as number).toBeGreaterThanOrEqual(reported + 1);
    expect(loaded.blocks as number).toBeLessThan(blocks + 1);
    const resumed = await second.proc.waitFor((l) => l.event === 'sync_started', 30_000);
    expect(resumed.from as number).toBeGreaterThan(0);
    // Mid-sync, /health reports progress (percent, blocks/s, ETA) and readiness is withheld.
    const mid = await second.health();
    if (mid.blocks !== blocks + 1) expect(mid).toMatchObject({ synced: false, status: 'syncing', sync: { state: 'syncing', percent: expect.any(Number), blocks_per_second: expect.any(Number) } });
    const deadline = Date.now() + 240_000;
    let health = await second.health();
    while ((health.blocks !== blocks + 1 || health.synced !== true) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      health = await second.health();
    }
    expect(health).toMatchObject({ blocks: blocks + 1, tip_hash: target.tip_hash, height: target.height, synced: true });
    expect(health.peers as number).toBe(2);
    expect(health.sync).toMatchObject({ state: 'synced', percent: 100, current_blue_score: target.blue_score });
    const done = await second.proc.waitFor((l) => l.event === 'sync_complete', 10_000);
    expect(done.tip).toBe((target.tip_hash as string).slice(2));
  }, 420_000);
});
