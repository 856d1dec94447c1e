// Joining at a pruning point (issue 19, docs/pruning-proof.md "Trusted data"): trusted data built from an archive and
// from a pruned node is the same bounded set; a fresh chain on LMDB opened from it (with the point's state copied chunk
// by chunk) accepts every block above the point through the normal pipeline and ends with the source's tip, state
// roots, GHOSTDAG data and answers; it reopens reading a few rows; a join cut short starts over.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLmdbStore } from '../../../server/storage/lmdb-store.ts';
import type { Chain } from '../../../src/chain/chain.ts';
import { trustedChainDepth, type TrustedData } from '../../../src/chain/trusted-data.ts';
import { buildTrustedData } from '../../../src/chain/trusted-data.ts';
import { TrustedDataError } from '../../../src/chain/trusted-errors.ts';
import type { Block } from '../../../src/codec/block.ts';
import { blake3 } from '../../../src/crypto/blake3.ts';
import type { BlockId } from '../../../src/consensus/ghostdag.ts';
import { blockHash } from '../../../src/consensus/pow.ts';
import { openLedgerChain } from '../../../src/state/ledger.ts';
import { DataPrunedError } from '../../../src/rpc/errors.ts';
import type { RpcCallContext } from '../../../src/rpc/method.ts';
import { getBlock } from '../../../src/rpc/methods/get-block.ts';
import type { KvStore } from '../../../src/storage/kv.ts';
import { createMemoryStore } from '../../../src/storage/memory-store.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { blocksAbove, buildSourceBlocks, copyState, feedAll, joinClock, joinParams, joinPayees, openSource, type SourceNode } from '../../helpers/trusted-fixtures.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'weft-join-'));
  dirs.push(dir);
  return dir;
};

