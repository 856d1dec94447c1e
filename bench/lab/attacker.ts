/**
 * The lab's adversary peer (lab-peer.ts: the real Noise transport and p2p framing), which relays an invalid block
 * (bits its chain does not allow) and then a transaction that does not decode. Every honest node it reaches must ban
 * it; no honest node may ban another for what it relayed.
 */
import { webcrypto } from 'node:crypto';
import { decodeHeader } from '../../src/codec/header.ts';
import { encodeMessage, type Message } from '../../src/p2p/messages.ts';
import { fromHex, toHex } from '../../src/util/bytes.ts';
import { openLabPeer } from './lab-peer.ts';

const randomBytes = (n: number): Uint8Array => webcrypto.getRandomValues(new Uint8Array(n));

export interface AttackOutcome {
  readonly target: number;
  /** The attacker's node id prefix as nodes log it (16 hex). */
  readonly nodeId: string;
  /** The reject the node sent before hanging up, if any. */
  readonly reject?: { readonly code: number; readonly banScore: number };
}

/** Connects to `p2pPort`, completes the handshake, sends `message`, and waits for the node to hang up (or 5 s). */
async function sendOne(target: number, p2pPort: number, message: (header: Uint8Array) => Message, templateHeader: Uint8Array): Promise<AttackOutcome> {
  const { key, session, received, closed } = await openLabPeer(p2pPort, '/lab-attacker/');
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
  const sessions = await Promise.all(Array.from({ length: count }, () => openLabPeer(p2pPort, '/lab-attacker/').catch(() => undefined)));
  const held = sessions.filter((s) => s?.ready === true);
  return {
    held: held.length,
    refused: count - held.length,
    close: () => {
      for (const s of sessions) s?.session.close();
    },
  };
}
