// The p2p node in process over in-memory ports: headers-first sync from several peers, relay by inv/getdata,
// orphans fetching their parents, and the misbehaviour rules (ban vs. disconnect vs. rate-limit).
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Block } from '../../../src/codec/block.ts';
import { encodeHeader } from '../../../src/codec/header.ts';
import { regtestParams } from '../../../src/consensus/params.ts';
import { blockHash } from '../../../src/consensus/pow.ts';
import type { MisbehaviourEvent, P2pNodeOptions } from '../../../src/p2p/p2p-node.ts';
import { MessageType } from '../../../src/p2p/messages.ts';
import { InvType } from '../../../src/p2p/messages/inventory.ts';
import { Services } from '../../../src/p2p/messages/version.ts';
import { P2pErrorCode } from '../../../src/p2p/errors.ts';
import { fromHex, toHex } from '../../../src/util/bytes.ts';
import { decodeTransaction, txHash } from '../../../src/kinds/transaction-codec.ts';
import { p2pTxAnnounceDelayMs } from '../../../src/p2p/limits.ts';
import type { Timer } from '../../../src/p2p/transport.ts';
import { createMempool } from '../../../src/mempool/mempool.ts';
import { mempoolRelayPort } from '../../../src/p2p/mempool-relay-port.ts';
import { systemClock } from '../../../src/util/clock.ts';
import { fastVerifier } from '../../../server/crypto/fast-verifier.ts';
import { makeBlock } from '../../helpers/chain-fixtures.ts';
import { addressOfKey, createTestAccounts, signedTransfer, testKey } from '../../helpers/mempool-fixtures.ts';
import { collectHeaders } from '../../../src/p2p/locator.ts';
import { connectHarness, newStaticKey, realTimer, versionFor, versionOfChain } from '../../helpers/p2p-harness.ts';
import { chainWith, createMemoryNet, until, type MemoryNet } from '../../helpers/p2p-memory-net.ts';
import { extendChain, regtestBlocks } from '../../helpers/regtest-dag.ts';

let blocks: Block[];
let net: MemoryNet;
beforeAll(async () => {
  blocks = await regtestBlocks(1_500);
}, 60_000);
afterEach(async () => {
  await net?.closeAll();
});

