// Trusted data refused (docs/pruning-proof.md "Trusted data"): each check of the import with the data it catches, a
// coded TrustedDataError, and a store left as it was (the state imported beside it aside); a joined chain refuses a
// block whose selected chain misses its pruning point.
import { beforeAll, describe, expect, it } from 'vitest';
import type { TrustedBlock, TrustedData } from '../../../src/chain/trusted-data.ts';
import { buildTrustedData } from '../../../src/chain/trusted-data.ts';
import { TrustedDataError, type TrustedDataErrorReason } from '../../../src/chain/trusted-errors.ts';
import type { Block } from '../../../src/codec/block.ts';
import type { BlockId } from '../../../src/consensus/ghostdag.ts';
import { compareBlueWork } from '../../../src/consensus/ghostdag-order.ts';
import { blockHash, targetToCompact } from '../../../src/consensus/pow.ts';
import { ledgerTables } from '../../../src/state/ledger-rows.ts';
import { openLedgerChain } from '../../../src/state/ledger.ts';
import { snapshotCursorTable } from '../../../src/state/snapshot-import.ts';
import type { KvStore } from '../../../src/storage/kv.ts';
import { createMemoryStore } from '../../../src/storage/memory-store.ts';
import { equalBytes, toHex } from '../../../src/util/bytes.ts';
import { merkleRoot } from '../../../src/codec/merkle.ts';
import { makeBlock } from '../../helpers/chain-fixtures.ts';
import { blocksAbove, buildSourceBlocks, copyState, feedAll, joinClock, joinParams, joinPayees, openSource, type SourceNode } from '../../helpers/trusted-fixtures.ts';

let source: SourceNode;
let blocks: Block[];
let point: BlockId;
let trusted: TrustedData;

beforeAll(async () => {
  source = await openSource(false);
  blocks = await buildSourceBlocks(source, 60);
  point = source.chain.pruning()!.pruningPoint.id;
  trusted = buildTrustedData(source.chain, point);
}, 60_000);

const idOf = (block: TrustedBlock): BlockId => toHex(blockHash(block.header));
const isBelow = (block: TrustedBlock): boolean => source.chain.engine.isDagAncestorOf(idOf(block), point);

/** A store with the pruning point's state in it, as a syncer leaves it before the join. */
async function storeWithState(): Promise<KvStore> {
  const store = createMemoryStore();
  await copyState(source.store, store, source.chain.get(point)!.header.stateRoot);
  return store;
}

/** Rows other than the state trie and the snapshot cursor. */
const chainRows = (store: KvStore): number => [...store.entries()].filter(([key]) => key[0] !== ledgerTables.trie && key[0] !== snapshotCursorTable).length;

async function expectRefused(data: TrustedData, reason: TrustedDataErrorReason, store?: KvStore): Promise<void> {
  const target = store ?? (await storeWithState());
  const opened = openLedgerChain({ params: joinParams, store: target, clock: joinClock(), join: data });
  await expect(opened).rejects.toBeInstanceOf(TrustedDataError);
  await expect(opened).rejects.toMatchObject({ reason });
  if (store === undefined) expect(chainRows(target)).toBe(0);
}

const withBlocks = (blocksOf: (blocks: TrustedBlock[]) => TrustedBlock[]): TrustedData => ({ ...trusted, blocks: blocksOf([...trusted.blocks]) });
const mapBlock = (match: (block: TrustedBlock) => boolean, change: (block: TrustedBlock) => TrustedBlock): TrustedData =>
  withBlocks((list) => list.map((b) => (match(b) ? change(b) : b)));
const isPoint = (block: TrustedBlock): boolean => idOf(block) === point;

