// Header pruning (issue 18, docs/storage.md "Pruning"): below the pruning point a pruned node keeps only the headers
// and consensus rows it still reads — the trusted-data set T at its point (with the whole mergesets of T's chain
// blocks), genesis and, on a version 2 network, the point before P, P's level parents and the headers of P's
// pruning proof — and still agrees with an archive node above the point, builds trusted data and a proof that
// verifies, opens reading a few rows, mines, and finishes a round cut after any write.
import { describe, expect, it } from 'vitest';
import { openChain, type Chain } from '../../../src/chain/chain.ts';
import { previousPruningPoint } from '../../../src/chain/pruning-point.ts';
import { buildTrustedData, type TrustedData } from '../../../src/chain/trusted-data.ts';
import type { Block } from '../../../src/codec/block.ts';
import type { BlockId } from '../../../src/consensus/ghostdag.ts';
import { regtestParams, type NetworkParams } from '../../../src/consensus/params.ts';
import { blockHash } from '../../../src/consensus/pow.ts';
import { buildPruningProof } from '../../../src/pruning-proof/build-proof.ts';
import { proofParamsOf } from '../../../src/pruning-proof/level-dag.ts';
import { verifyPruningProof } from '../../../src/pruning-proof/verify-proof.ts';
import { DataPrunedError } from '../../../src/rpc/errors.ts';
import type { RpcCallContext } from '../../../src/rpc/method.ts';
import { findBlock } from '../../../src/rpc/methods/get-block.ts';
import type { KvOp, KvStore } from '../../../src/storage/kv.ts';
import { createMemoryStore } from '../../../src/storage/memory-store.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { createManualClock } from '../../../src/util/clock.ts';
import { easyParams, makeBlock } from '../../helpers/chain-fixtures.ts';

// trustedChainDepth = max(daaWindowBlocks 8, pastMedianTimeWindow 11, mergeDepth 6, k + 1 = 19) = 19 chain heights;
// the reachability reindex root trails the tip by 100 heights and the chain from it up stays too, so the pruning
// depth is 100 (the point below the root, as on a real network).
const v1 = Object.freeze({ ...regtestParams, finalityDepth: 20, mergeDepth: 6, pruningDepth: 100, daaWindowBlocks: 8 });
const v2 = easyParams({ finalityDepth: 20, mergeDepth: 6, pruningDepth: 100, daaWindowBlocks: 8, pruningProofM: 4 });
const otherMiner = Uint8Array.from({ length: 33 }, (_, j) => (j === 0 ? 0 : 7));

interface Node {
  chain: Chain;
  store: KvStore;
  /** The `from` of each finished round. */
  froms: BlockId[];
}

async function openNode(params: NetworkParams, store: KvStore, archive: boolean): Promise<Node> {
  const froms: BlockId[] = [];
  const clock = createManualClock(params.genesis.timestampMs + 1_000_000_000);
  const chain = await openChain({ params, store, clock, archive, onPruning: (e) => (e.type === 'round' ? froms.push(e.from.id) : undefined) });
  return { chain, store, froms };
}

/** Blocks built on `source`: a sibling pair every fourth round, merged by the next block. */
async function buildBlocks(source: Node, rounds: number): Promise<Block[]> {
  const blocks: Block[] = [];
  for (let round = 0; round < rounds; round++) {
    const parents = source.chain.tips().map((t) => t.id);
    const first = makeBlock(source.chain, { parents });
    const sibling = round % 4 === 3 ? makeBlock(source.chain, { parents, miner: otherMiner, timestampMs: first.header.timestampMs + 1 }) : undefined;
    for (const block of sibling ? [first, sibling] : [first]) {
      expect((await source.chain.addBlock(block)).status).toBe('accepted');
      blocks.push(block);
    }
  }
  return blocks;
}

async function feed(node: Node, blocks: readonly Block[]): Promise<void> {
  for (const block of blocks) expect((await node.chain.addBlock(block)).status).toBe('accepted');
  await node.chain.settled();
  await node.chain.pruningSettled();
}

const tableKeys = (store: KvStore, table: number): string[] => [...store.entries({ prefix: Uint8Array.of(table) })].map(([key]) => toHex(key.subarray(1)));
const allRows = (store: KvStore): Map<string, string> => new Map([...store.entries()].map(([k, v]) => [toHex(k), toHex(v)]));
const H = 0x48;
const S = 0x53;
const D = 0x44;
const N = 0x4e;
const O = 0x4f;
const K = 0x4b;
const C = 0x43;

