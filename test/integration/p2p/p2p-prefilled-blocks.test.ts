// Prefilled compact blocks (src/p2p/messages/prefilled-block.ts, docs/p2p.md "Compact blocks"): to a peer with the
// prefilledBlocks service bit a new block is pushed with the transactions that peer is not known to hold, so it
// rebuilds the block without a getblocktxn round trip; a peer without the bit still gets cmpctblock; prefilled bytes
// that are not the block's fall back to the full block; a malformed prefilled list is refused by the decoder; and a
// block is pushed as soon as it is validated, before its batch is durable.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Block } from '../../../src/codec/block.ts';
import { regtestParams } from '../../../src/consensus/params.ts';
import { blockHash } from '../../../src/consensus/pow.ts';
import { createMempool, type Mempool } from '../../../src/mempool/mempool.ts';
import { compactFormOf, compactPrefilledBytesMax, prefilledFor } from '../../../src/p2p/compact-relay.ts';
import { blockBytesMax } from '../../../src/limits.ts';
import { mempoolRelayPort } from '../../../src/p2p/mempool-relay-port.ts';
import { decodeMessage, encodeMessage } from '../../../src/p2p/messages.ts';
import type { PrefilledBlockMessage } from '../../../src/p2p/messages/prefilled-block.ts';
import { txShortKey } from '../../../src/p2p/messages/tx-inventory.ts';
import { Services } from '../../../src/p2p/messages/version.ts';
import { openLedgerChain } from '../../../src/state/ledger.ts';
import type { KvStore } from '../../../src/storage/kv.ts';
import { createMemoryStore } from '../../../src/storage/memory-store.ts';
import { createBoundedSet } from '../../../src/util/bounded-set.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { systemClock } from '../../../src/util/clock.ts';
import { fastVerifier } from '../../../server/crypto/fast-verifier.ts';
import { blake3 } from '../../../src/crypto/blake3.ts';
import { makeBlock } from '../../helpers/chain-fixtures.ts';
import { addressOfKey, createTestAccounts, signedTransfer, testKey } from '../../helpers/mempool-fixtures.ts';
import { connectHarness, newStaticKey, versionFor } from '../../helpers/p2p-harness.ts';
import { createMemoryNet, until, type MemoryNet } from '../../helpers/p2p-memory-net.ts';
import { regtestBlocks } from '../../helpers/regtest-dag.ts';

let blocks: Block[];
let net: MemoryNet;
beforeAll(async () => {
  blocks = await regtestBlocks(20);
}, 60_000);
afterEach(async () => {
  await net?.closeAll();
});

const keys = Array.from({ length: 6 }, (_, i) => testKey(i));
const transfers = () => keys.map((key) => signedTransfer({ key, chainId: regtestParams.chainId }));

function pool(): Mempool {
  const accounts = createTestAccounts();
  for (const key of keys) accounts.set(addressOfKey(key), { balance: 10n ** 12n });
  return createMempool({ params: regtestParams, accounts, verifier: fastVerifier, clock: systemClock });
}

/** A node with a pool, and a harness peer that asked for compact blocks with `services`. */
async function nodeAndPeer(services: bigint) {
  net = createMemoryNet();
  const mempool = pool();
  const node = await net.addNode(blocks, { txPort: mempoolRelayPort(mempool) });
  const version = versionFor(regtestParams, { services: Services.full | services });
  const harness = await connectHarness(net.open(node.port), { network: 'regtest', version, staticKey: newStaticKey() });
  await harness.next('inv'); // the node's tips: it holds the harness as a ready peer from here on
  return { ...node, mempool, harness };
}

