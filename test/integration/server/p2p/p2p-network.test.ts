// Three mining node processes on 127.0.0.1 (regtest): two mine together while the third mines alone (a
// partition); the third is restarted with the other two as addnode peers, and the DAG merges — every node ends with
// every node's blocks, later blocks have both sides in their past, and the virtual selected chains converge.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Chain } from '../../../../src/chain/chain.ts';
import { regtestParams } from '../../../../src/consensus/params.ts';
import { openLedgerChain } from '../../../../src/state/ledger.ts';
import { toHex } from '../../../../src/util/bytes.ts';
import { systemClock } from '../../../../src/util/clock.ts';
import { openLmdbStore } from '../../../../server/storage/lmdb-store.ts';
import { startP2pProcess, type P2pProcess } from '../../../helpers/p2p-process.ts';

const dirs: string[] = [];
const processes: P2pProcess[] = [];
afterAll(async () => {
  for (const p of processes) await p.kill();
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

const bare = (hash: string) => hash.replace(/^0x/, '');

async function until(predicate: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Polls `check` every 200 ms until it holds; `what` names it in the timeout. */
async function untilAsync(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const blocksFound = async (p: P2pProcess): Promise<number> => Number(((await p.health()).mining as { blocks_found?: number } | undefined)?.blocks_found ?? 0);

async function withChain<T>(datadir: string, read: (chain: Chain) => T): Promise<T> {
  const store = openLmdbStore(join(datadir, 'chain'));
  try {
    const { chain } = await openLedgerChain({ params: regtestParams, store, clock: systemClock });
    return read(chain);
  } finally {
    await store.close();
  }
}

describe('three mining nodes', () => {
  it('merge the DAG after a partition and converge on one virtual selected chain', async () => {
    const [da, db, dc] = ['a', 'b', 'c'].map((n) => {
      const d = mkdtempSync(join(tmpdir(), `weft-net-${n}-`));
      dirs.push(d);
      return d;
    }) as [string, string, string];
    // The partition lasts as long as the box takes to get through phase 1 (tens to hundreds of blocks under load), so
    // the depth rules are lifted out of its reach: this test is about convergence, test/unit/chain/chain-depth-rules.test.ts
    // about the rules.
    const depths = ['--regtest-merge-depth', '100000', '--regtest-finality-depth', '1000000'];
    // Each is registered as soon as it runs, so a later start that times out leaves no miner behind.
    const started = async (p: Promise<P2pProcess>): Promise<P2pProcess> => {
      const process = await p;
      processes.push(process);
      return process;
    };
    // Every miner is one busy CPU thread, and a node starting beside two of them takes three times as long on a
    // two-core box: the nodes start idle (a and c at once, b then needs a's port) and mine once all are up.
    const mining = (nodes: readonly P2pProcess[]) => Promise.all(nodes.map((p) => p.rpc('start_mining', { threads: 1, gpu_mining: false })));
    const [a, lonely] = await Promise.all([started(startP2pProcess(da, depths)), started(startP2pProcess(dc, depths))]);
    const b = await started(startP2pProcess(db, [...depths, '--addnode', `127.0.0.1:${a.p2pPort}`]));

    // Phase 1: a and b mine together (each commits the other's blocks); c mines alone. c mines its few blocks after
    // a and b have theirs, so, as when it started last, its side of the partition carries less work than theirs.
    await mining([a, b]);
    await until(() => a.committed().length >= 12 && b.committed().length >= 12, 90_000, 'phase 1 blocks');
    // Both have mined (on a loaded box one miner's thread can sit starved through the first dozen blocks), so the
    // blocks before the partition carry both their keys.
    await untilAsync(async () => (await blocksFound(a)) >= 1 && (await blocksFound(b)) >= 1, 90_000, 'a block mined by each of a and b');
    await until(() => b.committed().filter((h) => a.committed().includes(h)).length >= 10, 30_000, 'a and b sharing blocks');
    await mining([lonely]);
    await until(() => lonely.committed().length >= 6, 90_000, 'phase 1 blocks of the lonely node');
    await lonely.stop();
    const partitionBlocks = lonely.committed();
    const beforeRejoin = a.committed().slice();

    // Phase 2: c comes back with both as addnode peers, and all three mine. a and b pause while c starts (see above).
    await Promise.all([a, b].map((p) => p.rpc('stop_mining')));
    const c = await started(startP2pProcess(dc, [...depths, '--addnode', `127.0.0.1:${a.p2pPort}`, '--addnode', `127.0.0.1:${b.p2pPort}`]));
    await mining([a, b, c]);
    await until(() => partitionBlocks.every((h) => a.committed().includes(h) && b.committed().includes(h)), 60_000, 'partition blocks reaching a and b');
    await until(() => beforeRejoin.every((h) => c.committed().includes(h)), 60_000, 'a and b blocks reaching c');
    const seen = { a: a.committed().length, b: b.committed().length, c: c.committed().length };
    await until(() => a.committed().length >= seen.a + 5 && c.committed().length >= seen.c + 5, 60_000, 'blocks after the merge');
    for (const p of [a, b, c]) await p.stop();

    const views = await Promise.all(
      [da, db, dc].map((d) =>
        withChain(d, (chain) => {
          const tip = chain.selectedTip();
          // Blocks of all three miners (each node has its own miner key in its datadir).
          const miners = new Set<string>();
          for (const id of [...partitionBlocks, ...beforeRejoin].map(bare)) if (chain.has(id)) miners.add(toHex(chain.get(id)!.header.miner));
          return {
            height: tip.height,
            // Read while the store is open: the chain index lives in the store (docs/storage.md).
            chainIds: Array.from({ length: tip.height + 1 }, (_, h) => chain.blockAtHeight(h)!.id),
            hasAll: [...partitionBlocks, ...beforeRejoin].every((h) => chain.has(bare(h))),
            tipMergesBothSides:
              partitionBlocks.some((h) => chain.engine.isDagAncestorOf(bare(h), tip.id)) && beforeRejoin.some((h) => chain.engine.isDagAncestorOf(bare(h), tip.id)),
            miners: miners.size,
          };
        }),
      ),
    );
    for (const view of views) {
      expect(view.hasAll).toBe(true);
      expect(view.tipMergesBothSides).toBe(true);
      expect(view.miners).toBe(3);
    }
    // The chains agree below the last few blocks (mined while the nodes were being stopped one by one).
    const common = Math.min(...views.map((v) => v.height)) - 3;
    expect(common).toBeGreaterThan(10);
    expect(views[1]!.chainIds[common]).toBe(views[0]!.chainIds[common]);
    expect(views[2]!.chainIds[common]).toBe(views[0]!.chainIds[common]);
  }, 300_000);
});