describe('initial sync', () => {
  it('downloads a 1,500-block DAG headers-first from two peers and reports progress', async () => {
    net = createMemoryNet();
    const a = await net.addNode(blocks);
    const c = await net.addNode(blocks);
    const b = await net.addNode([], { seeds: [{ host: '127.0.0.1', port: a.port }, { host: '127.0.0.1', port: c.port }] });
    await until(() => b.chain.blockCount() === a.chain.blockCount() && b.node.syncStatus().state === 'synced', 60_000, 'sync');
    expect(b.chain.selectedTip().id).toBe(a.chain.selectedTip().id);
    const status = b.node.syncStatus();
    expect(status).toMatchObject({ synced: true, percent: 100, currentBlueScore: a.chain.selectedTip().header.blueScore });
    // Unmerged tips are in no header page: relay fetches them after the round.
    expect(status.blocksApplied).toBeGreaterThanOrEqual(blocks.length - 2);
    for (const h of [1, 700, a.chain.selectedTip().height]) expect(b.chain.blockAtHeight(h)!.id).toBe(a.chain.blockAtHeight(h)!.id);
    expect(b.node.peerCount()).toBe(2);
  }, 90_000);

  it('resumes from a partial chain and merges a fork: both sides end with the union of the DAG', async () => {
    net = createMemoryNet();
    const a = await net.addNode(blocks.slice(0, 600));
    const b = await net.addNode(blocks.slice(0, 300));
    // b mines its own 20 blocks while apart (a fork), a keeps the 600.
    const own = await extendChain(b.chain, 20, 7);
    await b.node.connect('127.0.0.1', a.port);
    await until(() => a.chain.blockCount() === 601 + own.length && b.chain.blockCount() === 601 + own.length, 30_000, 'DAG union').catch((e) => {
      throw new Error(`${e.message}: a ${a.chain.blockCount()} b ${b.chain.blockCount()} orphans a ${a.chain.orphanCount()} b ${b.chain.orphanCount()} ${JSON.stringify(b.node.syncStatus())}`);
    });
    expect(b.chain.selectedTip().id).toBe(a.chain.selectedTip().id);
    // What each sent, by message type: the handshake, and the headers and blocks a served b.
    const sentByA = a.node.sentByMessage();
    expect(sentByA.get('version')).toMatchObject({ messages: 1 });
    expect(sentByA.get('version')!.bytes).toBeGreaterThan(0);
    expect(sentByA.get('block')?.messages ?? 0).toBeGreaterThanOrEqual(300);
    // b's fork went whole in a's headers round, its tip in the compact form a asks an announcer for.
    const sentByB = b.node.sentByMessage();
    expect(['block', 'cmpctblock', 'prefilledblock'].reduce((n, type) => n + (sentByB.get(type)?.messages ?? 0), 0)).toBeGreaterThanOrEqual(own.length);
  }, 60_000);
  it('syncs a heavier fork from its sync peer while another peer, on a lighter fork, has none of its blocks', async () => {
    // a and b hold one chain; c mined its own from genesis, heavier. Both a and b sync from c: blocks of c's chain
    // asked from the other (whose blue score is high enough to look like it has them) come back notfound, and the
    // round must go on with c instead of asking that peer again (it once did, forever: the helper's p2p-network stall).
    net = createMemoryNet();
    const a = await net.addNode(blocks.slice(0, 40));
    const b = await net.addNode(blocks.slice(0, 40), { seeds: [{ host: '127.0.0.1', port: a.port }] });
    await until(() => a.node.peerCount() === 1 && b.node.peerCount() === 1, 10_000, 'a and b connected');
    const c = await net.addNode();
    const fork = await extendChain(c.chain, 60, 9);
    await c.node.connect('127.0.0.1', a.port);
    await c.node.connect('127.0.0.1', b.port);
    const union = 41 + fork.length;
    await until(() => a.chain.blockCount() === union && b.chain.blockCount() === union, 30_000, 'every node holds both forks').catch((e) => {
      throw new Error(`${e.message}: a ${a.chain.blockCount()} b ${b.chain.blockCount()} c ${c.chain.blockCount()} of ${union}; a ${JSON.stringify(a.node.syncStatus())}`);
    });
    expect(a.chain.selectedTip().id).toBe(c.chain.selectedTip().id);
    expect(b.chain.selectedTip().id).toBe(c.chain.selectedTip().id);
  }, 60_000);
});

