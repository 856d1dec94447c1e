// Compact block relay (src/p2p/compact-relay.ts, docs/p2p.md "Compact blocks"): a new block is pushed to compact
// peers as header + short ids, one one-way delay a hop; the receiver rebuilds it from its pool and asks only for
// what it lacks; a short-id collision (a rebuilt block the header does not commit to) falls back to the full block;
// a pushed header that does not meet its own target is a bad block; short ids are salted per pushed block;
// getblocktxn is answered only when bounded; a compact block whose transactions never come is fetched whole; pushed
// blocks whose parents are unknown past the orphan allowance (a healed partition) are dropped unpunished.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Block } from '../../../src/codec/block.ts';
import { regtestParams } from '../../../src/consensus/params.ts';
import { blockHash } from '../../../src/consensus/pow.ts';
import { blake3 } from '../../../src/crypto/blake3.ts';
import { createMempool, type Mempool } from '../../../src/mempool/mempool.ts';
import {
  compactBackupDelayMs, compactBlockOf, compactBlockTxnDepthMax, compactCompletionTimeoutMs, compactHeldConfirmedBlocks, compactPendingMax, confirmTransactions,
  createCompactRelayState, rememberTransaction,
} from '../../../src/p2p/compact-relay.ts';
import { shortIdKey, shortIdOf } from '../../../src/p2p/messages/compact-block.ts';
import { P2pErrorCode } from '../../../src/p2p/errors.ts';
import { mempoolRelayPort } from '../../../src/p2p/mempool-relay-port.ts';
import { decodeMessage, encodeMessage, type Message } from '../../../src/p2p/messages.ts';
import { InvType } from '../../../src/p2p/messages/inventory.ts';
import { Services } from '../../../src/p2p/messages/version.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { systemClock } from '../../../src/util/clock.ts';
import { fastVerifier } from '../../../server/crypto/fast-verifier.ts';
import { makeBlock } from '../../helpers/chain-fixtures.ts';
import { addressOfKey, createTestAccounts, signedTransfer, testKey } from '../../helpers/mempool-fixtures.ts';
import { connectHarness, newStaticKey, versionFor } from '../../helpers/p2p-harness.ts';
import { chainWith, createMemoryNet, until, type MemoryNet } from '../../helpers/p2p-memory-net.ts';
import { extendChain, regtestBlocks } from '../../helpers/regtest-dag.ts';

let blocks: Block[];
let net: MemoryNet;
beforeAll(async () => {
  blocks = await regtestBlocks(20);
}, 60_000);
afterEach(async () => {
  await net?.closeAll();
});

const compactVersion = () => versionFor(regtestParams, { services: Services.full | Services.compactBlocks });
const keys = Array.from({ length: 6 }, (_, i) => testKey(i));

function pool(): Mempool {
  const accounts = createTestAccounts();
  for (const key of keys) accounts.set(addressOfKey(key), { balance: 10n ** 12n });
  return createMempool({ params: regtestParams, accounts, verifier: fastVerifier, clock: systemClock });
}

const transfers = () => keys.map((key) => signedTransfer({ key, chainId: regtestParams.chainId }));