/** What the pruned node must keep below `point`, read off the archive: T, its chain blocks' mergesets, the rest. */
function expectedBelow(archive: Chain, trusted: TrustedData, extra: Iterable<BlockId>): Set<BlockId> {
  const out = new Set<BlockId>([archive.genesis.id, ...extra]);
  for (const block of trusted.blocks) {
    const id = toHex(blockHash(block.header));
    out.add(id);
    if (archive.blockAtHeight(block.height)?.id === id) {
      const data = archive.ghostdag(id);
      for (const m of [...data.mergesetBlues, ...data.mergesetReds]) out.add(m);
    }
  }
  return out;
}

/** Checks the pruned store's rows against the archive's: above the point all, below it `keptBelow` only. */
function checkRows(archive: Node, pruned: Node, keptBelow: Set<BlockId>): void {
  const point = pruned.chain.pruning()!.pruningPoint;
  const all = tableKeys(archive.store, H);
  const isBelow = (id: BlockId) => id !== archive.chain.genesis.id && archive.chain.engine.isDagAncestorOf(id, point.id);
  const expected = new Set(all.filter((id) => !isBelow(id) || keptBelow.has(id)));
  expect(new Set(tableKeys(pruned.store, H))).toEqual(expected);
  expect(new Set(tableKeys(pruned.store, S))).toEqual(expected);
  expect(tableKeys(pruned.store, D).length).toBe(expected.size);
  for (const id of tableKeys(pruned.store, K)) expect(expected.has(id)).toBe(true);
  // Order rows and reachability nodes of a few deleted blocks stay for kept blocks' sake (at most one each).
  expect(tableKeys(pruned.store, O).length).toBeLessThanOrEqual(2 * expected.size);
  expect(tableKeys(pruned.store, N).length).toBeLessThanOrEqual(2 * expected.size);
  for (const [, hash] of pruned.store.entries({ prefix: Uint8Array.of(C) })) expect(expected.has(toHex(hash))).toBe(true);
  // Far fewer than the archive's: most blocks are below the point.
  expect(expected.size).toBeLessThan(all.length * 0.7);
}

/** Everything above the point, and at it, answers the same on both. */
function checkAgreeAbove(archive: Chain, pruned: Chain): void {
  const point = pruned.pruning()!.pruningPoint;
  for (let h = point.height; h <= archive.selectedTip().height; h++) {
    const id = archive.blockAtHeight(h)!.id;
    expect(pruned.blockAtHeight(h)?.id).toBe(id);
    expect(pruned.get(id)!.header).toEqual(archive.get(id)!.header);
    expect(pruned.ghostdag(id)).toEqual(archive.ghostdag(id));
    expect(pruned.getBlock(id)).toEqual(archive.getBlock(id));
    expect(pruned.isPruned(id)).toBe(false);
  }
  expect(pruned.selectedTip().id).toBe(archive.selectedTip().id);
  expect(pruned.virtualParents()).toEqual(archive.virtualParents());
}

const rpc = (chain: Chain): RpcCallContext => ({ services: { chain } }) as unknown as RpcCallContext;

