// Pruning (issue 18, docs/storage.md "Pruning"): a pruned node and an archive node fed the same blocks agree on every
// state root and every answer about data above the pruning point; below it the pruned node keeps headers and
// consensus data and nothing else — no body, acceptance, inclusion, transaction, history, merged-by, receipt or
// write-log row, and no state-trie node that no kept state reads. A round cut short at any batch (a kill -9: the
// batch never lands) leaves a store that opens and finishes the round to the same rows as an uncut one.
import { describe, expect, it } from 'vitest';
import type { Chain } from '../../../src/chain/chain.ts';
import type { Block } from '../../../src/codec/block.ts';
import { blake3 } from '../../../src/crypto/blake3.ts';
import { regtestParams, type NetworkParams } from '../../../src/consensus/params.ts';
import { blockHash } from '../../../src/consensus/pow.ts';
import { ledgerKeys, ledgerTables } from '../../../src/state/ledger-rows.ts';
import { openLedgerChain, type Ledger } from '../../../src/state/ledger.ts';
import { createStateTrie } from '../../../src/state/trie.ts';
import { decodeTrieNode } from '../../../src/state/trie-node.ts';
import { isEmptyHash } from '../../../src/state/trie-hash.ts';
import type { KvOp, KvStore } from '../../../src/storage/kv.ts';
import { createMemoryStore } from '../../../src/storage/memory-store.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { createManualClock } from '../../../src/util/clock.ts';
import { makeBlock } from '../../helpers/chain-fixtures.ts';
import { transfer, wallet } from '../../helpers/ledger-fixtures.ts';

const params: NetworkParams = Object.freeze({ ...regtestParams, finalityDepth: 12, mergeDepth: 6, pruningDepth: 24 });
const miner = wallet(0);
const payees = [1, 2, 3, 4, 5].map((i) => wallet(i).address);

interface Node {
  chain: Chain;
  ledger: Ledger;
  store: KvStore;
}

async function openNode(store: KvStore, archive: boolean): Promise<Node> {
  const clock = createManualClock(params.genesis.timestampMs + 1_000_000_000);
  const { chain, ledger } = await openLedgerChain({ params, store, clock, archive });
  return { chain, ledger, store };
}

/** Blocks built on `source`: a transfer in most, a sibling pair every fifth round (merged by the next block). */
async function buildBlocks(source: Node, rounds: number, startNonce = 0n): Promise<{ blocks: Block[]; nonce: bigint }> {
  const blocks: Block[] = [];
  let nonce = startNonce;
  for (let round = 0; round < rounds; round++) {
    const parents = source.chain.tips().map((t) => t.id);
    const pay = source.chain.selectedTip().height > 3 && round % 3 !== 2;
    const transactions = pay ? [transfer(miner, payees[round % payees.length]!, 1_000n + BigInt(round), nonce++)] : [];
    const first = makeBlock(source.chain, { parents, transactions, miner: miner.address });
    const width = round % 5 === 4 ? 2 : 1;
    const sibling = width === 2 ? makeBlock(source.chain, { parents, miner: payees[0]!, timestampMs: first.header.timestampMs + 1 }) : undefined;
    for (const block of sibling ? [first, sibling] : [first]) {
      const result = await source.chain.addBlock(block);
      expect(result.status).toBe('accepted');
      blocks.push(block);
    }
  }
  return { blocks, nonce };
}

async function feed(node: Node, blocks: readonly Block[]): Promise<void> {
  for (const block of blocks) expect((await node.chain.addBlock(block)).status).toBe('accepted');
  await node.chain.settled();
  await node.chain.pruningSettled();
}

const rows = (store: KvStore, table: number): Map<string, string> => {
  const out = new Map<string, string>();
  for (const [key, value] of store.entries({ prefix: Uint8Array.of(table) })) out.set(toHex(key), toHex(value));
  return out;
};

const allRows = (store: KvStore): Map<string, string> => {
  const out = new Map<string, string>();
  for (const [key, value] of store.entries()) out.set(toHex(key), toHex(value));
  return out;
};

/** Every trie node reachable from `root` (hex hashes). */
function reachableNodes(store: KvStore, root: Uint8Array, into: Set<string>): void {
  const stack = [root];
  while (stack.length > 0) {
    const hash = stack.pop()!;
    if (isEmptyHash(hash) || into.has(toHex(hash))) continue;
    const bytes = store.get(new Uint8Array([ledgerTables.trie, ...hash]));
    expect(bytes, `node ${toHex(hash)} of a kept state`).toBeDefined();
    into.add(toHex(hash));
    const node = decodeTrieNode(bytes!, hash);
    if (node.kind === 'internal') stack.push(node.left, node.right);
  }
}

