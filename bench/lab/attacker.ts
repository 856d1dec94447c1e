/**
 * The lab's adversary peer: a real TCP connection speaking the real Noise transport and p2p framing (the same
 * code a node runs), which relays an invalid block (bits its chain does not allow) and then a transaction that does
 * not decode. Every honest node it reaches must ban it; no honest node may ban another for what it relayed.
 */
import { webcrypto } from 'node:crypto';
import { connect } from 'node:net';
import { decodeHeader } from '../../src/codec/header.ts';
import { genesisHash, regtestParams } from '../../src/consensus/params.ts';
import { p2pProtocolVersion } from '../../src/p2p/limits.ts';
import { decodeMessage, encodeMessage, type Message } from '../../src/p2p/messages.ts';
import { Services } from '../../src/p2p/messages/version.ts';
import { x25519Dh } from '../../src/p2p/noise/suites.ts';
import { openSecureSession } from '../../src/p2p/secure-session.ts';
import { fromHex, toHex } from '../../src/util/bytes.ts';
import { socketPort } from '../../server/p2p/tcp-port.ts';

const randomBytes = (n: number): Uint8Array => webcrypto.getRandomValues(new Uint8Array(n));
const timer = { setTimeout: (run: () => void, ms: number) => { const h = setTimeout(run, ms); return () => clearTimeout(h); } };

export interface AttackOutcome {
  readonly target: number;
  /** The attacker's node id prefix as nodes log it (16 hex). */
  readonly nodeId: string;
  /** The reject the node sent before hanging up, if any. */
  readonly reject?: { readonly code: number; readonly banScore: number };
}

interface AttackerSession {
  readonly key: { readonly publicKey: Uint8Array };
  readonly session: Awaited<ReturnType<typeof openSecureSession>>;
  readonly received: Message[];
  readonly closed: Promise<void>;
  /** Whether the node answered the version with verack within 5 s. */
  readonly ready: boolean;
}

/** A fresh identity's connection to `p2pPort`, through the Noise handshake and version/verack. */
async function openAttackerSession(p2pPort: number): Promise<AttackerSession> {
  const key = x25519Dh.generateKeyPair(randomBytes);
  const socket = connect(p2pPort, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const session = await openSecureSession({ port: socketPort(socket), role: 'initiator', staticKey: key, network: 'regtest', protocolVersion: p2pProtocolVersion, randomBytes, timer });
  const received: Message[] = [];
  const closed = new Promise<void>((resolve) => session.onClose(() => resolve()));
  session.onMessage((bytes) => {
    const m = decodeMessage(bytes);
    received.push(m);
    if (m.type === 'ping') session.send(encodeMessage({ type: 'pong', nonce: m.nonce })); // a live peer, not an idle one
  });
  const genesis = genesisHash(regtestParams);
  session.send(encodeMessage({
    type: 'version', protocolVersion: p2pProtocolVersion, network: 'regtest', chainId: regtestParams.chainId, genesis, services: Services.full,
    timestampMs: Date.now(), nonce: BigInt(Date.now()) * 31n, userAgent: '/lab-attacker/', listenPort: 0, bestBlueScore: 0, bestBlueWork: 0n, selectedTip: genesis, relay: true,
  }));
  const start = Date.now();
  let isClosed = false;
  void closed.then(() => void (isClosed = true));
  while (!received.some((m) => m.type === 'verack') && !isClosed && Date.now() - start < 5_000) await new Promise((r) => setTimeout(r, 20));
  const ready = received.some((m) => m.type === 'verack') && !isClosed;
  if (ready) session.send(encodeMessage({ type: 'verack' })); // the node's handshake completes: a ready peer
  return { key, session, received, closed, ready };
}

/** Connects to `p2pPort`, completes the handshake, sends `message`, and waits for the node to hang up (or 5 s). */
async function sendOne(target: number, p2pPort: number, message: (header: Uint8Array) => Message, templateHeader: Uint8Array): Promise<AttackOutcome> {
  const { key, session, received, closed } = await openAttackerSession(p2pPort);
  session.send(encodeMessage(message(templateHeader)));
  await Promise.race([closed, new Promise((r) => setTimeout(r, 5_000))]);
  session.close();
  const reject = received.find((m): m is Extract<Message, { type: 'reject' }> => m.type === 'reject');
  return { target, nodeId: toHex(key.publicKey).slice(0, 16), ...(reject ? { reject: { code: reject.code, banScore: reject.banScore } } : {}) };
}

/** Relays an invalid block and a junk transaction to each target (a fresh identity each time). */
export async function attack(targets: readonly { index: number; p2pPort: number }[], templateHeaderHex: string): Promise<AttackOutcome[]> {
  const header = fromHex(templateHeaderHex.replace(/^0x/, ''));
  const badBlock = (h: Uint8Array): Message => ({ type: 'block', block: { header: { ...decodeHeader(h), bits: 0x1d00ffff }, transactions: [] } });
  const junkTx = (): Message => ({ type: 'tx', tx: randomBytes(120) });
  const outcomes: AttackOutcome[] = [];
  for (const t of targets) {
    outcomes.push(await sendOne(t.index, t.p2pPort, badBlock, header));
    outcomes.push(await sendOne(t.index, t.p2pPort, junkTx, header));
  }
  return outcomes;
}

export interface EclipseAttempt {
  /** Connections that completed the handshake (the victim gave them an inbound slot). */
  readonly held: number;
  /** Connections the victim refused or dropped before verack. */
  readonly refused: number;
  close(): void;
}

/**
 * An eclipse attempt: `count` connections from fresh identities to one victim, each completing the handshake and
 * then sitting there (as a Sybil holding inbound slots would), until `close`.
 */
export async function eclipse(p2pPort: number, count: number): Promise<EclipseAttempt> {
  const sessions = await Promise.all(Array.from({ length: count }, () => openAttackerSession(p2pPort).catch(() => undefined)));
  const held = sessions.filter((s) => s?.ready === true);
  return {
    held: held.length,
    refused: count - held.length,
    close: () => {
      for (const s of sessions) s?.session.close();
    },
  };
}