describe('trusted data refused', () => {
  it('malformed: no blocks, a bad field, or transactions on a block below the point', async () => {
    await expectRefused({ ...trusted, blocks: [] }, 'malformed');
    await expectRefused(mapBlock(isPoint, (b) => ({ ...b, height: -1 })), 'malformed');
    // A block below the point whose header names no transactions: an empty body passes its checks in isolation.
    const below = trusted.blocks.find((b) => isBelow(b) && equalBytes(b.header.txRoot, merkleRoot([])))!;
    await expectRefused(mapBlock((b) => b === below, (b) => ({ ...b, transactions: [] })), 'malformed');
  });

  it('pruning-point-mismatch: the point is not among the blocks', async () => {
    await expectRefused(withBlocks((list) => list.filter((b) => !isPoint(b))), 'pruning-point-mismatch');
  });

  it('header-invalid: a header whose PoW does not meet its bits', async () => {
    await expectRefused(mapBlock(isPoint, (b) => ({ ...b, header: { ...b.header, bits: targetToCompact(1n << 180n) } })), 'header-invalid');
  });

  it('duplicate and order: a block twice, two blocks swapped', async () => {
    await expectRefused(withBlocks((list) => [...list.slice(0, 5), list[4]!, ...list.slice(5)]), 'duplicate');
    await expectRefused(withBlocks((list) => [...list.slice(0, 4), list[5]!, list[4]!, ...list.slice(6)]), 'order');
  });

  it('ghostdag-header-mismatch and ghostdag-inconsistent: data the header or the other blocks contradict', async () => {
    await expectRefused(mapBlock(isPoint, (b) => ({ ...b, ghostdag: { ...b.ghostdag, blueScore: b.ghostdag.blueScore + 1 } })), 'ghostdag-header-mismatch');
    await expectRefused(mapBlock(isPoint, (b) => ({ ...b, height: b.height + 1 })), 'ghostdag-inconsistent');
    await expectRefused(mapBlock(isPoint, (b) => ({ ...b, ghostdag: { ...b.ghostdag, mergesetBlues: b.ghostdag.mergesetBlues.slice(1) } })), 'ghostdag-inconsistent');
    const anticoneSize = (b: TrustedBlock) => new Map([...b.ghostdag.bluesAnticoneSizes].map(([blue]) => [blue, joinParams.ghostdagK + 1]));
    await expectRefused(mapBlock(isPoint, (b) => ({ ...b, ghostdag: { ...b.ghostdag, bluesAnticoneSizes: anticoneSize(b) } })), 'ghostdag-inconsistent');
    await expectRefused(mapBlock(isPoint, (b) => ({ ...b, ghostdag: { ...b.ghostdag, bluesAnticoneSizes: {} as Map<string, number> } })), 'malformed');
  });

  it('not-anticone: a block from the point\'s future', async () => {
    const child = source.chain.blockAtHeight(source.chain.get(point)!.height + 1)!;
    const { mergesetSize: _size, ...ghostdag } = source.chain.ghostdag(child.id);
    const extra: TrustedBlock = { header: child.header, height: child.height, ghostdag, transactions: source.chain.getBlock(child.id)!.transactions };
    const sorted = (list: TrustedBlock[]) =>
      [...list, extra].sort((a, b) => compareBlueWork({ id: idOf(a), blueWork: a.ghostdag.blueWork }, { id: idOf(b), blueWork: b.ghostdag.blueWork }));
    await expectRefused(withBlocks(sorted), 'not-anticone');
  });

  it('body-invalid: the point without its transactions, or with one too many', async () => {
    await expectRefused(mapBlock(isPoint, ({ transactions: _txs, ...b }) => b), 'body-invalid');
    const withTxs = source.chain.getBlock(blocks.map((b) => toHex(blockHash(b.header))).find((id) => (source.chain.getBlock(id)?.transactions.length ?? 0) > 0)!)!;
    await expectRefused(mapBlock(isPoint, (b) => ({ ...b, transactions: [...(b.transactions ?? []), withTxs.transactions[0]!] })), 'body-invalid');
  });

  it('chain-short: the point\'s chain stops above the depth the rules read', async () => {
    const lowest = Math.min(...trusted.blocks.map((b) => b.height));
    await expectRefused(withBlocks((list) => list.filter((b) => b.height >= lowest + 3)), 'chain-short');
  });

  it('incomplete: a blue of the point\'s chain dropped from the set', async () => {
    const ids = new Set(trusted.blocks.map(idOf));
    const lowest = Math.min(...trusted.blocks.map((b) => b.height));
    // A chain block well above the floor that merged a side block as blue.
    const merger = trusted.blocks.find((b) => isBelow(b) && b.height > lowest + joinParams.ghostdagK + 2 && source.chain.blockAtHeight(b.height)?.id === idOf(b) && b.ghostdag.mergesetBlues.length > 1)!;
    const side = merger.ghostdag.mergesetBlues[1]!;
    expect(ids.has(side)).toBe(true);
    await expectRefused(withBlocks((list) => list.filter((b) => idOf(b) !== side)), 'incomplete');
  });

  it('state-record and state-missing: a record that does not decode, a state not imported; such a store starts over', async () => {
    const store = await storeWithState();
    await expectRefused({ ...trusted, stateRecord: Uint8Array.of(9, 9, 9) }, 'state-record', store);
    await expectRefused(trusted, 'state-missing', createMemoryStore());
    // The half-joined store is refused without its data, and joins with good data.
    await expect(openLedgerChain({ params: joinParams, store, clock: joinClock() })).rejects.toMatchObject({ reason: 'import-state' });
    const joined = await openLedgerChain({ params: joinParams, store, clock: joinClock(), join: trusted });
    expect(joined.chain.selectedTip().id).toBe(point);
  });

  it('import-state: a store that holds a chain already, joined at another point, or opened as an archive', async () => {
    const store = createMemoryStore();
    await openLedgerChain({ params: joinParams, store, clock: joinClock() });
    await expectRefused(trusted, 'import-state', store);
    const joinedStore = await storeWithState();
    await openLedgerChain({ params: joinParams, store: joinedStore, clock: joinClock(), join: trusted });
    await expectRefused({ ...trusted, pruningPoint: new Uint8Array(32).fill(7) }, 'import-state', joinedStore);
    const asArchive = openLedgerChain({ params: joinParams, store: joinedStore, clock: joinClock(), archive: true });
    await expect(asArchive).rejects.toMatchObject({ reason: 'import-state' });
  });

  it('a joined chain refuses a block whose selected chain misses its pruning point, and holds one below its set as an orphan', async () => {
    const store = await storeWithState();
    const { chain } = await openLedgerChain({ params: joinParams, store, clock: joinClock(), join: trusted });
    const anticone = trusted.blocks.filter((b) => !isPoint(b) && !isBelow(b)).map(idOf);
    expect(anticone.length).toBeGreaterThan(0);
    // Valid on the source (built there, not added): its selected parent is a block of the point's anticone.
    const stray = makeBlock(source.chain, { parents: [anticone[0]!], miner: joinPayees[2]! });
    await expect(chain.addBlock(stray)).rejects.toMatchObject({ rule: 'context.pruning-point.violated' });
    // A block with a parent below the trusted set waits for it, as for any unknown parent.
    const deep = source.chain.blockAtHeight(Math.min(...trusted.blocks.map((b) => b.height)) - 1)!;
    const orphan = makeBlock(source.chain, { parents: [deep.id], miner: joinPayees[2]! });
    expect(await chain.addBlock(orphan)).toMatchObject({ status: 'orphan', missing: [deep.id] });
    await feedAll(chain, blocksAbove(source.chain, blocks, point, new Set(trusted.blocks.map(idOf))));
    expect(chain.selectedTip().id).toBe(source.chain.selectedTip().id);
  });
});