describe('prefilledblock messages', () => {
  const block = () => ({ ...blocks[blocks.length - 1]!, transactions: transfers() });

  it('round-trip, and carry exactly what the known set lacks, marking it known', () => {
    const form = compactFormOf(block());
    const known = createBoundedSet<string>(100);
    for (const i of [0, 2, 5]) known.add(txShortKey(toHex(blake3(form.transactions[i]!))));
    const message = prefilledFor(form, known);
    expect(message.prefilled.map((p) => p.index)).toEqual([1, 3, 4]);
    expect(message.prefilled.map((p) => toHex(p.tx))).toEqual([1, 3, 4].map((i) => toHex(form.transactions[i]!)));
    expect(toHex(message.shortIds)).toBe(toHex(form.message.shortIds));
    expect(decodeMessage(encodeMessage(message))).toEqual(message);
    // Everything is known now: a second push to the same peer carries no transaction.
    expect(prefilledFor(form, known).prefilled).toEqual([]);
  });

  it('carry at most their byte budget: past it the peer asks by index', () => {
    const form = compactFormOf(block());
    const txBytes = form.transactions[0]!.length;
    expect(form.transactions.every((tx) => tx.length === txBytes)).toBe(true);
    const known = createBoundedSet<string>(100);
    const capped = prefilledFor(form, known, 2 * txBytes + 1);
    expect(capped.prefilled.map((p) => p.index)).toEqual([0, 1]);
    // Only what was sent is marked known: the next push carries the next ones.
    expect(prefilledFor(form, known, 2 * txBytes).prefilled.map((p) => p.index)).toEqual([2, 3]);
    expect(compactPrefilledBytesMax).toBeLessThan(blockBytesMax / 5);
  });

  it('refuse an index out of order or past the block, both ways', () => {
    const form = compactFormOf(block());
    const good = prefilledFor(form, createBoundedSet<string>(100));
    const swapped: PrefilledBlockMessage = { ...good, prefilled: [good.prefilled[1]!, good.prefilled[0]!] };
    expect(() => encodeMessage(swapped)).toThrow(/prefilledblock index 0: expected above 1/);
    const past: PrefilledBlockMessage = { ...good, prefilled: [{ index: 6, tx: good.prefilled[0]!.tx }] };
    expect(() => encodeMessage(past)).toThrow(/below 6/);
    // On the wire: the first index (right after the prefilled count) made 6, past the block's 6 positions.
    const one: PrefilledBlockMessage = { ...good, prefilled: [good.prefilled[0]!] };
    const bytes = encodeMessage(one);
    const at = bytes.length - one.prefilled[0]!.tx.length - 2 - 1; // index byte, then a 2-byte length, then the tx
    expect(bytes[at]).toBe(0);
    bytes[at] = 6;
    expect(() => decodeMessage(bytes)).toThrow(/prefilledblock index 6: expected above -1 and below 6/);
  });
});