describe('compact block messages', () => {
  it('round-trip, and refuse unordered indexes', () => {
    const block = blocks[blocks.length - 1]!;
    const messages: Message[] = [
      compactBlockOf({ ...block, transactions: transfers() }),
      { type: 'getblocktxn', hash: blockHash(block.header), indexes: [0, 3, 7] },
      { type: 'blocktxn', hash: blockHash(block.header), transactions: transfers().slice(0, 2) },
    ];
    for (const m of messages) expect(decodeMessage(encodeMessage(m))).toEqual(m);
    const bytes = encodeMessage({ type: 'getblocktxn', hash: new Uint8Array(32), indexes: [0, 3] });
    bytes[bytes.length - 1] = 0; // [0, 0]: not strictly increasing
    expect(() => decodeMessage(bytes)).toThrow(/strictly increasing/);
  });

  it('refuse a getblocktxn that asks for nothing, both ways', () => {
    expect(() => encodeMessage({ type: 'getblocktxn', hash: new Uint8Array(32), indexes: [] })).toThrow(/at least one/);
    expect(() => decodeMessage(emptyGetBlockTxn())).toThrow(/at least one/);
  });

  it('salt short ids with the block hash and the sender\'s nonce: two pushes of one block share none', () => {
    const block = { ...blocks[blocks.length - 1]!, transactions: transfers() };
    const [a, b] = [compactBlockOf(block), compactBlockOf(block)];
    if (a.type !== 'cmpctblock' || b.type !== 'cmpctblock') throw new Error('not a compact block');
    expect(toHex(a.nonce)).not.toBe(toHex(b.nonce));
    const key = shortIdKey(blockHash(block.header), a.nonce);
    expect(toHex(a.shortIds)).toBe(block.transactions.map((tx) => toHex(shortIdOf(key, blake3(tx)))).join(''));
    const unsalted = block.transactions.map((tx) => toHex(blake3(tx).subarray(0, 8)));
    for (let i = 0; i < block.transactions.length; i++) {
      expect(unsalted).not.toContain(toHex(a.shortIds.subarray(i * 8, i * 8 + 8)));
      expect(toHex(a.shortIds.subarray(i * 8, i * 8 + 8))).not.toBe(toHex(b.shortIds.subarray(i * 8, i * 8 + 8)));
    }
  });
});

describe('held transactions', () => {
  it('keep a confirmed transaction for the blocks a parallel block may take to arrive, then stop salting it', () => {
    const state = createCompactRelayState();
    const [a, b, c] = transfers().map((tx) => toHex(blake3(tx)));
    for (const id of [a!, b!, c!]) rememberTransaction(state, id);
    confirmTransactions(state, [a!]);
    for (let i = 1; i < compactHeldConfirmedBlocks; i++) confirmTransactions(state, []);
    expect(state.held.has(a!)).toBe(true);
    confirmTransactions(state, [b!]);
    expect(state.held.has(a!)).toBe(false);
    expect([...state.held.keys()].sort()).toEqual([b!, c!].sort());
    expect(state.confirmed).toHaveLength(compactHeldConfirmedBlocks);
  });
});

/** getblocktxn with a count of 0, as a peer could send it (the encoder refuses to write it). */
function emptyGetBlockTxn(): Uint8Array {
  const one = encodeMessage({ type: 'getblocktxn', hash: new Uint8Array(32), indexes: [5] });
  const bytes = one.slice(0, one.length - 1); // drop the index
  bytes[bytes.length - 1] = 0; // count 1 → 0
  return bytes;
}

