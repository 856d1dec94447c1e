// Dandelion++ stems on real p2p nodes (memory transport, real Noise sessions, real mempools): a transaction with a
// stem of 2 hops is admitted by every node on its way but announced first by the last one; observers connected to
// the origin and to the middle node see no announcement. The stem decisions and embargoes themselves are checked
// with a manual timer.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Block } from '../../../src/codec/block.ts';
import { decodeTransaction, txHash } from '../../../src/kinds/transaction-codec.ts';
import { regtestParams } from '../../../src/consensus/params.ts';
import { createMempool } from '../../../src/mempool/mempool.ts';
import { createStemRoutes } from '../../../src/p2p/dandelion.ts';
import { mempoolRelayPort } from '../../../src/p2p/mempool-relay-port.ts';
import type { Message } from '../../../src/p2p/messages.ts';
import { InvType } from '../../../src/p2p/messages/inventory.ts';
import type { P2pNodeOptions } from '../../../src/p2p/p2p-node.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { systemClock } from '../../../src/util/clock.ts';
import { fastVerifier } from '../../../server/crypto/fast-verifier.ts';
import { addressOfKey, createTestAccounts, signedTransfer, testKey } from '../../helpers/mempool-fixtures.ts';
import { connectHarness, versionOfChain, type Harness } from '../../helpers/p2p-harness.ts';
import { createMemoryNet, until, type MemoryNet } from '../../helpers/p2p-memory-net.ts';
import { regtestBlocks } from '../../helpers/regtest-dag.ts';
import { createDispatcher } from '../../../src/rpc/dispatcher.ts';
import { createMempoolPort } from '../../../server/mempool/mempool-port.ts';

let blocks: Block[];
let net: MemoryNet | undefined;
beforeAll(async () => {
  blocks = await regtestBlocks(3);
});
afterEach(async () => {
  await net?.closeAll();
  net = undefined;
});

function pool() {
  const accounts = createTestAccounts();
  accounts.set(addressOfKey(testKey(1)), { balance: 10n ** 12n });
  return createMempool({ params: regtestParams, accounts, verifier: fastVerifier, clock: systemClock });
}

const announces = (received: readonly Message[], id: string) => received.some((m) => m.type === 'inv' && m.items.some((i) => i.kind === InvType.tx && toHex(i.hash) === id));

/** A line of three nodes, origin → middle → last (each dials the next: its only outbound peer), and an observer on each. */
async function line(originOptions: Partial<P2pNodeOptions> = {}) {
  net = createMemoryNet();
  const pools = [pool(), pool(), pool()] as const;
  const last = await net.addNode(blocks, { txPort: mempoolRelayPort(pools[2]) });
  const middle = await net.addNode(blocks, { txPort: mempoolRelayPort(pools[1]), seeds: [{ host: '127.0.0.1', port: last.port }] });
  const origin = await net.addNode(blocks, { txPort: mempoolRelayPort(pools[0]), seeds: [{ host: '127.0.0.1', port: middle.port }], ...originOptions });
  await until(() => origin.node.peerCount() === 1 && middle.node.peerCount() === 2 && last.node.peerCount() === 1, 10_000, 'the line');
  const observers: Harness[] = [];
  for (const n of [origin, middle, last]) observers.push(await connectHarness(net.open(n.port), { network: 'regtest', version: versionOfChain(n.chain) }));
  await until(() => origin.node.peerCount() === 2 && middle.node.peerCount() === 3 && last.node.peerCount() === 2, 10_000, 'observers');
  return { nodes: [origin, middle, last] as const, pools, observers };
}

