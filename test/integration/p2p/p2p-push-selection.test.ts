// Which peers push new blocks (src/p2p/relay/push-selection.ts, docs/p2p.md "Compact blocks"; BIP 152's
// high-bandwidth peers): a peer that declined pushes hears of a new block by inv and asks for its compact form; a node
// keeps pushes from the three peers that brought it a new block first most lately and declines the rest, and a
// declined peer that brings one first — by inv, then the compact form asked of it — takes the longest-standing
// pusher's place.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Block } from '../../../src/codec/block.ts';
import { regtestParams } from '../../../src/consensus/params.ts';
import { blockHash } from '../../../src/consensus/pow.ts';
import { compactBlockOf } from '../../../src/p2p/compact-relay.ts';
import { InvType } from '../../../src/p2p/messages/inventory.ts';
import { Services } from '../../../src/p2p/messages/version.ts';
import { compactPushersMax } from '../../../src/p2p/relay/push-selection.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { makeBlock } from '../../helpers/chain-fixtures.ts';
import { connectHarness, newStaticKey, versionFor, type Harness } from '../../helpers/p2p-harness.ts';
import { createMemoryNet, until, type MemoryNet } from '../../helpers/p2p-memory-net.ts';
import { regtestBlocks } from '../../helpers/regtest-dag.ts';

let blocks: Block[];
let net: MemoryNet;
beforeAll(async () => {
  blocks = await regtestBlocks(12);
}, 60_000);
afterEach(async () => {
  await net?.closeAll();
});

const selectingServices = Services.full | Services.compactBlocks | Services.prefilledBlocks | Services.pushSelection;

/** A node and `count` harness peers that take part in push selection, each ready (the node's tips read). */
async function nodeAndPeers(count: number) {
  net = createMemoryNet();
  const node = await net.addNode(blocks);
  const peers: Harness[] = [];
  for (let i = 0; i < count; i++) {
    const version = versionFor(regtestParams, { services: selectingServices });
    const harness = await connectHarness(net.open(node.port), { network: 'regtest', version, staticKey: newStaticKey() });
    await harness.next('inv');
    peers.push(harness);
  }
  return { ...node, peers };
}

/** Waits until the node has read everything `harness` sent before (messages are handled in order). */
async function settled(harness: Harness, nonce: bigint): Promise<void> {
  harness.send({ type: 'ping', nonce });
  await harness.next('pong', (m) => m.nonce === nonce);
}

const pushblocksOf = (harness: Harness): boolean[] => harness.received.flatMap((m) => (m.type === 'pushblocks' ? [m.push] : []));

describe('push selection', () => {
  it('announces a new block by inv to a peer that declined pushes, answers its compact-form getdata, and pushes again once asked', async () => {
    const { chain, peers: [peer] } = await nodeAndPeers(1);
    if (peer === undefined) throw new Error('no peer');
    peer.send({ type: 'pushblocks', push: false });
    await settled(peer!, 1n);
    const block = makeBlock(chain);
    const id = toHex(blockHash(block.header));
    expect((await chain.addBlock(block)).status).toBe('accepted');
    await peer.next('inv', (m) => m.items.some((i) => i.kind === InvType.block && toHex(i.hash) === id));
    expect(peer.received.some((m) => (m.type === 'cmpctblock' || m.type === 'prefilledblock') && toHex(blockHash(m.header)) === id)).toBe(false);
    peer.send({ type: 'getdata', items: [{ kind: InvType.compactBlock, hash: blockHash(block.header) }, { kind: InvType.compactBlock, hash: new Uint8Array(32).fill(7) }] });
    await peer.next('prefilledblock', (m) => toHex(blockHash(m.header)) === id);
    const notfound = await peer.next('notfound');
    expect(notfound.items).toEqual([{ kind: InvType.block, hash: new Uint8Array(32).fill(7) }]);

    peer.send({ type: 'pushblocks', push: true });
    await settled(peer!, 2n);
    const next = makeBlock(chain);
    const nextId = toHex(blockHash(next.header));
    expect((await chain.addBlock(next)).status).toBe('accepted');
    await peer.next('prefilledblock', (m) => toHex(blockHash(m.header)) === nextId);
    expect(peer.received.some((m) => m.type === 'inv' && m.items.some((i) => toHex(i.hash) === nextId))).toBe(false);
  });

  it('keeps pushes from the three peers that brought it a block first most lately, and declines the rest', async () => {
    const { chain, peers } = await nodeAndPeers(5);
    expect(compactPushersMax).toBe(3);
    // Peers 0, 1 and 2 each push the node a block it did not have.
    for (const [i, peer] of peers.slice(0, 3).entries()) {
      const block = makeBlock(chain);
      peer.send(compactBlockOf(block));
      await until(() => chain.has(toHex(blockHash(block.header))), 10_000, `block ${i} rebuilt`);
    }
    // The set is full: the two others are told to announce instead, the three keep pushing.
    await until(() => pushblocksOf(peers[3]!).length === 1 && pushblocksOf(peers[4]!).length === 1, 10_000, 'two declines');
    expect(pushblocksOf(peers[3]!)).toEqual([false]);
    expect(pushblocksOf(peers[4]!)).toEqual([false]);
    for (const peer of peers.slice(0, 3)) expect(pushblocksOf(peer)).toEqual([]);

    // Peer 3, declined, announces a block first: the node asks it for the compact form, and it becomes a pusher in
    // place of peer 0, the longest-standing one.
    const block = makeBlock(chain);
    const id = toHex(blockHash(block.header));
    peers[3]!.send({ type: 'inv', items: [{ kind: InvType.block, hash: blockHash(block.header) }] });
    const getdata = await peers[3]!.next('getdata', (m) => m.items.some((i) => toHex(i.hash) === id));
    expect(getdata.items).toEqual([{ kind: InvType.compactBlock, hash: blockHash(block.header) }]);
    peers[3]!.send(compactBlockOf(block));
    await until(() => chain.has(id), 10_000, 'the announced block rebuilt');
    await until(() => pushblocksOf(peers[3]!).length === 2 && pushblocksOf(peers[0]!).length === 1, 10_000, 'peer 3 promoted, peer 0 declined');
    expect(pushblocksOf(peers[3]!)).toEqual([false, true]);
    expect(pushblocksOf(peers[0]!)).toEqual([false]);
    for (const peer of [peers[1]!, peers[2]!]) expect(pushblocksOf(peer)).toEqual([]);
    expect(pushblocksOf(peers[4]!)).toEqual([false]);
  });
});
