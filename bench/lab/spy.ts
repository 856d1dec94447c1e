/**
 * The lab's spy (docs/network.md "The spy"): the adversary Dandelion++ is built against, a peer of every node at
 * once (lab-peer.ts, connected straight to each node's port, without the link emulator's delay), that notes which
 * node announced each transaction to it first. Its guess of a transfer's origin is that node (the first-spy
 * estimator); how often the guess is right, for transfers sent by stem and for those announced at once, is the
 * privacy the stem buys.
 */
import { InvType } from '../../src/p2p/messages/inventory.ts';
import { toHex } from '../../src/util/bytes.ts';
import { openLabPeer, type LabPeer } from './lab-peer.ts';

export interface Spy {
  /** Transaction hash (hex, as the load records it) → the node that announced it to the spy first. */
  readonly firstAnnouncer: Map<string, number>;
  close(): void;
}

/** Connects the spy to each node; a node it cannot reach is one fewer node it hears from. */
export async function startSpy(nodes: readonly { readonly index: number; readonly p2pPort: number }[]): Promise<Spy> {
  const firstAnnouncer = new Map<string, number>();
  const peers: LabPeer[] = [];
  await Promise.all(nodes.map(async (node) => {
    const peer = await openLabPeer(node.p2pPort, '/lab-spy/', (message) => {
      if (message.type !== 'inv') return;
      for (const item of message.items) {
        if (item.kind !== InvType.tx) continue;
        const hash = `0x${toHex(item.hash)}`;
        if (!firstAnnouncer.has(hash)) firstAnnouncer.set(hash, node.index);
      }
    });
    peers.push(peer);
  }));
  return {
    firstAnnouncer,
    close: () => {
      for (const peer of peers) peer.session.close();
    },
  };
}