/** Counts the rows a store hands out. */
function counting(store: KvStore): { store: KvStore; rows: () => number } {
  let rows = 0;
  return {
    rows: () => rows,
    store: {
      get: (key) => (rows++, store.get(key)),
      has: (key) => (rows++, store.has(key)),
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

let archive: SourceNode;
let pruned: SourceNode;
let blocks: Block[];
let point: BlockId;
let trusted: TrustedData;

let later: Block[];

beforeAll(async () => {
  archive = await openSource(true);
  const sender = { nonce: 0n, siblingNonce: 0n };
  blocks = await buildSourceBlocks(archive, 75, sender);
  pruned = await openSource(false);
  await feedAll(pruned.chain, blocks);
  point = pruned.chain.pruning()!.pruningPoint.id;
  trusted = buildTrustedData(pruned.chain, point);
  // Mined after the join's trusted data was taken: the joined chain's own pruning point moves past the one it joined at.
  later = await buildSourceBlocks(archive, 25, sender);
  await feedAll(pruned.chain, later);
}, 60_000);

const idsOf = (data: TrustedData): BlockId[] => data.blocks.map((b) => toHex(blockHash(b.header)));

describe('trusted data at a pruning point', () => {
  it('is the same set from an archive and a pruned node: the point, its anticone with bodies, and a bounded past', () => {
    const fromArchive = buildTrustedData(archive.chain, point);
    expect(fromArchive).toEqual(trusted);
    const ids = idsOf(trusted);
    const chain = archive.chain;
    const p = chain.get(point)!;
    const anticone = ids.filter((id) => id !== point && !chain.engine.isDagAncestorOf(id, point));
    expect(anticone.length).toBeGreaterThan(0);
    for (const id of anticone) expect(chain.engine.isDagAncestorOf(point, id)).toBe(false);
    // Bodies exactly for the point and its anticone.
    for (const [i, block] of trusted.blocks.entries()) expect(block.transactions !== undefined).toBe(ids[i] === point || anticone.includes(ids[i]!));
    // Above genesis, and within the bound: depth heights below the point plus the anticone, each height a mergeset.
    const lowest = Math.min(...trusted.blocks.map((b) => b.height));
    expect(lowest).toBeGreaterThan(0);
    expect(p.height - lowest).toBeGreaterThanOrEqual(trustedChainDepth(joinParams));
    expect(ids.length).toBeLessThanOrEqual(anticone.length + (p.height - lowest + 1) * joinParams.mergesetSizeLimit);
    expect(ids.length).toBeLessThan(blocks.length / 2);
    // Every block of the past with a blue score at or above the floor's is in (the set is closed under paths).
    const floorScore = Math.min(...trusted.blocks.map((b) => b.header.blueScore));
    for (const block of blocks) {
      const id = toHex(blockHash(block.header));
      if (chain.engine.isDagAncestorOf(id, point) && block.header.blueScore >= floorScore) expect(ids).toContain(id);
    }
    expect(trusted.stateRecord).toBeDefined();
  });

  it('opens a chain on LMDB that follows the source above the point and reopens reading a few rows', async () => {
    const dir = tempDir();
    const store = openLmdbStore(dir);
    const p = archive.chain.get(point)!;
    expect(await copyState(archive.store, store, p.header.stateRoot)).toBeGreaterThan(1);
    const joined = await openLedgerChain({ params: joinParams, store, clock: joinClock(), join: trusted });
    expect(joined.chain.joinedAt?.id).toBe(point);
    expect(joined.chain.selectedTip().id).toBe(point);
    expect(joined.chain.pruning()!.pruningPoint.id).toBe(point);

    const above = [...blocksAbove(archive.chain, blocks, point, new Set(idsOf(trusted))), ...later];
    expect(above.length).toBeGreaterThan(50);
    await feedAll(joined.chain, above);
    await compareWithSource(joined.chain, archive, above);
    // Its pruner moved on from the point it joined at, as the pruned source's did, and pruned the same blocks.
    const moved = joined.chain.pruning()!;
    expect(moved.pruningPoint.id).toBe(pruned.chain.pruning()!.pruningPoint.id);
    expect(moved.pruningPoint.id).not.toBe(point);
    expect(moved.prunedThrough.id).toBe(moved.pruningPoint.id);
    for (const block of above) {
      const id = toHex(blockHash(block.header));
      expect(joined.chain.isPruned(id)).toBe(pruned.chain.isPruned(id));
      expect(joined.chain.getBlock(id)).toEqual(pruned.chain.getBlock(id));
    }
    // The trusted blocks keep their scores and work; each names its selected parent when that is trusted too.
    const trustedIds = new Set(idsOf(trusted));
    for (const id of trustedIds) {
      const mine = joined.chain.ghostdag(id);
      const theirs = archive.chain.ghostdag(id);
      expect([mine.blueScore, mine.blueWork]).toEqual([theirs.blueScore, theirs.blueWork]);
      expect(mine.selectedParent).toBe(trustedIds.has(theirs.selectedParent!) ? theirs.selectedParent : null);
    }
    for (const payee of joinPayees) expect(joined.ledger.getAccount(payee)).toEqual(archive.ledger.getAccount(payee));
    // Below the point: headers of the trusted past are known and pruned; their bodies are not here.
    const below = idsOf(trusted).filter((id) => archive.chain.engine.isDagAncestorOf(id, point));
    for (const id of below) {
      expect(joined.chain.isPruned(id)).toBe(true);
      expect(joined.chain.getBlock(id)).toBeUndefined();
      expect(joined.chain.get(id)!.height).toBe(archive.chain.get(id)!.height);
    }
    // RPC answers: below the point `data_pruned` (a trusted header, or a height below the trusted chain), above it the
    // source's block JSON.
    const rpc = (params: Record<string, unknown>) => getBlock.run(getBlock.params.parse(params), { services: { chain: joined.chain } } as unknown as RpcCallContext);
    const deepest = Math.min(...trusted.blocks.map((b) => b.height));
    expect(() => rpc({ hash: below[0] })).toThrow(DataPrunedError);
    expect(() => rpc({ height: deepest - 1 })).toThrow(DataPrunedError);
    const source = (params: Record<string, unknown>) => getBlock.run(getBlock.params.parse(params), { services: { chain: archive.chain } } as unknown as RpcCallContext);
    const top = archive.chain.selectedTip();
    expect(rpc({ height: top.height })).toEqual(source({ height: top.height }));
    expect(rpc({ hash: top.id })).toEqual(source({ hash: top.id }));
    const tip = joined.chain.selectedTip().id;
    await joined.chain.stopPruning();
    await store.close();

    const lmdb = openLmdbStore(dir);
    const counted = counting(lmdb);
    const reopened = await openLedgerChain({ params: joinParams, store: counted.store, clock: joinClock() });
    expect(counted.rows()).toBeLessThan(120);
    expect(reopened.chain.replayedAtOpen).toBe(0);
    expect(reopened.chain.selectedTip().id).toBe(tip);
    expect(reopened.chain.joinedAt?.id).toBe(point);
    for (const payee of joinPayees) expect(reopened.ledger.getAccount(payee)).toEqual(archive.ledger.getAccount(payee));
    await reopened.chain.stopPruning();
    await lmdb.close();
  }, 30_000);

  it('a join cut short at any of its writes is refused without its data and starts over with it', async () => {
    const above = [...blocksAbove(archive.chain, blocks, point, new Set(idsOf(trusted))), ...later];
    // A join writes three batches (blocks, index, then the state machine's rows with the marker); a kill -9 at
    // batch `cut` means that batch never lands (batches are atomic) and nothing after it runs.
    for (const cut of [1, 2, 3]) {
      const memory = createMemoryStore();
      await copyState(archive.store, memory, archive.chain.get(point)!.header.stateRoot);
      let writes = 0;
      const crashing: KvStore = {
        get: (k) => memory.get(k),
        has: (k) => memory.has(k),
        entries: (r) => memory.entries(r),
        close: () => memory.close(),
        write: (ops) => (++writes === cut ? Promise.reject(new Error('killed')) : memory.write(ops)),
      };
      await expect(openLedgerChain({ params: joinParams, store: crashing, clock: joinClock(), join: trusted })).rejects.toThrow();
      if (cut > 1) {
        const refused = openLedgerChain({ params: joinParams, store: memory, clock: joinClock() });
        await expect(refused).rejects.toBeInstanceOf(TrustedDataError);
        await expect(refused).rejects.toMatchObject({ reason: 'import-state' });
      }
      const joined = await openLedgerChain({ params: joinParams, store: memory, clock: joinClock(), join: trusted });
      expect(joined.chain.blockCount()).toBe(trusted.blocks.length);
      await feedAll(joined.chain, above.slice(0, above.length - later.length));
      if (cut === 3) {
        // Transactions of the point and its anticone (accepted above it) are found as the archive finds them.
        const view = (ledger: typeof joined.ledger, bytes: Uint8Array) => {
          const record = ledger.getTransaction(blake3(bytes));
          return record && { ...record, acceptingBlock: record.acceptingBlock?.id };
        };
        const carried = trusted.blocks.flatMap((b) => b.transactions ?? []);
        expect(carried.length).toBeGreaterThan(0);
        for (const bytes of carried) expect(view(joined.ledger, bytes)).toEqual(view(archive.ledger, bytes));
      }
      await feedAll(joined.chain, later);
      expect(joined.chain.selectedTip().id).toBe(archive.chain.selectedTip().id);
      expect(joined.chain.selectedTip().header.stateRoot).toEqual(archive.chain.selectedTip().header.stateRoot);
    }
  }, 30_000);
});

describe('trusted data near genesis', () => {
  it('holds genesis when the point is within trustedChainDepth of it, and the joined chain follows the source', async () => {
    const young = await openSource(false);
    const youngBlocks = await buildSourceBlocks(young, 24);
    const youngPoint = young.chain.pruning()!.pruningPoint;
    expect(youngPoint.id).not.toBe(young.chain.genesis.id);
    const data = buildTrustedData(young.chain, youngPoint.id);
    expect(idsOf(data)).toContain(young.chain.genesis.id);
    const store = createMemoryStore();
    await copyState(young.store, store, youngPoint.header.stateRoot);
    const { chain } = await openLedgerChain({ params: joinParams, store, clock: joinClock(), join: data });
    expect(chain.genesis.id).toBe(young.chain.genesis.id);
    expect(chain.isPruned(chain.genesis.id)).toBe(false);
    await feedAll(chain, blocksAbove(young.chain, youngBlocks, youngPoint.id, new Set(idsOf(data))));
    expect(chain.selectedTip().id).toBe(young.chain.selectedTip().id);
    expect(chain.blockAtHeight(0)?.id).toBe(young.chain.genesis.id);
  });
});

/** Heights of the joined chain's selected chain that it stores, from its tip down. */
function* joinedHeights(chain: Chain): Generator<number> {
  for (let walk = chain.selectedTip() as ReturnType<Chain['selectedTip']> | null; walk; walk = walk.selectedParent) yield walk.height;
}

/** Tip, chain index, GHOSTDAG data, heights and state roots: the same as the source's for every block above the point. */
async function compareWithSource(joined: Chain, source: SourceNode, above: readonly Block[]): Promise<void> {
  const tip = source.chain.selectedTip();
  expect(joined.selectedTip().id).toBe(tip.id);
  expect(joined.tips().map((t) => t.id).sort()).toEqual(source.chain.tips().map((t) => t.id).sort());
  expect(joined.virtualParents()).toEqual(source.chain.virtualParents());
  expect(joined.finalityPoint().id).toBe(source.chain.finalityPoint().id);
  for (const block of above) {
    const id = toHex(blockHash(block.header));
    expect(joined.ghostdag(id)).toEqual(source.chain.ghostdag(id));
    expect(joined.get(id)!.height).toBe(source.chain.get(id)!.height);
  }
  for (let h = joined.get(point)!.height; h <= tip.height; h++) expect(joined.blockAtHeight(h)!.id).toBe(source.chain.blockAtHeight(h)!.id);
  expect(joined.blockAtHeight(Math.min(...[...joinedHeights(joined)]) - 1)).toBeUndefined();
}