describe('relay', () => {
  it('announces a new block by inv and the peer fetches it; the reverse direction works too', async () => {
    net = createMemoryNet();
    const a = await net.addNode(blocks.slice(0, 50));
    const b = await net.addNode(blocks.slice(0, 50), { seeds: [{ host: '127.0.0.1', port: a.port }] });
    await until(() => a.node.peerCount() === 1 && b.node.peerCount() === 1, 10_000, 'connection');
    const [fromA] = await extendChain(a.chain, 1, 3);
    await until(() => b.chain.has(toHex(blockHash(fromA!.header))), 10_000, 'relay a→b');
    const [fromB] = await extendChain(b.chain, 1, 4);
    await until(() => a.chain.has(toHex(blockHash(fromB!.header))), 10_000, 'relay b→a');
  }, 30_000);

  it('announces a block mined during a sync round, but not the blocks the round applies', async () => {
    net = createMemoryNet();
    const a = await net.addNode(blocks);
    const b = await net.addNode([], { seeds: [{ host: '127.0.0.1', port: a.port }] });
    const watcher = await connectHarness(net.open(b.port), { network: 'regtest', version: versionFor(regtestParams) });
    await until(() => b.node.syncStatus().state === 'syncing' && b.chain.blockCount() > 50, 30_000, 'b syncing');
    const [mined] = await extendChain(b.chain, 1, 11);
    const minedId = toHex(blockHash(mined!.header));
    const inv = await watcher.next('inv', (m) => m.items.some((i) => i.kind === InvType.block && toHex(i.hash) === minedId), 10_000);
    expect(inv).toBeDefined();
    // The round's own blocks were not announced one by one (only the tips sent at the handshake, and the new block).
    const blockInvs = watcher.received.filter((m) => m.type === 'inv').flatMap((m) => (m.type === 'inv' ? m.items : [])).filter((i) => i.kind === InvType.block);
    expect(blockInvs.length).toBeLessThanOrEqual(17);
    watcher.session.close();
  }, 60_000);

  it('takes a pushed block on parents it holds during a sync round, not after the round', async () => {
    net = createMemoryNet();
    const a = await net.addNode(blocks.slice(0, 50));
    const b = await net.addNode(blocks.slice(0, 50), { seeds: [{ host: '127.0.0.1', port: a.port }] });
    await until(() => a.node.peerCount() === 1 && b.node.peerCount() === 1, 10_000, 'a–b link');
    // A peer that claims a heavier chain and never answers getheaders holds a in a round (for the 60 s timeout).
    const tip = blocks[1_499]!.header;
    const stalling = await connectHarness(net.open(a.port), { network: 'regtest', version: versionFor(regtestParams, { bestBlueScore: tip.blueScore, bestBlueWork: tip.blueWork, selectedTip: blockHash(tip) }) });
    await stalling.next('getheaders');
    expect(a.node.syncStatus().state).toBe('syncing');
    const [mined] = await extendChain(b.chain, 1, 12);
    const minedId = toHex(blockHash(mined!.header));
    await until(() => a.chain.has(minedId), 5_000, 'the pushed block taken during the round');
    expect(a.node.syncStatus().state).toBe('syncing');
    stalling.session.close();
  }, 30_000);

  it('fetches the missing ancestors of a relayed orphan headers-first, not one level per round trip', async () => {
    net = createMemoryNet();
    const a = await net.addNode(blocks.slice(0, 20));
    const side = await chainWith(blocks.slice(0, 20));
    // 30 levels, then one block merging every tip, so the whole gap is in the announced block's past.
    const extra = [...(await extendChain(side, 30, 9)), ...(await extendChain(side, 1, 9))];
    const harness = await connectHarness(net.open(a.port), { network: 'regtest', version: versionFor(regtestParams) });
    await harness.next('inv'); // a's tips: a holds the harness as a ready peer from here on
    const top = extra.at(-1)!;
    harness.send({ type: 'inv', items: [{ kind: InvType.block, hash: blockHash(top.header) }] });
    const served = new Set<string>();
    let answered = 0;
    // Serve whatever the node asks for from the side chain, as an honest peer would: blocks and header pages.
    const serve = setInterval(() => {
      harness.received.forEach((m, i) => {
        if (m.type === 'getheaders' && i >= answered) {
          answered = i + 1;
          const page = collectHeaders(side, m.locator, m.stop);
          harness.send({ type: 'headers', headers: page.headers, more: page.more });
        }
        if (m.type !== 'getdata') return;
        for (const item of m.items) {
          const id = toHex(item.hash);
          if (served.has(id)) continue;
          served.add(id);
          const block = extra.find((x) => toHex(blockHash(x.header)) === id);
          if (block) harness.send({ type: 'block', block });
        }
      });
    }, 10);
    try {
      await until(() => extra.every((x) => a.chain.has(toHex(blockHash(x.header)))), 20_000, 'orphan resolution').catch((e) => {
        throw new Error(`${e.message}: has ${extra.filter((x) => a.chain.has(toHex(blockHash(x.header)))).length} of ${extra.length}, orphans ${a.chain.orphanCount()}, received ${harness.received.map((m) => m.type).join(',')}`);
      });
    } finally {
      clearInterval(serve);
    }
    // The tip, then one headers round for the rest at once — its parent was announced by nobody, so it is a gap, not
    // a block on its way — where level by level took one getdata a level.
    const requests = harness.received.filter((m) => m.type === 'getdata' || m.type === 'getheaders').map((m) => m.type);
    expect(requests.slice(0, 2)).toEqual(['getdata', 'getheaders']);
    expect(requests.filter((type) => type === 'getdata').length).toBeLessThanOrEqual(6);
    expect(served.size).toBe(extra.length);
  }, 30_000);
});

