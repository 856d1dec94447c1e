// Pruning on real nodes (issue 18, docs/storage.md "Pruning"): an archive node mines with small regtest depths and a
// pruned node follows it over P2P. The pruned node's pruning point moves and its rounds finish; above the point both
// give the same answers, below it the pruned node says the data is pruned (-32000 data_pruned, REST 410) while the
// archive still serves it. Killed with SIGKILL (twice, as rounds run), the pruned node opens without replaying,
// finishes what it owed and follows the archive again; no block it logged as committed is ever unknown.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { pollFor } from '../../../helpers/poll.ts';
import { startP2pProcess, type P2pProcess } from '../../../helpers/p2p-process.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'weft-pruning-'));
  dirs.push(dir);
  return dir;
};

// Consensus depths must match on both nodes; the pruning depth is each node's own policy.
const depths = ['--regtest-finality-depth', '6', '--regtest-merge-depth', '3', '--regtest-pruning-depth', '12', '--rate-limits=false'];

interface Pruning {
  archive: boolean;
  pruning_point?: string;
  pruning_point_height?: number;
  pruning_point_blue_score?: number;
  pruned_through?: string;
}

async function rpc(node: P2pProcess, datadir: string, method: string, params: Record<string, unknown>): Promise<{ result?: any; error?: { code: number; message: string; data?: any } }> {
  const key = readFileSync(join(datadir, 'api.cookie'), 'utf8').trim();
  const res = await fetch(`http://127.0.0.1:${node.httpPort}/api/v1/rpc`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify({ jsonrpc: '2.0', method, params, id: 1 }) });
  return (await res.json()) as { result?: any; error?: { code: number; message: string; data?: any } };
}

const until = <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> => pollFor(what, probe, timeoutMs, 100);

async function pruningOf(node: P2pProcess): Promise<Pruning> {
  const health = await node.health();
  if (health.pruning === undefined) throw new Error(`/health without pruning: ${JSON.stringify(health)}`);
  return health.pruning as Pruning;
}
const tipOf = async (node: P2pProcess): Promise<string> => (await node.health()).tip_hash as string;

describe('a pruned node beside an archive node', () => {
  it('agrees above the pruning point, says "pruned" below it, and survives kill -9 mid-round', async () => {
    const archiveDir = tempDir();
    const prunedDir = tempDir();
    const running: P2pProcess[] = [];
    onTestFinished(async () => void (await Promise.all(running.map((n) => n.kill()))));
    // The archive mines only while the test needs blocks: its miner is a busy CPU thread, and a node starting beside
    // it takes half as long again on a two-core box.
    const archive = await startP2pProcess(archiveDir, ['--archive', ...depths]);
    running.push(archive);
    const archiveMining = async (on: boolean) =>
      expect((await rpc(archive, archiveDir, on ? 'start_mining' : 'stop_mining', on ? { threads: 1, gpu_mining: false } : {})).error).toBeUndefined();
    expect(await pruningOf(archive)).toEqual({ archive: true });
    const follow = async () => {
      const node = await startP2pProcess(prunedDir, ['--addnode', `127.0.0.1:${archive.p2pPort}`, ...depths]);
      running.push(node);
      return node;
    };
    let pruned = await follow();
    await archiveMining(true);

    // The point moves past a few finality intervals and its rounds finish.
    const settled = async (minHeight: number) =>
      until(`a finished round past height ${minHeight}`, async () => {
        const p = await pruningOf(pruned);
        return p.pruning_point_height! >= minHeight && p.pruned_through === p.pruning_point ? p : undefined;
      });
    const first = await settled(6);
    expect(first.archive).toBe(false);

    // Kill -9 while rounds run — once after a round, once right at the next open (when an owed round resumes): the
    // node opens without replay, finishes what it owed and follows again.
    let seen = pruned.committed();
    const before = (await pruningOf(pruned)).pruning_point_height!;
    await pruned.proc.waitFor((l) => l.event === 'pruning_round' && (l.toBlueScore as number) > first.pruning_point_blue_score!, 90_000);
    for (let kill = 0; kill < 2; kill++) {
      if (kill === 1) await pruned.proc.waitFor((l) => l.msg === 'chain loaded');
      await pruned.kill();
      // The second kill is at the open, with no new block needed: the archive pauses for the two restarts.
      if (kill === 0) await archiveMining(false);
      seen = [...seen, ...pruned.committed()];
      pruned = await follow();
      expect((await pruned.proc.waitFor((l) => l.msg === 'chain loaded')).replayed).toBe(0);
    }
    await archiveMining(true);
    await settled(before + 1);
    seen = [...seen, ...pruned.committed()];

    // Same tip, then the same answers above the point; below it, "pruned" with the point named.
    await archiveMining(false);
    await until('the pruned node at the archive tip', async () => ((await tipOf(pruned)) === (await tipOf(archive)) ? true : undefined));
    const point = await settled(0);
    const tipHeight = (await archive.health()).height as number;
    for (let h = point.pruning_point_height! + 1; h <= tipHeight; h++) {
      const a = await rpc(archive, archiveDir, 'get_block', { height: h });
      const p = await rpc(pruned, prunedDir, 'get_block', { height: h });
      expect(p, `height ${h}`).toEqual(a);
    }
    for (const h of [1, point.pruning_point_height! - 1]) {
      const answer = await rpc(pruned, prunedDir, 'get_block', { height: h });
      expect(answer.error).toMatchObject({ code: -32000, data: { reason: 'data_pruned', pruning_point: point.pruning_point } });
      expect(answer.error!.message).toMatch(/pruned/);
      expect((await rpc(archive, archiveDir, 'get_block', { height: h })).result).toBeDefined();
      const rest = await fetch(`http://127.0.0.1:${pruned.httpPort}/api/v1/blocks/${h}`);
      expect(rest.status).toBe(410);
    }
    const miner = (await rpc(archive, archiveDir, 'get_mining_info', {})).result.reward_address as string;
    expect((await rpc(pruned, prunedDir, 'get_balance', { address: miner })).result).toEqual((await rpc(archive, archiveDir, 'get_balance', { address: miner })).result);
    // Every block the pruned node ever logged as committed is still known: whole, or pruned, never "not found".
    for (const hash of new Set(seen)) {
      const answer = await rpc(pruned, prunedDir, 'get_block', { hash, include_transactions: false });
      if (answer.error) expect(answer.error.data?.reason, hash).toBe('data_pruned');
    }
    await archiveMining(true);
    // It keeps following as the archive mines on, and mines itself: its blocks reach the archive.
    const height = (await pruned.health()).height as number;
    await until('the pruned node past its height', async () => (((await pruned.health()).height as number) > height + 2 ? true : undefined));
    expect((await rpc(pruned, prunedDir, 'start_mining', { threads: 1, gpu_mining: false })).error).toBeUndefined();
    await until('a block mined by the pruned node', async () => (((await pruned.health()).mining as { blocks_found: number }).blocks_found > 0 ? true : undefined));
    await Promise.all([pruned.stop(), archive.stop()]);
  }, 240_000);
});
