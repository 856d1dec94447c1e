// The light client's version/verack handshake is the p2p node's (src/p2p/version-handshake.ts): a scripted node on
// the far end of a real Noise session (in-memory ports) that sends verack before its version, advertises a protocol
// version below the minimum, or talks before the handshake is done is refused, and the tab asks it for nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { regtestParams } from '../../../src/consensus/params.ts';
import { LightSyncError } from '../../../src/light/errors.ts';
import { openLightChain } from '../../../src/light/light-chain.ts';
import { createMemoryHeaderStore } from '../../../src/light/light-store.ts';
import { startLightSync, type LightSync } from '../../../src/light/light-sync.ts';
import { p2pProtocolVersion, p2pProtocolVersionMin } from '../../../src/p2p/limits.ts';
import { decodeMessage, encodeMessage, type Message } from '../../../src/p2p/messages.ts';
import { InvType } from '../../../src/p2p/messages/inventory.ts';
import { openSecureSession, type SecureSession } from '../../../src/p2p/secure-session.ts';
import { createMemoryPortPair } from '../../../src/p2p/transport.ts';
import { systemClock } from '../../../src/util/clock.ts';
import { newStaticKey, randomBytes, realTimer, versionFor } from '../../helpers/p2p-harness.ts';

/** A node that runs Noise as responder and then sends exactly what the test scripts, recording what the tab sends. */
interface ScriptedNode {
  readonly session: SecureSession;
  readonly received: Message[];
  send(message: Message): void;
}

let syncs: LightSync[] = [];
afterEach(() => {
  for (const sync of syncs) sync.close();
  syncs = [];
});

async function tabAgainstScriptedNode(): Promise<{ sync: LightSync; node: ScriptedNode; headers: () => number }> {
  const chain = await openLightChain({ params: regtestParams, store: createMemoryHeaderStore(), clock: systemClock });
  const [tabPort, nodePort] = createMemoryPortPair({ schedule: (task) => setImmediate(task) });
  const nodeSession = openSecureSession({
    port: nodePort, role: 'responder', staticKey: newStaticKey(), network: regtestParams.name, protocolVersion: p2pProtocolVersion, randomBytes, timer: realTimer,
  });
  const sync = await startLightSync({ chain, port: tabPort, staticKey: newStaticKey(), randomBytes, timer: realTimer, clock: systemClock, userAgent: '/tab/' });
  syncs.push(sync);
  const session = await nodeSession;
  const received: Message[] = [];
  session.onMessage((bytes) => received.push(decodeMessage(bytes)));
  return { sync, node: { session, received, send: (message) => session.send(encodeMessage(message)) }, headers: () => chain.count() };
}

/** The session's end, or 'still running' when the tab has not ended it within `ms`. */
const endedWithin = (sync: LightSync, ms: number): Promise<LightSyncError | undefined | 'still running'> =>
  Promise.race([sync.ended, new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), ms))]);

const asked = (node: ScriptedNode) => node.received.filter((m) => m.type === 'getheaders' || m.type === 'getpruningproof').length;

describe('the light client’s version handshake', () => {
  it('goes on to ask for headers after an honest node’s version and verack (the control)', async () => {
    const { sync, node } = await tabAgainstScriptedNode();
    node.send(versionFor(regtestParams));
    node.send({ type: 'verack' });
    await expect.poll(() => asked(node), { timeout: 10_000 }).toBe(1);
    expect(node.received[0]?.type).toBe('version');
    expect(node.received.some((m) => m.type === 'verack')).toBe(true);
    expect(await endedWithin(sync, 200)).toBe('still running');
  });

  it('refuses a node that sends verack before its version', async () => {
    const { sync, node, headers } = await tabAgainstScriptedNode();
    node.send({ type: 'verack' });
    node.send(versionFor(regtestParams));
    const ended = await endedWithin(sync, 5_000);
    expect(ended).toBeInstanceOf(LightSyncError);
    expect((ended as LightSyncError).reason).toBe('protocol');
    expect((ended as LightSyncError).message).toMatch(/verack before version/);
    await expect(sync.caughtUp).rejects.toBe(ended);
    expect(asked(node)).toBe(0);
    expect(headers()).toBe(1);
  });

  it('refuses a node that advertises a protocol version below the minimum', async () => {
    const { sync, node, headers } = await tabAgainstScriptedNode();
    const old = p2pProtocolVersionMin - 1;
    node.send(versionFor(regtestParams, { protocolVersion: old }));
    node.send({ type: 'verack' });
    const ended = await endedWithin(sync, 5_000);
    expect(ended).toBeInstanceOf(LightSyncError);
    expect((ended as LightSyncError).reason).toBe('peer-incompatible');
    expect((ended as LightSyncError).message).toMatch(new RegExp(`protocol version ${old} is older than ${p2pProtocolVersionMin}`));
    expect(asked(node)).toBe(0);
    // The refused version is not answered: no verack goes back to it.
    expect(node.received.some((m) => m.type === 'verack')).toBe(false);
    expect(headers()).toBe(1);
  });

  it('refuses a node on another network before anything else', async () => {
    const { sync, node } = await tabAgainstScriptedNode();
    node.send(versionFor(regtestParams, { chainId: regtestParams.chainId + 1 }));
    const ended = await endedWithin(sync, 5_000);
    expect((ended as LightSyncError).reason).toBe('peer-incompatible');
    expect(asked(node)).toBe(0);
  });

  it('refuses an announcement before the handshake completed', async () => {
    const { sync, node } = await tabAgainstScriptedNode();
    node.send(versionFor(regtestParams));
    node.send({ type: 'inv', items: [{ kind: InvType.block, hash: new Uint8Array(32).fill(9) }] });
    const ended = await endedWithin(sync, 5_000);
    expect((ended as LightSyncError).reason).toBe('protocol');
    expect((ended as LightSyncError).message).toMatch(/inv before the version handshake completed/);
    expect(asked(node)).toBe(0);
  });
});