describe('transaction relay', () => {
  it('announces an admitted transaction; the peer fetches it into its own mempool', async () => {
    net = createMemoryNet();
    const pools = [0, 1].map(() => {
      const accounts = createTestAccounts();
      accounts.set(addressOfKey(testKey(1)), { balance: 10n ** 12n });
      return createMempool({ params: regtestParams, accounts, verifier: fastVerifier, clock: systemClock });
    });
    const a = await net.addNode(blocks.slice(0, 5), { txPort: mempoolRelayPort(pools[0]!) });
    const b = await net.addNode(blocks.slice(0, 5), { txPort: mempoolRelayPort(pools[1]!), seeds: [{ host: '127.0.0.1', port: a.port }] });
    await until(() => a.node.peerCount() === 1 && b.node.peerCount() === 1, 10_000, 'connection');
    const entry = await pools[0]!.add(signedTransfer({ key: testKey(1), chainId: regtestParams.chainId }));
    await until(() => pools[1]!.get(entry.hash) !== undefined, 10_000, 'tx relay');
    expect(pools[1]!.get(entry.hash)!.bytes).toEqual(entry.bytes);
    // Both offer short inventory: announced by 8-byte id, asked for by it, never by a 33-byte inv item.
    expect(a.node.sentByMessage().get('txinv')?.messages).toBe(1);
    expect(b.node.sentByMessage().get('gettx')?.messages).toBe(1);
    expect(b.node.sentByMessage().get('getdata')?.messages ?? 0).toBe(0);
  }, 30_000);
});

