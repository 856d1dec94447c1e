// Which peers the p2p node holds (src/p2p/p2p-node.ts, src/p2p/dialer.ts; docs/p2p.md "Peers"), in process over
// in-memory ports: a `connectOnly` node dials its addnode peers and none of the addresses `addr` tells it of (the
// network lab's links run through emulators on the addnode ports, and the address book used to dial around them).
import { afterEach, describe, expect, it } from 'vitest';
import { regtestParams } from '../../../src/consensus/params.ts';
import { connectHarness, versionFor } from '../../helpers/p2p-harness.ts';
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
