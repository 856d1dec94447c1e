/**
 * A peer of the lab's own, outside the nodes: a real TCP connection speaking the real Noise transport and p2p
 * framing (the same code a node runs), through the handshake and version/verack, answering pings. The adversary
 * (attacker.ts) and the spy (spy.ts) are such peers.
 */
import { webcrypto } from 'node:crypto';
import { connect } from 'node:net';
import { genesisHash, regtestParams } from '../../src/consensus/params.ts';
import { p2pProtocolVersion } from '../../src/p2p/limits.ts';
import { decodeMessage, encodeMessage, type Message } from '../../src/p2p/messages.ts';
import { Services } from '../../src/p2p/messages/version.ts';
import { x25519Dh } from '../../src/p2p/noise/suites.ts';
import { openSecureSession } from '../../src/p2p/secure-session.ts';
import { socketPort } from '../../server/p2p/tcp-port.ts';

const randomBytes = (n: number): Uint8Array => webcrypto.getRandomValues(new Uint8Array(n));
const timer = { setTimeout: (run: () => void, ms: number) => { const h = setTimeout(run, ms); return () => clearTimeout(h); } };

export interface LabPeer {
  readonly key: { readonly publicKey: Uint8Array };
  readonly session: Awaited<ReturnType<typeof openSecureSession>>;
  /** What the node sent, in order (kept only when no `onMessage` takes it). */
  readonly received: Message[];
  readonly closed: Promise<void>;
  /** Whether the node answered the version with verack within 5 s. */
  readonly ready: boolean;
}

/**
 * A fresh identity's connection to `p2pPort`, through the Noise handshake and version/verack. `onMessage` sees each
 * message the node sends as it comes (a long-lived peer keeps none of them).
 */
export async function openLabPeer(p2pPort: number, userAgent: string, onMessage?: (message: Message) => void): Promise<LabPeer> {
  const key = x25519Dh.generateKeyPair(randomBytes);
  const socket = connect(p2pPort, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const session = await openSecureSession({ port: socketPort(socket), role: 'initiator', staticKey: key, network: 'regtest', protocolVersion: p2pProtocolVersion, randomBytes, timer });
  const received: Message[] = [];
  let verack = false;
  const closed = new Promise<void>((resolve) => session.onClose(() => resolve()));
  session.onMessage((bytes) => {
    const m = decodeMessage(bytes);
    if (m.type === 'verack') verack = true;
    if (onMessage) onMessage(m);
    else received.push(m);
    if (m.type === 'ping') session.send(encodeMessage({ type: 'pong', nonce: m.nonce })); // a live peer, not an idle one
  });
  const genesis = genesisHash(regtestParams);
  session.send(encodeMessage({
    type: 'version', protocolVersion: p2pProtocolVersion, network: 'regtest', chainId: regtestParams.chainId, genesis, services: Services.full,
    timestampMs: Date.now(), nonce: BigInt(Date.now()) * 31n, userAgent, listenPort: 0, bestBlueScore: 0, bestBlueWork: 0n, selectedTip: genesis, relay: true,
  }));
  const start = Date.now();
  let isClosed = false;
  void closed.then(() => void (isClosed = true));
  while (!verack && !isClosed && Date.now() - start < 5_000) await new Promise((r) => setTimeout(r, 20));
  const ready = verack && !isClosed;
  if (ready) session.send(encodeMessage({ type: 'verack' })); // the node's handshake completes: a ready peer
  return { key, session, received, closed, ready };
}