describe('transaction announcements', () => {
  /** A node whose pool funds `keyCount` test keys, and a harness peer with `services`, ready (the node's tips read). */
  async function poolNodeAndPeer(keyCount: number, services: bigint = Services.full, nodeOptions: Partial<P2pNodeOptions> = {}) {
    net = createMemoryNet();
    const accounts = createTestAccounts();
    const keys = Array.from({ length: keyCount }, (_, i) => testKey(i));
    for (const key of keys) accounts.set(addressOfKey(key), { balance: 10n ** 12n });
    const mempool = createMempool({ params: regtestParams, accounts, verifier: fastVerifier, clock: systemClock });
    const a = await net.addNode(blocks.slice(0, 5), { txPort: mempoolRelayPort(mempool), ...nodeOptions });
    const harness = await connectHarness(net.open(a.port), { network: 'regtest', version: versionFor(regtestParams, { services }) });
    await harness.next('inv'); // the node's tips: the harness is a ready peer from here on
    return { keys, mempool, a, harness };
  }

  it('announces a batch the pool admits at once in one inv a peer', async () => {
    const { keys, mempool, harness } = await poolNodeAndPeer(5);
    const results = await mempool.addBatch(keys.map((key) => signedTransfer({ key, chainId: regtestParams.chainId })));
    expect(results.every((r) => r.ok)).toBe(true);
    const inv = await harness.next('inv', (m) => m.items.some((i) => i.kind === InvType.tx));
    expect(inv.items.filter((i) => i.kind === InvType.tx)).toHaveLength(keys.length);
    harness.session.close();
  });

  it('announces to a shortTxInv peer by 8-byte id, and answers its gettx with what it holds', async () => {
    const { keys, mempool, a, harness } = await poolNodeAndPeer(3, Services.full | Services.shortTxInv);
    const txs = keys.map((key) => signedTransfer({ key, chainId: regtestParams.chainId }));
    expect((await mempool.addBatch(txs)).every((r) => r.ok)).toBe(true);
    const txinv = await harness.next('txinv');
    const ids = mempool.pending().map((e) => e.hash);
    expect(txinv.shortIds).toHaveLength(8 * keys.length);
    expect(new Set(chunks(txinv.shortIds))).toEqual(new Set(ids.map((id) => toHex(id.subarray(0, 8)))));
    expect(harness.received.some((m) => m.type === 'inv' && m.items.some((i) => i.kind === InvType.tx))).toBe(false);
    // Asked for one it holds and one it never had: the one comes back as tx, the other is passed over in silence.
    harness.send({ type: 'gettx', shortIds: Uint8Array.from([...ids[1]!.subarray(0, 8), ...new Uint8Array(8).fill(0xee)]) });
    const tx = await harness.next('tx');
    expect(tx.tx).toEqual(mempool.get(ids[1]!)!.bytes);
    // A short id it lacks is asked for with gettx; one it holds is not.
    harness.send({ type: 'txinv', shortIds: Uint8Array.from([...new Uint8Array(8).fill(0xab), ...ids[0]!.subarray(0, 8)]) });
    const gettx = await harness.next('gettx');
    expect(toHex(gettx.shortIds)).toBe('ab'.repeat(8));
    expect(harness.received.filter((m) => m.type === 'tx')).toHaveLength(1);
    expect(a.node.peerCount()).toBe(1);
    harness.session.close();
  });

  it('announces what the pool admitted over the delay in one txinv, less what the peer announced to it meanwhile', async () => {
    // The announcement timer is held until the test lets it go; every other timer runs as usual.
    const held: (() => void)[] = [];
    const timer: Timer = {
      setTimeout: (callback, delayMs) => {
        if (delayMs !== p2pTxAnnounceDelayMs) return realTimer.setTimeout(callback, delayMs);
        held.push(callback);
        return () => held.splice(held.indexOf(callback), 1);
      },
    };
    const { keys, mempool, harness } = await poolNodeAndPeer(3, Services.full | Services.shortTxInv, { timer });
    const txs = keys.map((key) => signedTransfer({ key, chainId: regtestParams.chainId }));
    const shortKeys = txs.map((raw) => toHex(txHash(decodeTransaction(raw)).subarray(0, 8)));
    // Three admissions in three turns; the peer announces the second one while the first two wait.
    expect((await mempool.addBatch([txs[0]!]))[0]!.ok).toBe(true);
    expect((await mempool.addBatch([txs[1]!]))[0]!.ok).toBe(true);
    harness.send({ type: 'txinv', shortIds: fromHex(shortKeys[1]!) });
    harness.send({ type: 'ping', nonce: 77n });
    await harness.next('pong'); // the node has read the txinv
    expect((await mempool.addBatch([txs[2]!]))[0]!.ok).toBe(true);
    expect(held).toHaveLength(1);
    expect(harness.received.some((m) => m.type === 'txinv')).toBe(false);
    held.shift()!();
    const txinv = await harness.next('txinv');
    expect(chunks(txinv.shortIds).sort()).toEqual([shortKeys[0]!, shortKeys[2]!].sort());
    expect(held).toHaveLength(0);
    harness.session.close();
  });
});

function chunks(bytes: Uint8Array): string[] {
  return Array.from({ length: bytes.length / 8 }, (_, i) => toHex(bytes.subarray(8 * i, 8 * i + 8)));
}

