// Which peers the p2p node holds (src/p2p/p2p-node.ts, src/p2p/dialer.ts; docs/p2p.md "Peers"), in process over
// in-memory ports: a `connectOnly` node dials its addnode peers and none of the addresses `addr` tells it of (the
// network lab's links run through emulators on the addnode ports, and the address book used to dial around them);
// the inbound cap holds against connections opened at once (each used to pass the check before any was counted, so
// the lab's eclipse run held 150 inbound peers against a cap of 117).
import { afterEach, describe, expect, it } from 'vitest';
import { regtestParams } from '../../../src/consensus/params.ts';
import { connectHarness, versionFor, type Harness } from '../../helpers/p2p-harness.ts';
import { createMemoryNet, until, type MemoryNet } from '../../helpers/p2p-memory-net.ts';

let net: MemoryNet;
afterEach(async () => {
  await net?.closeAll();
});

describe('connect-only', () => {
  it('dials only its addnode peer, never an address learned by addr, and still accepts inbound and passes addresses on', async () => {
    net = createMemoryNet();
    const hub = await net.addNode();
    const other = await net.addNode();
    await hub.node.connect('127.0.0.1', other.port);
    await until(() => hub.node.peerCount() === 1, 10_000, 'the hub knows the other node');
    // Both joiners have the hub as their only addnode peer and learn the other node's address from its addr answer.
    const dialled = { control: [] as number[], connectOnly: [] as number[] };
    const seeds = [{ host: '127.0.0.1', port: hub.port }];
    const recording = (into: number[]) => async (_host: string, port: number) => {
      into.push(port);
      return net.open(port);
    };
    const control = await net.addNode([], { seeds, dial: recording(dialled.control) });
    const connectOnly = await net.addNode([], { seeds, connectOnly: true, dial: recording(dialled.connectOnly) });
    // The control node dials the learned address in its next dial round: the addr path works in this set-up.
    await until(() => dialled.control.includes(other.port), 15_000, 'the control node dials the learned address');
    await until(() => control.node.peers().some((p) => p.address.endsWith(`:${other.port}`)), 10_000, 'the control node connected to it');
    await new Promise((r) => setTimeout(r, 500)); // the connect-only node's round, started beside the control's, has run
    expect(dialled.connectOnly).toEqual([hub.port]);
    expect(connectOnly.node.peers().filter((p) => p.direction === 'outbound').map((p) => p.address)).toEqual([`127.0.0.1:${hub.port}`]);

    // Inbound connections are accepted, and getaddr is answered with what addr taught it.
    const harness = await connectHarness(net.open(connectOnly.port), { network: 'regtest', version: versionFor(regtestParams) });
    await harness.next('inv');
    harness.send({ type: 'getaddr' });
    const addr = await harness.next('addr');
    expect(addr.entries.map((e) => e.port)).toContain(other.port);
    harness.session.close();
  }, 30_000);
});

describe('inbound cap', () => {
  const inboundMax = 4;
  const connectMany = (port: number, count: number): Promise<PromiseSettledResult<Harness>[]> =>
    Promise.allSettled(Array.from({ length: count }, () => connectHarness(net.open(port), { network: 'regtest', version: versionFor(regtestParams) })));
  const inbound = (node: { peers(): { direction: string }[] }): number => node.peers().filter((p) => p.direction === 'inbound').length;

  it('holds when many connections open at once, and frees a slot when a connection closes or fails its handshake', async () => {
    net = createMemoryNet();
    const { node, port } = await net.addNode([], { inboundMax });
    const first = await connectMany(port, 3 * inboundMax);
    const held = first.filter((r): r is PromiseFulfilledResult<Harness> => r.status === 'fulfilled').map((r) => r.value);
    await until(() => inbound(node) >= inboundMax, 10_000, 'the cap filled');
    await new Promise((r) => setTimeout(r, 200)); // any connection past the cap would have finished its handshake by now
    expect(inbound(node)).toBe(inboundMax);
    expect(held.filter((h) => !h.session.isClosed())).toHaveLength(inboundMax);

    // Closed peers give their slots back.
    for (const h of held) h.session.close();
    await until(() => inbound(node) === 0, 10_000, 'the peers gone');
    // Connections that fail their handshake hold a slot only while it runs: these close before it finishes.
    for (let i = 0; i < inboundMax; i++) net.open(port).close();
    await new Promise((r) => setTimeout(r, 100)); // the node sees the closes a turn of the event loop later
    const second = await connectMany(port, inboundMax);
    expect(second.filter((r) => r.status === 'fulfilled')).toHaveLength(inboundMax);
    await until(() => inbound(node) === inboundMax, 10_000, 'the cap filled again');
    for (const r of second) if (r.status === 'fulfilled') r.value.session.close();
  }, 30_000);
});
