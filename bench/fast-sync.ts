/**
 * Joining by proof vs syncing from genesis (issue 19, docs/pruning-proof.md "Serving and joining"): a new `weft node`
 * process on a version 2 regtest joins a chain 1× and 10× its pruning window old from a pruned peer (proof, trusted
 * data, the point's state, then the blocks above the point), against the same node syncing the same chains from
 * genesis off an archive peer (`--fast-sync=false`), in the same run. Each time runs from the process's spawn to its
 * tip equal to the peer's (so both include the process start). Target: join(10×)/join(1×) ≤ 1.3 — a join costs the
 * window above the point, not the chain's age — while a genesis sync grows with the chain.
 *
 * The tab half, in the same run: a fresh browser tab (Debian's Chromium, headless, a new profile each time) opening
 * the pruned peer's web app joins by proof (web/light/light-node.ts: proof, trusted data, the headers above the
 * point), against a tab opening the archive peer's with `?verify=genesis`, which verifies every header from genesis
 * — what every tab did before joining existed. Each tab time runs from `page.goto` to the light node's `synced`.
 *
 * The chains are built in this process (test/helpers/regtest-dag.ts's extendChain on version 2 headers) into an
 * archive datadir and a pruned one (fed the same blocks), which the peers are started on. Needs `npm run build`
 * (the peers serve dist/web).
 *
 * Every time is the median of `runs` runs on the same chains.
 *
 *   npx tsx bench/fast-sync.ts [window=100] [runs=3]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { chromiumArgs } from '../playwright.config.ts';
import { loadConfig } from '../server/config.ts';
import { installWasmBlake3 } from '../server/crypto/wasm-blake3.ts';
import { openLmdbStore } from '../server/storage/lmdb-store.ts';
import type { Block } from '../src/codec/block.ts';
import { openLedgerChain } from '../src/state/ledger.ts';
import { systemClock } from '../src/util/clock.ts';
import { startP2pProcess, type P2pProcess } from '../test/helpers/p2p-process.ts';
import { extendChain } from '../test/helpers/regtest-dag.ts';

const windowBlocks = Number(process.argv[2] ?? 100);
/** Each figure is the median of this many runs on the same chains. */
const runs = Number(process.argv[3] ?? 3);
const flags = ['--regtest-header-version=2', '--regtest-finality-depth', '6', '--regtest-merge-depth', '3', '--regtest-pruning-depth', String(windowBlocks), '--rate-limits=false'];
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

interface TabTimed {
  /** page.goto to `synced`, seconds. */
  readonly total: number;
  /** Headers the tab holds, and where they start (a pruning point, or null for genesis). */
  readonly headers: number;
  readonly joinedAt: string | null;
}

/** A fresh profile opening `url` until its light node is synced on `peer`'s tip. */
async function timeTab(browser: Browser, url: string, peer: P2pProcess): Promise<TabTimed> {
  const target = await tipOf(peer);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const began = performance.now();
    await page.goto(url);
    await page.waitForFunction(() => ['synced', 'rejected'].includes(window.weftLight?.status().state ?? ''), null, { timeout: 180_000, polling: 20 });
    const total = (performance.now() - began) / 1000;
    const s = (await page.evaluate(() => window.weftLight!.status()))!;
    if (s.state !== 'synced') throw new Error(`the tab did not sync: ${JSON.stringify(s.error)}`);
    if (s.tipHash !== target) throw new Error(`the tab synced to ${s.tipHash}, the node's tip is ${target}`);
    return { total, headers: s.headers, joinedAt: s.joinedAt };
  } finally {
    await context.close();
  }
}

async function measure(browser: Browser, age: number): Promise<{ blocks: number; join: Timed; genesis: Timed; tabJoin: TabTimed; tabGenesis: TabTimed; joinedAt: unknown }> {
  const blocks = (age + 1) * windowBlocks;
  const { archive, pruned } = await buildChains(blocks);
  const archivePeer = await startP2pProcess(archive, [...flags, '--archive']);
  const prunedPeer = await startP2pProcess(pruned, flags);
  try {
    const point = ((await prunedPeer.health()).pruning as { pruning_point?: string } | undefined)?.pruning_point;
    const samples: { join: Timed; genesis: Timed; tabJoin: TabTimed; tabGenesis: TabTimed }[] = [];
    for (let run = 0; run < runs; run++) {
      const join = await timeSync(prunedPeer, []);
      const genesis = await timeSync(archivePeer, ['--fast-sync=false']);
      const tabJoin = await timeTab(browser, `http://127.0.0.1:${prunedPeer.httpPort}/`, prunedPeer);
      if (tabJoin.joinedAt !== point) throw new Error(`the tab joined at ${tabJoin.joinedAt}, the peer's point is ${point}`);
      const tabGenesis = await timeTab(browser, `http://127.0.0.1:${archivePeer.httpPort}/?verify=genesis`, archivePeer);
      if (tabGenesis.joinedAt !== null) throw new Error('the genesis tab joined');
      samples.push({ join, genesis, tabJoin, tabGenesis });
    }
    const median = <T extends { total: number }>(pick: (s: (typeof samples)[number]) => T): T => samples.map(pick).sort((a, b) => a.total - b.total)[Math.floor(runs / 2)]!;
    return { blocks, join: median((s) => s.join), genesis: median((s) => s.genesis), tabJoin: median((s) => s.tabJoin), tabGenesis: median((s) => s.tabGenesis), joinedAt: point };
  } finally {
    await archivePeer.kill();
    await prunedPeer.kill();
  }
}

await installWasmBlake3();
console.log(`load ${loadavg().map((l) => l.toFixed(2)).join(' ')}; pruning window ${windowBlocks} blocks (version 2 regtest); medians of ${runs} runs`);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs });
try {
  const one = await measure(browser, 1);
  const ten = await measure(browser, 10);
  for (const [name, r] of [['1×', one], ['10×', ten]] as const) {
    console.log(`${name} window (${r.blocks} blocks, pruning point ${String(r.joinedAt).slice(0, 18)}…):`);
    console.log(`  node: join ${r.join.total.toFixed(2)} s (proof to chain loaded ${r.join.joinPhase.toFixed(2)} s), genesis sync ${r.genesis.total.toFixed(2)} s`);
    console.log(`  tab:  join ${r.tabJoin.total.toFixed(2)} s (${r.tabJoin.headers} headers held), genesis sync ${r.tabGenesis.total.toFixed(2)} s (${r.tabGenesis.headers} headers)`);
  }
  const ratio = (a: number, b: number): string => (a / b).toFixed(2);
  console.log(`node: join(10×)/join(1×) = ${ratio(ten.join.total, one.join.total)} (target ≤ 1.3; proof to chain loaded ${ratio(ten.join.joinPhase, one.join.joinPhase)}); genesis(10×)/genesis(1×) = ${ratio(ten.genesis.total, one.genesis.total)}`);
  console.log(`tab:  join(10×)/join(1×) = ${ratio(ten.tabJoin.total, one.tabJoin.total)} (target ≤ 1.3); genesis(10×)/genesis(1×) = ${ratio(ten.tabGenesis.total, one.tabGenesis.total)}`);
  console.log(`load after ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
} finally {
  await browser.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