describe('header pruning below the pruning point', () => {
  it('version 1: keeps T and genesis below the point, and agrees with an archive above it', async () => {
    const archive = await openNode(v1, createMemoryStore(), true);
    const pruned = await openNode(v1, createMemoryStore(), false);
    const blocks = await buildBlocks(archive, 250);
    await feed(pruned, blocks);
    const point = pruned.chain.pruning()!.pruningPoint;
    expect(pruned.chain.pruning()!.prunedThrough.id).toBe(point.id);
    expect(point.height).toBeGreaterThan(40);

    const trusted = buildTrustedData(pruned.chain, point.id);
    expect(trusted).toEqual(buildTrustedData(archive.chain, point.id));
    const keptBelow = expectedBelow(archive.chain, trusted, []);
    checkRows(archive, pruned, keptBelow);
    checkAgreeAbove(archive.chain, pruned.chain);

    // A deleted block is unknown; a height below the kept chain answers data_pruned.
    const deleted = blocks.map((b) => toHex(blockHash(b.header))).filter((id) => archive.chain.engine.isDagAncestorOf(id, point.id) && !keptBelow.has(id));
    expect(deleted.length).toBeGreaterThan(30);
    for (const id of deleted) expect(pruned.chain.get(id)).toBeUndefined();
    expect(pruned.chain.blockAtHeight(3)).toBeUndefined();
    expect(() => findBlock(rpc(pruned.chain), { height: 3 })).toThrow(DataPrunedError);
    // A kept header below the point answers its header; its body is pruned data.
    const floorHeight = trusted.blocks.find((b) => b.transactions === undefined)!.height;
    expect(findBlock(rpc(pruned.chain), { height: floorHeight }).header).toEqual(archive.chain.blockAtHeight(floorHeight)!.header);

    // Both keep going, and the pruned node's own block is the archive's too.
    await feed(pruned, await buildBlocks(archive, 30));
    const mined = makeBlock(pruned.chain);
    expect((await pruned.chain.addBlock(mined)).status).toBe('accepted');
    expect((await archive.chain.addBlock(mined)).status).toBe('accepted');
    await pruned.chain.pruningSettled();
    const moved = pruned.chain.pruning()!.pruningPoint;
    expect(moved.height).toBeGreaterThan(point.height);
    const trustedAfter = buildTrustedData(pruned.chain, moved.id);
    expect(trustedAfter).toEqual(buildTrustedData(archive.chain, moved.id));
    checkRows(archive, pruned, expectedBelow(archive.chain, trustedAfter, []));
    checkAgreeAbove(archive.chain, pruned.chain);

    // A reopen reads a few rows, replays nothing and still mines.
    let reads = 0;
    const store = pruned.store;
    const counted: KvStore = { ...store, get: (k) => (reads++, store.get(k)), has: (k) => (reads++, store.has(k)), entries: store.entries.bind(store), write: store.write.bind(store), close: store.close.bind(store) };
    const reopened = await openNode(v1, counted, false);
    expect(reopened.chain.replayedAtOpen).toBe(0);
    expect(reads).toBeLessThan(200);
    expect(reopened.chain.selectedTip().id).toBe(archive.chain.selectedTip().id);
    expect((await reopened.chain.addBlock(makeBlock(reopened.chain))).status).toBe('accepted');

    // An archive's store opened without --archive prunes its whole past in one round, to the same keep set.
    await archive.chain.settled();
    const switched = await openNode(v1, storeFrom(allRows(archive.store)), false);
    await switched.chain.pruningSettled();
    const switchedPoint = switched.chain.pruning()!.pruningPoint;
    expect(switchedPoint.id).toBe(reopened.chain.pruning()!.pruningPoint.id);
    checkRows(archive, switched, expectedBelow(archive.chain, buildTrustedData(archive.chain, switchedPoint.id), []));
    checkAgreeAbove(archive.chain, switched.chain);
  }, 120_000);

  it('version 2: also keeps the proof headers and level parents, builds a proof that verifies, and mines on', async () => {
    expect(v2.headerVersion).toBe(2);
    const archive = await openNode(v2, createMemoryStore(), true);
    const pruned = await openNode(v2, createMemoryStore(), false);
    await feed(pruned, await buildBlocks(archive, 250));
    const point = pruned.chain.pruning()!.pruningPoint;
    const params = proofParamsOf(v2);
    const source = (chain: Chain) => ({ header: (id: BlockId) => chain.get(id)?.header });
    const proof = buildPruningProof(source(archive.chain), point.id, params);
    expect(buildPruningProof(source(pruned.chain), point.id, params)).toEqual(proof);
    verifyPruningProof(proof, params);

    const trusted = buildTrustedData(pruned.chain, point.id);
    expect(trusted).toEqual(buildTrustedData(archive.chain, point.id));
    const levelParents = (point.header.levelParents ?? []).flatMap((run) => run.parents.map(toHex));
    const proofIds = proof.levels.flat().map((h) => toHex(blockHash(h)));
    checkRows(archive, pruned, expectedBelow(archive.chain, trusted, [previousPruningPoint(v2, point, archive.chain.genesis).id, ...levelParents, ...proofIds]));
    checkAgreeAbove(archive.chain, pruned.chain);

    // The next point's proof is built through the headers kept for this one, and verifies.
    await feed(pruned, await buildBlocks(archive, 30));
    const mined = makeBlock(pruned.chain);
    expect((await pruned.chain.addBlock(mined)).status).toBe('accepted');
    expect((await archive.chain.addBlock(mined)).status).toBe('accepted');
    await pruned.chain.pruningSettled();
    const moved = pruned.chain.pruning()!.pruningPoint;
    expect(moved.height).toBeGreaterThan(point.height);
    const next = buildPruningProof(source(pruned.chain), moved.id, params);
    expect(next).toEqual(buildPruningProof(source(archive.chain), moved.id, params));
    verifyPruningProof(next, params);
    expect(buildTrustedData(pruned.chain, moved.id)).toEqual(buildTrustedData(archive.chain, moved.id));
    checkAgreeAbove(archive.chain, pruned.chain);
  }, 180_000);

  it('a round cut after any write opens and finishes to the same rows as an uncut one', async () => {
    const source = await openNode(v1, createMemoryStore(), true);
    const blocks = await buildBlocks(source, 200);
    const reference = await openNode(v1, createMemoryStore(), false);
    let lastMove = 0;
    for (const [i, block] of blocks.entries()) {
      const before = reference.chain.pruning()!.pruningPoint.id;
      await reference.chain.addBlock(block);
      if (reference.chain.pruning()!.pruningPoint.id !== before) lastMove = i;
    }
    await reference.chain.settled();
    await reference.chain.pruningSettled();
    const expected = withSkipKeysOnly(allRows(reference.store));
    expect(tableKeys(reference.store, H).length).toBeLessThan(tableKeys(source.store, H).length * 0.7);

    const base = await openNode(v1, createMemoryStore(), false);
    await feed(base, blocks.slice(0, lastMove));
    const snapshot = allRows(base.store);
    let cuts = 0;
    for (let cutAt = 0; ; cutAt++) {
      const disk = storeFrom(snapshot);
      const { store, cut } = cutAfter(disk, cutAt);
      const node = await openNode(v1, store, false);
      for (const block of blocks.slice(lastMove)) void node.chain.addBlock(block).catch(() => undefined);
      const finished = await Promise.race([node.chain.pruningSettled().then(() => node.chain.settled()).then(() => true), cut.then(() => false)]);
      if (finished) break;
      cuts++;
      const reopened = await openNode(v1, disk, false);
      for (const block of blocks.slice(lastMove)) await reopened.chain.addBlock(block);
      await reopened.chain.settled();
      await reopened.chain.pruningSettled();
      expect(withSkipKeysOnly(allRows(disk)), `cut after write ${cutAt}`).toEqual(expected);
    }
    expect(cuts).toBeGreaterThan(3);
  }, 180_000);
});