describe('compact block relay', () => {
  async function receiver() {
    net = createMemoryNet();
    const mempool = pool();
    const node = await net.addNode(blocks, { txPort: mempoolRelayPort(mempool) });
    const harness = await connectHarness(net.open(node.port), { network: 'regtest', version: compactVersion(), staticKey: newStaticKey() });
    await harness.next('inv'); // the node's tips: it holds the harness as a ready peer from here on
    return { ...node, mempool, harness };
  }

  it('pushes each new block to compact peers at once, as header + short ids', async () => {
    const { chain, harness } = await receiver();
    const block = makeBlock(chain, { transactions: transfers() });
    const id = toHex(blockHash(block.header));
    const result = await chain.addBlock(block);
    expect(result.status).toBe('accepted');
    const pushed = await harness.next('cmpctblock', (m) => toHex(blockHash(m.header)) === id);
    const key = shortIdKey(blockHash(block.header), pushed.nonce);
    expect(toHex(pushed.shortIds)).toEqual(block.transactions.map((tx) => toHex(shortIdOf(key, blake3(tx)))).join(''));
    // Not announced by inv as well: the push is the announcement.
    expect(harness.received.some((m) => m.type === 'inv' && m.items.some((i) => toHex(i.hash) === id))).toBe(false);
  });

  it('fetches no announced transaction that a block it validated carried', async () => {
    const { chain, harness } = await receiver();
    const block = makeBlock(chain, { transactions: transfers() });
    expect((await chain.addBlock(block)).status).toBe('accepted');
    const carried = block.transactions.map((tx) => blake3(tx).subarray(0, 8));
    const unknown = new Uint8Array(8).fill(0x5a);
    // Announced after the block, half by txinv and half by inv: only the transaction no block carried is asked for.
    harness.send({ type: 'txinv', shortIds: Uint8Array.from([...carried.slice(0, 3).flatMap((id) => [...id]), ...unknown]) });
    harness.send({ type: 'inv', items: block.transactions.slice(3).map((tx) => ({ kind: InvType.tx, hash: blake3(tx) })) });
    harness.send({ type: 'ping', nonce: 7n });
    await harness.next('pong');
    const gettx = await harness.next('gettx');
    expect(toHex(gettx.shortIds)).toBe(toHex(unknown));
    expect(harness.received.some((m) => m.type === 'getdata')).toBe(false);
  });

  it('rebuilds a pushed block from its pool without asking for anything', async () => {
    const { chain, mempool, harness } = await receiver();
    const txs = transfers();
    for (const tx of txs) await mempool.add(tx);
    const block = makeBlock(chain, { transactions: txs });
    const id = toHex(blockHash(block.header));
    harness.send(compactBlockOf(block));
    await until(() => chain.has(id), 10_000, 'rebuilt block accepted');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(harness.received.filter((m) => m.type === 'getblocktxn' || m.type === 'getdata')).toEqual([]);
  });

  it('asks the sender only for the transactions it lacks, by index', async () => {
    const { chain, mempool, harness } = await receiver();
    const txs = transfers();
    for (const i of [0, 2, 3, 5]) await mempool.add(txs[i]!);
    const block = makeBlock(chain, { transactions: txs });
    const id = toHex(blockHash(block.header));
    harness.send(compactBlockOf(block));
    const ask = await harness.next('getblocktxn');
    expect(ask.indexes).toEqual([1, 4]);
    harness.send({ type: 'blocktxn', hash: ask.hash, transactions: ask.indexes.map((i) => txs[i]!) });
    await until(() => chain.has(id), 10_000, 'completed block accepted');
  });

  it('falls back to the full block when the rebuilt one is not what the header commits to', async () => {
    const { chain, mempool, harness } = await receiver();
    const txs = transfers();
    for (const tx of txs) await mempool.add(tx);
    const block = makeBlock(chain, { transactions: txs });
    const id = toHex(blockHash(block.header));
    // Short ids in another order: every one is known, the rebuilt root is wrong (what a collision looks like).
    const compact = compactBlockOf(block);
    if (compact.type !== 'cmpctblock') throw new Error('not a compact block');
    const reversed = new Uint8Array(compact.shortIds.length);
    for (let i = 0; i < compact.shortIds.length / 8; i++) reversed.set(compact.shortIds.subarray(i * 8, i * 8 + 8), compact.shortIds.length - (i + 1) * 8);
    harness.send({ ...compact, shortIds: reversed });
    const asked = await harness.next('getdata', (m) => m.items.some((i) => toHex(i.hash) === id));
    expect(asked).toBeDefined();
    harness.send({ type: 'block', block });
    await until(() => chain.has(id), 10_000, 'full block accepted');
  });

  it('after a heal: pushed blocks of a side it lacks, past the orphan allowance, are dropped unpunished and the side fetched by headers', async () => {
    const { chain, harness } = await receiver();
    // The peer's side of a partition: 40 blocks from block 10 that the receiver never saw, pushed as they would be
    // once the link comes back — each one's parents unknown to the receiver.
    const side = await extendChain(await chainWith(blocks.slice(0, 11)), 40, 7);
    for (const block of side.slice(1)) harness.send(compactBlockOf(block));
    const asked = await harness.next('getheaders');
    expect(asked.locator.length).toBeGreaterThan(0);
    harness.send({ type: 'ping', nonce: 7n });
    await harness.next('pong', (m) => m.nonce === 7n);
    expect(harness.session.isClosed()).toBe(false);
    expect(harness.received.some((m) => m.type === 'reject')).toBe(false);
    expect(chain.orphanCount()).toBeLessThanOrEqual(32);
  });

  it('treats a pushed header that misses its own target as a bad block (ban)', async () => {
    const { chain, harness } = await receiver();
    const block = makeBlock(chain, { grind: false, mutate: (h) => ({ ...h, bits: 0x1d00ffff }) });
    harness.send(compactBlockOf(block));
    await harness.closed;
    expect(harness.received.find((m) => m.type === 'reject')).toMatchObject({ code: P2pErrorCode.InvalidBlockRelayed, banScore: 100 });
  });

  it('serves the transactions a peer asks for, and refuses an index past the block', async () => {
    const { chain, harness } = await receiver();
    const txs = transfers();
    const block = makeBlock(chain, { transactions: txs });
    await chain.addBlock(block);
    const hash = blockHash(block.header);
    harness.send({ type: 'getblocktxn', hash, indexes: [1, 4] });
    const answer = await harness.next('blocktxn');
    expect(answer.transactions).toEqual([txs[1], txs[4]]);
    harness.send({ type: 'getblocktxn', hash, indexes: [txs.length] });
    await harness.closed;
    expect(harness.received.find((m) => m.type === 'reject')).toMatchObject({ code: P2pErrorCode.MessageMalformed });
  });

  it('refuses a getblocktxn that asks for nothing as malformed, before any lookup', async () => {
    const { harness } = await receiver();
    harness.sendRaw(emptyGetBlockTxn());
    await harness.closed;
    expect(harness.received.find((m) => m.type === 'reject')).toMatchObject({ code: P2pErrorCode.MessageMalformed });
    expect(harness.received.some((m) => m.type === 'blocktxn' || m.type === 'notfound')).toBe(false);
  });

  it('answers getblocktxn only near the tip: a deeper block gets notfound (the asker falls back to getdata)', async () => {
    const { chain, harness } = await receiver();
    const txs = transfers();
    const old = makeBlock(chain, { transactions: txs });
    await chain.addBlock(old);
    for (let i = 0; i <= compactBlockTxnDepthMax; i++) await chain.addBlock(makeBlock(chain));
    expect(chain.selectedTip().header.blueScore - old.header.blueScore).toBeGreaterThan(compactBlockTxnDepthMax);
    const hash = blockHash(old.header);
    harness.send({ type: 'getblocktxn', hash, indexes: [0, 1] });
    const refused = await harness.next('notfound', (m) => m.items.some((i) => toHex(i.hash) === toHex(hash)));
    expect(refused.items).toHaveLength(1);
    expect(harness.received.some((m) => m.type === 'blocktxn')).toBe(false);
    // The whole block is still served by getdata.
    harness.send({ type: 'getdata', items: [{ kind: InvType.block, hash }] });
    expect((await harness.next('block')).block.transactions).toEqual(txs);
  });

  it('fetches the whole block from its sender when the transactions asked for do not come in time', async () => {
    const { chain, harness } = await receiver();
    const block = makeBlock(chain, { transactions: transfers() });
    const id = toHex(blockHash(block.header));
    harness.send(compactBlockOf(block));
    await harness.next('getblocktxn', (m) => toHex(m.hash) === id);
    const askedAt = Date.now();
    const fallback = await harness.next('getdata', (m) => m.items.some((i) => toHex(i.hash) === id), compactCompletionTimeoutMs + 5_000);
    expect(Date.now() - askedAt).toBeGreaterThanOrEqual(compactCompletionTimeoutMs - 100);
    expect(fallback.items).toHaveLength(1);
    harness.send({ type: 'block', block });
    await until(() => chain.has(id), 10_000, 'block fetched whole accepted');
  }, 20_000);

  async function secondPeer(port: number) {
    const peer = await connectHarness(net.open(port), { network: 'regtest', version: compactVersion(), staticKey: newStaticKey() });
    await peer.next('inv');
    return peer;
  }

  it('fetches a block whole from the next announcer while another peer sits on its transactions', async () => {
    const { chain, port, harness: claimer } = await receiver();
    const honest = await secondPeer(port);
    const block = makeBlock(chain, { transactions: transfers() });
    const id = toHex(blockHash(block.header));
    const compact = compactBlockOf(block);
    if (compact.type !== 'cmpctblock') throw new Error('not a compact block');
    // The real header with an id nobody holds: the node asks the claimer, which never answers.
    claimer.send({ ...compact, shortIds: new Uint8Array(8).fill(7) });
    await claimer.next('getblocktxn', (m) => toHex(m.hash) === id);
    const pushedAt = Date.now();
    honest.send(compact);
    await honest.next('getdata', (m) => m.items.some((i) => toHex(i.hash) === id), 5_000);
    // After the grace a sender has to answer in, not at once (and well before the claimer's own 3 s timer).
    expect(Date.now() - pushedAt).toBeGreaterThanOrEqual(compactBackupDelayMs - 100);
    honest.send({ type: 'block', block });
    await until(() => chain.has(id), 10_000, 'block from the second announcer accepted');
  });

  it('asks a further announcer for nothing when the sender returns the transactions in time', async () => {
    const { chain, port, harness: sender } = await receiver();
    const other = await secondPeer(port);
    const txs = transfers();
    const block = makeBlock(chain, { transactions: txs });
    const id = toHex(blockHash(block.header));
    sender.send(compactBlockOf(block));
    const ask = await sender.next('getblocktxn', (m) => toHex(m.hash) === id);
    other.send(compactBlockOf(block));
    // The second push handled first (the old rule asked its sender for the whole block at once), then the answer.
    await new Promise((resolve) => setTimeout(resolve, 100));
    sender.send({ type: 'blocktxn', hash: ask.hash, transactions: ask.indexes.map((i) => txs[i]!) });
    await until(() => chain.has(id), 5_000, 'block completed from its sender');
    await new Promise((resolve) => setTimeout(resolve, compactBackupDelayMs + 300));
    // The whole block was never fetched from the second announcer: each would cost a block's bytes again.
    expect(other.received.some((m) => m.type === 'getdata' && m.items.some((i) => toHex(i.hash) === id))).toBe(false);
  });

  it('a peer pushing blocks it never completes cannot evict another peer\'s pending block', async () => {
    const { chain, port, harness: flooder } = await receiver();
    const honest = await secondPeer(port);
    const txs = transfers();
    const block = makeBlock(chain, { transactions: txs });
    const id = toHex(blockHash(block.header));
    honest.send(compactBlockOf(block));
    const ask = await honest.next('getblocktxn', (m) => toHex(m.hash) === id);
    // As many pushed blocks as the table holds, each naming a transaction the node lacks, none ever completed.
    const flood = Array.from({ length: compactPendingMax }, (_, i) => makeBlock(chain, { transactions: [signedTransfer({ key: keys[0]!, chainId: regtestParams.chainId, amount: 7n + BigInt(i) })] }));
    for (const b of flood) flooder.send(compactBlockOf(b));
    await until(() => flooder.received.filter((m) => m.type === 'getblocktxn').length === flood.length, 10_000, 'flood processed');
    honest.send({ type: 'blocktxn', hash: ask.hash, transactions: ask.indexes.map((i) => txs[i]!) });
    await until(() => chain.has(id), 5_000, 'honest block completed');
  });

  it('carries a block between two nodes by push, rebuilt from relayed transactions', async () => {
    net = createMemoryNet();
    const pools = [pool(), pool()];
    const a = await net.addNode(blocks, { txPort: mempoolRelayPort(pools[0]!) });
    const b = await net.addNode(blocks, { txPort: mempoolRelayPort(pools[1]!), seeds: [{ host: '127.0.0.1', port: a.port }] });
    await until(() => a.node.peerCount() === 1 && b.node.peerCount() === 1, 10_000, 'connection');
    const txs = transfers();
    for (const tx of txs) await pools[0]!.add(tx);
    await until(() => pools[1]!.size === txs.length, 10_000, 'transactions relayed');
    const block = makeBlock(a.chain, { transactions: txs });
    await a.chain.addBlock(block);
    await until(() => b.chain.has(toHex(blockHash(block.header))), 10_000, 'block relayed');
  });
});