describe('misbehaviour', () => {
  async function victim(options: Partial<P2pNodeOptions> = {}) {
    net = createMemoryNet();
    return net.addNode(blocks.slice(0, 10), options);
  }

  it('bans a peer that sends a block with invalid proof of work, and keeps its chain', async () => {
    const misbehaviour: MisbehaviourEvent[] = [];
    const a = await victim({ onMisbehaviour: (event) => misbehaviour.push(event) });
    const key = newStaticKey();
    const harness = await connectHarness(net.open(a.port), { network: 'regtest', version: versionFor(regtestParams), staticKey: key });
    const block = makeBlock(a.chain, { grind: false, mutate: (h) => ({ ...h, bits: 0x1d00ffff }) });
    harness.send({ type: 'block', block });
    const reason = await harness.closed;
    expect(reason).toBeUndefined(); // the node hung up; its reason came as a reject message
    const reject = harness.received.find((m) => m.type === 'reject');
    expect(reject).toMatchObject({ code: P2pErrorCode.InvalidBlockRelayed, banScore: 100 });
    expect(a.node.isBanned(`node:${toHex(key.publicKey)}`)).toBe(true);
    expect(a.chain.blockCount()).toBe(11);
    // The node's alert monitor hears of both: the invalid block and the ban (security alerts, docs/alerts.md).
    expect(misbehaviour.map((e) => e.kind)).toEqual(['invalid_block', 'banned']);
    expect(misbehaviour[0]!.reason).toBe('pow.insufficient');
    // The same identity is refused on reconnect.
    await expect(connectHarness(net.open(a.port), { network: 'regtest', version: versionFor(regtestParams), staticKey: key })).rejects.toThrow();
  });

  it('bans malformed and over-cap messages, disconnects a wrong-genesis peer without a ban', async () => {
    const a = await victim();
    const k1 = newStaticKey();
    const h1 = await connectHarness(net.open(a.port), { network: 'regtest', version: versionFor(regtestParams), staticKey: k1 });
    h1.sendRaw(Uint8Array.of(MessageType.inv, 0xff)); // truncated varint
    await h1.closed;
    expect(a.node.isBanned(`node:${toHex(k1.publicKey)}`)).toBe(true);

    const k2 = newStaticKey();
    const h2 = await connectHarness(net.open(a.port), { network: 'regtest', version: versionFor(regtestParams), staticKey: k2 });
    const over = new Uint8Array(1 + 3);
    over.set([MessageType.inv, 0xd1, 0x86, 0x03]); // count 50,001
    h2.sendRaw(over);
    await h2.closed;
    expect(h2.received.find((m) => m.type === 'reject')).toMatchObject({ code: P2pErrorCode.MessageOverCap });
    expect(a.node.isBanned(`node:${toHex(k2.publicKey)}`)).toBe(true);

    const k3 = newStaticKey();
    const h3 = await connectHarness(net.open(a.port), { network: 'regtest', version: versionFor(regtestParams, { genesis: new Uint8Array(32) }), staticKey: k3, handshake: false });
    await h3.closed;
    expect(h3.received.find((m) => m.type === 'reject')).toMatchObject({ code: P2pErrorCode.PeerIncompatible, banScore: 0 });
    expect(a.node.isBanned(`node:${toHex(k3.publicKey)}`)).toBe(false);
  });

  it('bans a flood of unsolicited orphans but only rate-limits unknown message types', async () => {
    const a = await victim();
    const calm = await connectHarness(net.open(a.port), { network: 'regtest', version: versionOfChain(a.chain) });
    for (let i = 0; i < 500; i++) calm.sendRaw(Uint8Array.of(0xee, i & 0xff));
    calm.send({ type: 'ping', nonce: 42n });
    await calm.next('pong', (m) => m.nonce === 42n);
    expect(calm.session.isClosed()).toBe(false);

    const key = newStaticKey();
    const flood = await connectHarness(net.open(a.port), { network: 'regtest', version: versionOfChain(a.chain), staticKey: key });
    const side = await chainWith(blocks.slice(0, 10));
    const orphans = await extendChain(side, 60, 5);
    for (const block of orphans.slice(1)) flood.send({ type: 'block', block }); // parents never sent
    await flood.closed;
    expect(flood.received.find((m) => m.type === 'reject')).toMatchObject({ code: P2pErrorCode.UnsolicitedFlood });
    expect(a.node.isBanned(`node:${toHex(key.publicKey)}`)).toBe(true);
    expect(a.chain.orphanCount()).toBeLessThanOrEqual(32);
    expect(a.chain.blockCount()).toBe(11);
    expect(encodeHeader(a.chain.selectedTip().header).length).toBeGreaterThan(0);
  });
});