describe('Dandelion++ stems', () => {
  it('a 2-hop stem is admitted along the way and announced first by its last node', async () => {
    const { nodes, pools, observers } = await line();
    const bytes = signedTransfer({ key: testKey(1), chainId: regtestParams.chainId });
    const hash = txHash(decodeTransaction(bytes));
    const id = toHex(hash);
    nodes[0].node.routeOwnTransaction(hash, 2);
    await pools[0].add(bytes);
    await until(() => pools[2].get(hash) !== undefined, 10_000, 'the stem to reach the last node');
    expect(pools[1].get(hash)).toBeDefined();
    await until(() => announces(observers[2]!.received, id), 10_000, 'the fluff');
    // Give any stray announcement time to arrive: neither the origin nor the middle node announced it.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(announces(observers[0]!.received, id)).toBe(false);
    expect(announces(observers[1]!.received, id)).toBe(false);
  }, 30_000);

  it('without a stem (hops 0, the default) the origin announces at once', async () => {
    const { nodes, pools, observers } = await line();
    const bytes = signedTransfer({ key: testKey(1), chainId: regtestParams.chainId, nonce: 0n });
    const hash = (await pools[0].add(bytes)).hash;
    await until(() => announces(observers[0]!.received, toHex(hash)), 10_000, 'the origin to announce');
    expect(nodes[0].node.peerCount()).toBe(2);
  }, 30_000);

  it("send_raw_transaction's mixnet_hops stems a transaction signed elsewhere: 2 hops, announced by the last node", async () => {
    const { nodes, pools, observers } = await line();
    const origin = nodes[0];
    const rpc = createDispatcher({
      services: {
        chain: origin.chain, node: { version: 't', startedAtMs: 0, clock: systemClock, synced: () => true },
        mempool: createMempoolPort(pools[0], undefined, (hash, hops) => origin.node.routeOwnTransaction(hash, hops)),
      },
      version: 't',
    });
    const bytes = signedTransfer({ key: testKey(1), chainId: regtestParams.chainId });
    const id = toHex(txHash(decodeTransaction(bytes)));
    const answer = await rpc.handle({ jsonrpc: '2.0', method: 'send_raw_transaction', params: { transaction: `0x${toHex(bytes)}`, mixnet_hops: 2 }, id: 1 }, { transport: 'http' });
    expect(answer).toMatchObject({ result: { hash: `0x${id}` } });
    await until(() => announces(observers[2]!.received, id), 10_000, 'the last node to fluff');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(announces(observers[0]!.received, id)).toBe(false);
    expect(announces(observers[1]!.received, id)).toBe(false);
  }, 30_000);

  it("the node's mixnet-hops setting stems its own transactions: 1 hop, announced by the middle node", async () => {
    const { pools, observers } = await line({ mixnetHops: 1 });
    const hash = (await pools[0].add(signedTransfer({ key: testKey(1), chainId: regtestParams.chainId }))).hash;
    await until(() => announces(observers[1]!.received, toHex(hash)), 10_000, 'the middle node to fluff');
    expect(announces(observers[0]!.received, toHex(hash))).toBe(false);
  }, 30_000);
});

describe('stem routes', () => {
  function manualTimer() {
    const tasks: { at: number; run: () => void; live: boolean }[] = [];
    let now = 0;
    return {
      setTimeout(run: () => void, delayMs: number) {
        const task = { at: now + delayMs, run, live: true };
        tasks.push(task);
        return () => void (task.live = false);
      },
      advance(ms: number) {
        now += ms;
        for (const t of tasks) if (t.live && t.at <= now) (t.live = false), t.run();
      },
    };
  }

  it('forwards with one hop fewer, fluffs at 0, and leaves unmarked peer transactions alone', () => {
    const stems = createStemRoutes({ defaultHops: 0, timer: manualTimer(), randomInt: () => 0 });
    stems.markOwn('a', 3);
    expect(stems.decide('a', true)).toEqual({ forward: 2 });
    stems.markReceived('b', 0);
    expect(stems.decide('b', false)).toBe('fluff');
    expect(stems.decide('c', false)).toBeUndefined();
    expect(stems.decide('d', true)).toBe('fluff');
    expect(createStemRoutes({ defaultHops: 2, timer: manualTimer(), randomInt: () => 0 }).decide('e', true)).toEqual({ forward: 1 });
  });

  it('fluffs an embargoed transaction nobody announced, and not one somebody did', () => {
    const timer = manualTimer();
    const stems = createStemRoutes({ defaultHops: 0, timer, randomInt: (n) => n - 1, embargoMinMs: 1_000 });
    const fluffed: string[] = [];
    stems.embargo('lost', () => fluffed.push('lost'));
    stems.embargo('seen', () => fluffed.push('seen'));
    stems.seenAnnounced('seen');
    timer.advance(1_998);
    expect(fluffed).toEqual([]);
    timer.advance(1);
    expect(fluffed).toEqual(['lost']);
  });
});
