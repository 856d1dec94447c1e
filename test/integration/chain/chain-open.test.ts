// Opening a stored chain reads a few rows, not every block (issue 18): GHOSTDAG data, reachability and the block
// index are store rows read on demand. A store written before those tables existed is replayed once, then never.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Chain } from '../../../src/chain/chain.ts';
import { chainKeys } from '../../../src/chain/chain-store.ts';
import { consensusKeys } from '../../../src/consensus/consensus-rows.ts';
import { regtestParams } from '../../../src/consensus/params.ts';
import { openLedgerChain } from '../../../src/state/ledger.ts';
import type { KvOp, KvStore } from '../../../src/storage/kv.ts';
import { systemClock } from '../../../src/util/clock.ts';
import { openLmdbStore } from '../../../server/storage/lmdb-store.ts';
import { regtestBlocks } from '../../helpers/regtest-dag.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A KvStore that counts the rows it hands out. */
function counting(store: KvStore): { store: KvStore; rows: () => number } {
  let rows = 0;
  return {
    rows: () => rows,
    store: {
      get(key) {
        rows++;
        return store.get(key);
      },
      has(key) {
        rows++;
        return store.has(key);
      },
      *entries(range) {
        for (const entry of store.entries(range)) {
          rows++;
          yield entry;
        }
      },
      write: (ops) => store.write(ops),
      close: () => store.close(),
    },
  };
}

const snapshot = (chain: Chain) => ({
  blocks: chain.blockCount(),
  tip: chain.selectedTip().id,
  height: chain.selectedTip().height,
  tips: chain.tips().map((t) => t.id).sort(),
  virtual: chain.virtualParents().parents,
  blueScore: chain.ghostdag(chain.selectedTip().id).blueScore,
});

/** Imports the first `count` regtest blocks into a fresh store at `dir`; returns the chain's snapshot, taken before closing. */
async function importInto(dir: string, count: number): Promise<ReturnType<typeof snapshot>> {
  const store = openLmdbStore(dir);
  const { chain } = await openLedgerChain({ params: regtestParams, store, clock: systemClock });
  for (const block of (await regtestBlocks(1_500)).slice(0, count)) void chain.addBlock(block);
  await chain.settled();
  const taken = snapshot(chain);
  await store.close();
  return taken;
}

async function reopen(dir: string): Promise<{ chain: Chain; rows: number; close: () => Promise<void> }> {
  const lmdb = openLmdbStore(dir);
  const counted = counting(lmdb);
  const { chain } = await openLedgerChain({ params: regtestParams, store: counted.store, clock: systemClock });
  return { chain, rows: counted.rows(), close: () => lmdb.close() };
}


describe('opening a stored chain', () => {
  it('reads the same few rows whether the DAG holds 300 or 1,500 blocks, and replays none', async () => {
    const small = mkdtempSync(join(tmpdir(), 'weft-open-small-'));
    const large = mkdtempSync(join(tmpdir(), 'weft-open-large-'));
    dirs.push(small, large);
    const before = [await importInto(small, 300), await importInto(large, 1_500)];
    const opened = [await reopen(small), await reopen(large)];
    for (const [i, { chain, rows, close }] of opened.entries()) {
      expect(chain.replayedAtOpen).toBe(0);
      expect(rows).toBeLessThan(100);
      expect(snapshot(chain)).toEqual(before[i]);
      await close();
    }
    expect(opened[1]!.rows).toBe(opened[0]!.rows);
  }, 120_000);

  it('replays a store written before the consensus tables once, to the same DAG, then opens it without replay', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-open-legacy-'));
    dirs.push(dir);
    const before = await importInto(dir, 400);
    // Take the store back to the earlier layout: no GHOSTDAG, reachability, skip or tips rows, no engine counts.
    const lmdb = openLmdbStore(dir);
    const dropped: KvOp[] = [];
    for (const letter of ['D', 'N', 'K']) {
      for (const [key] of lmdb.entries({ prefix: new TextEncoder().encode(letter) })) dropped.push({ type: 'del', key });
    }
    for (const key of [chainKeys.tips, consensusKeys.blockCount, consensusKeys.tip, consensusKeys.reindexRoot]) dropped.push({ type: 'del', key });
    await lmdb.write(dropped);
    await lmdb.close();
    expect(dropped.length).toBeGreaterThan(3 * 400);

    const first = await reopen(dir);
    expect(first.chain.replayedAtOpen).toBe(401);
    expect(snapshot(first.chain)).toEqual(before);
    await first.close();
    const second = await reopen(dir);
    expect(second.chain.replayedAtOpen).toBe(0);
    expect(snapshot(second.chain)).toEqual(before);
    await second.close();
  }, 120_000);

  it('resumes a replay that died after its first batch, and ends with the same DAG', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-open-resume-'));
    dirs.push(dir);
    const before = await importInto(dir, 1_400);
    let lmdb = openLmdbStore(dir);
    const dropped: KvOp[] = [];
    for (const letter of ['D', 'N', 'K']) {
      for (const [key] of lmdb.entries({ prefix: new TextEncoder().encode(letter) })) dropped.push({ type: 'del', key });
    }
    for (const key of [chainKeys.tips, consensusKeys.blockCount, consensusKeys.tip, consensusKeys.reindexRoot]) dropped.push({ type: 'del', key });
    await lmdb.write(dropped);
    // The disk fails on the replay's second batch (as a kill -9 would stop it): the first 1,000 blocks are kept.
    let writes = 0;
    const failing: KvStore = {
      get: (key) => lmdb.get(key),
      has: (key) => lmdb.has(key),
      entries: (range) => lmdb.entries(range),
      write: (ops) => (++writes === 2 ? Promise.reject(new Error('disk gone')) : lmdb.write(ops)),
      close: () => lmdb.close(),
    };
    await expect(openLedgerChain({ params: regtestParams, store: failing, clock: systemClock })).rejects.toThrow('disk gone');
    await lmdb.close();
    lmdb = openLmdbStore(dir);
    expect(lmdb.get(consensusKeys.blockCount)).toEqual(new Uint8Array([0, 0, 0, 0, 0, 0, 0x03, 0xe8]));
    await lmdb.close();

    const resumed = await reopen(dir);
    expect(resumed.chain.replayedAtOpen).toBe(401);
    expect(snapshot(resumed.chain)).toEqual(before);
    await resumed.close();
  }, 120_000);
});