describe('prefilled block relay', () => {
  it('pushes to a prefilledBlocks peer the transactions it was never told of, and no others', async () => {
    const { chain, mempool, harness } = await nodeAndPeer(Services.compactBlocks | Services.prefilledBlocks);
    const txs = transfers();
    // Three reach the pool, and so are announced to the peer; three the block carries are news to it.
    for (const i of [0, 1, 2]) await mempool.add(txs[i]!);
    await until(() => harness.received.filter((m) => m.type === 'inv' && m.items.length > 0 && m.items[0]!.kind === 1).flatMap((m) => (m.type === 'inv' ? m.items : [])).length === 3, 10_000, 'three announced');
    const block = makeBlock(chain, { transactions: txs });
    const id = toHex(blockHash(block.header));
    expect((await chain.addBlock(block)).status).toBe('accepted');
    const pushed = await harness.next('prefilledblock', (m) => toHex(blockHash(m.header)) === id);
    expect(pushed.prefilled.map((p) => p.index)).toEqual([3, 4, 5]);
    expect(pushed.prefilled.map((p) => toHex(p.tx))).toEqual([3, 4, 5].map((i) => toHex(txs[i]!)));
    expect(harness.received.some((m) => m.type === 'cmpctblock')).toBe(false);
  });

  it('pushes cmpctblock to a peer without the bit', async () => {
    const { chain, harness } = await nodeAndPeer(Services.compactBlocks);
    const block = makeBlock(chain, { transactions: transfers() });
    const id = toHex(blockHash(block.header));
    await chain.addBlock(block);
    await harness.next('cmpctblock', (m) => toHex(blockHash(m.header)) === id);
    expect(harness.received.some((m) => m.type === 'prefilledblock')).toBe(false);
  });

  it('rebuilds a pushed block from what it carries and its pool, asking for nothing', async () => {
    const { chain, mempool, harness } = await nodeAndPeer(Services.compactBlocks | Services.prefilledBlocks);
    const txs = transfers();
    for (const i of [0, 2]) await mempool.add(txs[i]!);
    const block = makeBlock(chain, { transactions: txs });
    const id = toHex(blockHash(block.header));
    const known = createBoundedSet<string>(100);
    for (const i of [0, 2]) known.add(txShortKey(toHex(blake3(txs[i]!))));
    harness.send(prefilledFor(compactFormOf(block), known));
    await until(() => chain.has(id), 10_000, 'rebuilt block accepted');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(harness.received.filter((m) => m.type === 'getblocktxn' || m.type === 'getdata')).toEqual([]);
  });

  it('asks for what it still lacks, and fetches the full block when the carried bytes are not the block\'s', async () => {
    const { chain, harness } = await nodeAndPeer(Services.compactBlocks | Services.prefilledBlocks);
    const txs = transfers();
    const block = makeBlock(chain, { transactions: txs });
    const id = toHex(blockHash(block.header));
    const all = prefilledFor(compactFormOf(block), createBoundedSet<string>(100));
    // Positions 1 and 4 left out: asked for by index, as for cmpctblock.
    harness.send({ ...all, prefilled: all.prefilled.filter((p) => p.index !== 1 && p.index !== 4) });
    const ask = await harness.next('getblocktxn');
    expect(ask.indexes).toEqual([1, 4]);
    harness.send({ type: 'blocktxn', hash: ask.hash, transactions: ask.indexes.map((i) => txs[i]!) });
    await until(() => chain.has(id), 10_000, 'completed block accepted');

    // A second block whose carried transactions are swapped: the root decides, and the full block is fetched.
    const next = makeBlock(chain, { transactions: transfers() });
    const nextId = toHex(blockHash(next.header));
    const carried = prefilledFor(compactFormOf(next), createBoundedSet<string>(100));
    const [first, second] = [carried.prefilled[0]!, carried.prefilled[1]!];
    harness.send({ ...carried, prefilled: [{ index: 0, tx: second.tx }, { index: 1, tx: first.tx }, ...carried.prefilled.slice(2)] });
    await harness.next('getdata', (m) => m.items.some((i) => toHex(i.hash) === nextId));
    harness.send({ type: 'block', block: next });
    await until(() => chain.has(nextId), 10_000, 'full block accepted');
  });
});

describe('announcing before the commit', () => {
  it('pushes a block to peers once it is validated, while its batch is not yet durable', async () => {
    // A store whose batches become durable only when the test says so (an fsync that takes its time).
    const store = createMemoryStore();
    let held = false;
    const waiting: (() => void)[] = [];
    const gated: KvStore = {
      ...store,
      get: (key) => store.get(key),
      write: async (ops) => {
        if (held) await new Promise<void>((resolve) => waiting.push(resolve));
        return store.write(ops);
      },
    };
    const { chain } = await openLedgerChain({ params: regtestParams, store: gated, clock: systemClock });
    for (const block of blocks) void chain.addBlock(block);
    await chain.settled();
    net = createMemoryNet();
    const node = await net.addNode([], { chain });
    const version = versionFor(regtestParams, { services: Services.full | Services.compactBlocks | Services.prefilledBlocks });
    const harness = await connectHarness(net.open(node.port), { network: 'regtest', version, staticKey: newStaticKey() });
    await harness.next('inv');

    held = true;
    const accepted: string[] = [];
    chain.onBlockAccepted((event) => accepted.push(event.block.id));
    const block = makeBlock(chain, { transactions: transfers() });
    const id = toHex(blockHash(block.header));
    let settled = false;
    const adding = chain.addBlock(block).then((result) => {
      settled = true;
      return result;
    });
    const pushed = await harness.next('prefilledblock', (m) => toHex(blockHash(m.header)) === id);
    expect(pushed.prefilled).toHaveLength(block.transactions.length);
    expect(settled).toBe(false);
    expect(accepted).toEqual([]);
    // The peer can already ask for what the block holds: reads see the queued batch.
    harness.send({ type: 'getblocktxn', hash: blockHash(block.header), indexes: [0] });
    const answer = await harness.next('blocktxn');
    expect(toHex(answer.transactions[0]!)).toBe(toHex(block.transactions[0]!));

    held = false;
    for (const release of waiting.splice(0)) release();
    expect((await adding).status).toBe('accepted');
    expect(accepted).toEqual([id]);
  });
});