describe('pruning below the pruning point', () => {
  it('keeps what an archive node answers above the point, and nothing else below it', async () => {
    const archive = await openNode(createMemoryStore(), true);
    const pruned = await openNode(createMemoryStore(), false);
    const { blocks } = await buildBlocks(archive, 110);
    await feed(pruned, blocks);

    const status = pruned.chain.pruning()!;
    expect(archive.chain.pruning()).toBeUndefined();
    const point = status.pruningPoint;
    const tip = pruned.chain.selectedTip();
    expect(status.prunedThrough.id).toBe(point.id);
    expect(status.rounds).toBeGreaterThanOrEqual(2);
    // The point is the first chain block of its finality interval, at least pruningDepth below the tip.
    expect(tip.header.blueScore - point.header.blueScore).toBeGreaterThanOrEqual(params.pruningDepth);
    expect(tip.header.blueScore - point.header.blueScore).toBeLessThan(params.pruningDepth + params.finalityDepth + 2);
    const spScore = point.selectedParent!.header.blueScore;
    expect(Math.floor(spScore / params.finalityDepth)).toBeLessThan(Math.floor(point.header.blueScore / params.finalityDepth));
    expect(tip.id).toBe(archive.chain.selectedTip().id);

    const ids = blocks.map((b) => toHex(blockHash(b.header)));
    const below = ids.filter((id) => pruned.chain.isPruned(id));
    const kept = ids.filter((id) => !pruned.chain.isPruned(id));
    expect(below.length).toBeGreaterThan(40);
    expect(kept.length).toBeGreaterThan(20);
    for (const id of below) {
      expect(pruned.chain.get(id)?.header.stateRoot).toEqual(archive.chain.get(id)!.header.stateRoot);
      expect(pruned.chain.getBlock(id)).toBeUndefined();
      expect(pruned.ledger.acceptanceOf(id)).toBeUndefined();
      expect(pruned.chain.ghostdag(id)).toEqual(archive.chain.ghostdag(id));
    }
    for (const id of kept) {
      expect(pruned.chain.getBlock(id)).toEqual(archive.chain.getBlock(id));
      expect(pruned.ledger.acceptanceOf(id)).toEqual(archive.ledger.acceptanceOf(id));
      expect(pruned.ledger.mergedBy(id)).toEqual(archive.ledger.mergedBy(id));
    }
    expect(pruned.chain.getBlock(pruned.chain.genesis.id)).toBeDefined();

    // Transactions: those of kept blocks answer the same; those only in pruned blocks are gone, with their rows.
    for (const [i, block] of blocks.entries()) {
      for (const bytes of block.transactions) {
        const hash = blake3(bytes);
        const answer = txView(pruned.ledger, hash);
        if (pruned.chain.isPruned(ids[i]!)) expect(answer).toBeUndefined();
        else expect(answer).toEqual(txView(archive.ledger, hash));
      }
    }
    for (const payee of payees) {
      expect(pruned.ledger.getAccount(payee)).toEqual(archive.ledger.getAccount(payee));
      const history = pruned.ledger.getAddressHistory(payee, 1000, 0).map(historyView);
      const full = archive.ledger.getAddressHistory(payee, 1000, 0).map(historyView);
      expect(history.length).toBeGreaterThan(0);
      expect(history).toEqual(full.slice(0, history.length));
      expect(history.length).toBeLessThan(full.length);
    }

    // Row by row: below the point only headers and consensus data remain.
    const keptHashes = new Set(kept);
    const blockRows = [...rows(pruned.store, 0x42).keys()].map((k) => k.slice(2));
    expect(new Set(blockRows)).toEqual(new Set([...kept, pruned.chain.genesis.id]));
    for (const table of [ledgerTables.acceptance, ledgerTables.writeLog]) {
      for (const key of rows(pruned.store, table).keys()) expect(keptHashes.has(key.slice(2, 66)), `${String.fromCharCode(table)} row of a pruned block`).toBe(true);
    }
    for (const key of rows(pruned.store, ledgerTables.inclusion).keys()) expect(keptHashes.has(key.slice(66, 130))).toBe(true);
    for (const [key, value] of rows(pruned.store, ledgerTables.mergedBy)) {
      expect(keptHashes.has(key.slice(2))).toBe(true);
      expect(pruned.chain.get(value)!.height).toBeGreaterThan(point.height);
    }
    const archiveHistory = [...rows(archive.store, ledgerTables.history)].filter(([key]) => Number.parseInt(key.slice(2 + 66, 2 + 66 + 16), 16) > point.height);
    expect([...rows(pruned.store, ledgerTables.history)]).toEqual(archiveHistory);
    expect(rows(pruned.store, 0x48).size).toBe(rows(archive.store, 0x48).size);

    // State: every root from the point up reads whole and the same; every node left is read by a kept state or
    // written by a kept block (the Bloom filter may keep a stray few).
    const needed = new Set<string>();
    for (let h = point.height; h <= tip.height; h++) {
      const root = pruned.chain.blockAtHeight(h)!.header.stateRoot;
      reachableNodes(pruned.store, root, needed);
      const trie = (store: KvStore) => [...createStateTrie({ store, prefix: ledgerKeys.trieprefix }).entries(root)];
      if (h % 10 === 0 || h === tip.height) expect(trie(pruned.store)).toEqual(trie(archive.store));
    }
    const written = new Set<string>();
    for (const value of rows(pruned.store, ledgerTables.writeLog).values()) for (let at = 0; at < value.length; at += 64) written.add(value.slice(at, at + 64));
    const nodes = [...rows(pruned.store, ledgerTables.trie).keys()].map((k) => k.slice(2));
    const stray = nodes.filter((n) => !needed.has(n) && !written.has(n));
    expect(stray.length).toBeLessThanOrEqual(Math.ceil(nodes.length * 0.02));
    expect(nodes.length).toBeLessThan(rows(archive.store, ledgerTables.trie).size * 0.8);

    // Both keep going: more blocks, the same answers.
    const more = await buildBlocks(archive, 15, 1_000n);
    await feed(pruned, more.blocks);
    expect(pruned.chain.selectedTip().header.stateRoot).toEqual(archive.chain.selectedTip().header.stateRoot);
    expect(pruned.chain.pruning()!.pruningPoint.height).toBeGreaterThanOrEqual(point.height);
  });

  it('a round cut short at any batch opens and finishes to the same rows as an uncut one', async () => {
    const source = await openNode(createMemoryStore(), true);
    const { blocks } = await buildBlocks(source, 70);
    // Everything up to the block whose batch moves the point the last time goes in whole; the rest is cut at write N.
    const reference = await openNode(createMemoryStore(), false);
    let lastMove = 0;
    for (const [i, block] of blocks.entries()) {
      const before = reference.chain.pruning()!.pruningPoint.id;
      await reference.chain.addBlock(block);
      if (reference.chain.pruning()!.pruningPoint.id !== before) lastMove = i;
    }
    await reference.chain.settled();
    await reference.chain.pruningSettled();
    const expected = withoutTrie(allRows(reference.store));
    const expectedRoots = keptRoots(reference);

    const base = await openNode(createMemoryStore(), false);
    await feed(base, blocks.slice(0, lastMove));
    const snapshot = allRows(base.store);
    let cuts = 0;
    for (let cutAt = 0; ; cutAt++) {
      const disk = storeFrom(snapshot);
      const { store, cut } = cutAfter(disk, cutAt);
      const node = await openNode(store, false);
      for (const block of blocks.slice(lastMove)) void node.chain.addBlock(block).catch(() => undefined);
      const finished = await Promise.race([node.chain.pruningSettled().then(() => node.chain.settled()).then(() => true), cut.then(() => false)]);
      if (finished) break; // the whole run fitted in cutAt writes: every cut point was tried
      cuts++;
      const reopened = await openNode(disk, false);
      for (const block of blocks.slice(lastMove)) await reopened.chain.addBlock(block);
      await reopened.chain.settled();
      await reopened.chain.pruningSettled();
      expect(withoutTrie(allRows(disk)), `cut after write ${cutAt}`).toEqual(expected);
      const needed = new Set<string>();
      for (const root of expectedRoots) reachableNodes(disk, root, needed);
    }
    expect(cuts).toBeGreaterThan(3);
  });

  it('restarts without replay and resumes at the stored pruning point', async () => {
    const store = createMemoryStore();
    const first = await openNode(store, false);
    const source = await openNode(createMemoryStore(), true);
    const { blocks } = await buildBlocks(source, 60);
    await feed(first, blocks);
    const status = first.chain.pruning()!;
    let reads = 0;
    const counted: KvStore = { ...store, get: (k) => (reads++, store.get(k)), has: (k) => (reads++, store.has(k)), entries: store.entries.bind(store), write: store.write.bind(store), close: store.close.bind(store) };
    const second = await openNode(counted, false);
    expect(second.chain.pruning()!.pruningPoint.id).toBe(status.pruningPoint.id);
    expect(second.chain.replayedAtOpen).toBe(0);
    expect(reads).toBeLessThan(200);
  });
});

/** A transaction's answer without the linked block objects (whose getters walk the whole chain). */
function txView(ledger: Ledger, hash: Uint8Array) {
  const record = ledger.getTransaction(hash);
  return record && { ...record, acceptingBlock: record.acceptingBlock?.id };
}

const historyView = (entry: ReturnType<Ledger['getAddressHistory']>[number]) => ({ ...entry, acceptingBlock: entry.acceptingBlock.id });

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

/** Every row but the state trie's (which nodes a round keeps by a Bloom filter's false positive depends on timing). */
const withoutTrie = (all: Map<string, string>): Map<string, string> => new Map([...all].filter(([key]) => !key.startsWith(ledgerTables.trie.toString(16))));

/** The state roots of the selected chain from the pruning point to the tip. */
function keptRoots(node: Node): Uint8Array[] {
  const point = node.chain.pruning()!.pruningPoint;
  const out: Uint8Array[] = [];
  for (let h = point.height; h <= node.chain.selectedTip().height; h++) out.push(node.chain.blockAtHeight(h)!.header.stateRoot);
  return out;
}