/**
 * Skip rows (K) with their values blanked: a block added once its skip target's rows are gone points at the lowest
 * chain block still held instead (stored-block-index.ts), which depends on when the round ran; walks read heights.
 */
const withSkipKeysOnly = (all: Map<string, string>): Map<string, string> => new Map([...all].map(([k, v]) => [k, k.startsWith('4b') ? '' : v]));

function storeFrom(rowsByHex: Map<string, string>): KvStore {
  const store = createMemoryStore();
  const ops: KvOp[] = [...rowsByHex].map(([k, v]) => ({ type: 'put', key: hexBytes(k), value: hexBytes(v) }));
  void store.write(ops);
  return store;
}

const hexBytes = (hex: string): Uint8Array => Uint8Array.from(hex.match(/../g) ?? [], (b) => Number.parseInt(b, 16));

/** A store whose writes after the first `n` never land (the process died before they committed); `cut` resolves then. */
function cutAfter(store: KvStore, n: number): { store: KvStore; cut: Promise<void> } {
  let writes = 0;
  let onCut: () => void = () => undefined;
  const cut = new Promise<void>((resolve) => (onCut = resolve));
  return {
    cut,
    store: {
      get: (k) => store.get(k),
      has: (k) => store.has(k),
      entries: (r) => store.entries(r),
      write(ops) {
        if (++writes <= n) return store.write(ops);
        onCut();
        return new Promise<void>(() => undefined);
      },
      close: () => Promise.resolve(),
    },
  };
}
