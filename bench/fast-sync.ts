/**
 * Joining by proof vs syncing from genesis (issue 19, docs/pruning-proof.md "Serving and joining"): a new `weft node`
 * process on a version 2 regtest joins a chain 1× and 10× its pruning window old from a pruned peer (proof, trusted
 * data, the point's state, then the blocks above the point), against the same node syncing the same chains from
 * genesis off an archive peer (`--fast-sync=false`), in the same run. Each time runs from the process's spawn to its
 * tip equal to the peer's (so both include the process start). Target: join(10×)/join(1×) ≤ 1.3 — a join costs the
 * window above the point, not the chain's age — while a genesis sync grows with the chain.
 *
 * The chains are built in this process (test/helpers/regtest-dag.ts's extendChain on version 2 headers) into an
 * archive datadir and a pruned one (fed the same blocks), which the peers are started on.
 *
 *   npx tsx bench/fast-sync.ts [window=100]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../server/config.ts';
import { installWasmBlake3 } from '../server/crypto/wasm-blake3.ts';
import { openLmdbStore } from '../server/storage/lmdb-store.ts';
import type { Block } from '../src/codec/block.ts';
import { openLedgerChain } from '../src/state/ledger.ts';
import { systemClock } from '../src/util/clock.ts';
import { startP2pProcess, type P2pProcess } from '../test/helpers/p2p-process.ts';
import { extendChain } from '../test/helpers/regtest-dag.ts';

const window = Number(process.argv[2] ?? 100);
const flags = ['--regtest-header-version=2', '--regtest-finality-depth', '6', '--regtest-merge-depth', '3', '--regtest-pruning-depth', String(window), '--rate-limits=false'];
const params = loadConfig(['--network', 'regtest', ...flags]).params;
const dirs: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'weft-bench-fast-sync-'));
  dirs.push(dir);
  return dir;
};

/** An archive and a pruned datadir holding `count` blocks (the pruned one pruned as a node running that long would be). */
async function buildChains(count: number): Promise<{ archive: string; pruned: string }> {
  const archive = tempDir();
  const pruned = tempDir();
  const a = openLmdbStore(join(archive, 'chain'));
  const p = openLmdbStore(join(pruned, 'chain'));
  const source = await openLedgerChain({ params, store: a, clock: systemClock, archive: true });
  const follower = await openLedgerChain({ params, store: p, clock: systemClock });
  const blocks: Block[] = await extendChain(source.chain, count);
  for (const block of blocks) void follower.chain.addBlock(block);
  await follower.chain.settled();
  await follower.chain.pruningSettled();
  for (const store of [a, p]) {
    await store.flush();
    await store.close();
  }
  return { archive, pruned };
}

async function tipOf(node: P2pProcess): Promise<string> {
  return (await node.health()).tip_hash as string;
}

interface Timed {
  /** Spawn to tip, seconds. */
  readonly total: number;
  /** The join itself (its first proof request to `chain loaded`, from the node's log), seconds; 0 without a join. */
  readonly joinPhase: number;
}

const logMs = (line: Record<string, unknown> | undefined): number => (line?.time ? Date.parse(String(line.time)) : Number.NaN);

/** Spawn to tip: a fresh node with `peer` as its only peer, until its tip is the peer's. */
async function timeSync(peer: P2pProcess, extra: readonly string[]): Promise<Timed> {
  const target = await tipOf(peer);
  const began = performance.now();
  const node = await startP2pProcess(tempDir(), ['--addnode', `127.0.0.1:${peer.p2pPort}`, ...flags, ...extra]);
  try {
    for (;;) {
      if ((await tipOf(node)) === target) {
        const lines = node.proc.lines;
        const first = lines.find((l) => l.event === 'fast_join_phase');
        const loaded = lines.find((l) => l.msg === 'chain loaded');
        return { total: (performance.now() - began) / 1000, joinPhase: first ? (logMs(loaded) - logMs(first)) / 1000 : 0 };
      }
      const failed = node.proc.lines.find((l) => l.event === 'fast_join_gave_up' || l.event === 'fast_join_peer_refused' || l.event === 'fast_join_peer_failed');
      if (failed || performance.now() - began > 180_000) {
        const tail = node.proc.lines.filter((l) => l.event !== 'block_committed').slice(-15).map((l) => JSON.stringify(l).slice(0, 400));
        throw new Error(`sync did not finish: ${failed ? String(failed.err ?? failed.msg) : 'timeout'}\n${tail.join('\n')}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await node.kill();
  }
}

async function measure(age: number): Promise<{ blocks: number; join: Timed; genesis: Timed; joinedAt: unknown }> {
  const blocks = (age + 1) * window;
  const { archive, pruned } = await buildChains(blocks);
  const archivePeer = await startP2pProcess(archive, [...flags, '--archive']);
  const prunedPeer = await startP2pProcess(pruned, flags);
  try {
    const join = await timeSync(prunedPeer, []);
    const genesis = await timeSync(archivePeer, ['--fast-sync=false']);
    const point = ((await prunedPeer.health()).pruning as { pruning_point?: string } | undefined)?.pruning_point;
    return { blocks, join, genesis, joinedAt: point };
  } finally {
    await archivePeer.kill();
    await prunedPeer.kill();
  }
}

await installWasmBlake3();
console.log(`load ${loadavg().map((l) => l.toFixed(2)).join(' ')}; pruning window ${window} blocks (version 2 regtest)`);
try {
  const one = await measure(1);
  const ten = await measure(10);
  for (const [name, r] of [['1×', one], ['10×', ten]] as const) {
    console.log(`${name} window (${r.blocks} blocks, pruning point ${String(r.joinedAt).slice(0, 18)}…): join ${r.join.total.toFixed(2)} s (proof to chain loaded ${r.join.joinPhase.toFixed(2)} s), genesis sync ${r.genesis.total.toFixed(2)} s`);
  }
  console.log(`join(10×)/join(1×) = ${(ten.join.total / one.join.total).toFixed(2)} (target ≤ 1.3; proof to chain loaded ${(ten.join.joinPhase / one.join.joinPhase).toFixed(2)}); genesis(10×)/genesis(1×) = ${(ten.genesis.total / one.genesis.total).toFixed(2)}`);
  console.log(`load after ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
} finally {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
