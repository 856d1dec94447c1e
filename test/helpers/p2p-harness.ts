// A scripted peer that speaks the Weft p2p protocol over any DuplexPort (memory pair, TCP socket): it runs the
// Noise handshake as initiator, exchanges version/verack, records every message it receives and lets a test send
// anything — honest messages, or bad PoW, malformed bytes and floods for the misbehaviour tests.
import { webcrypto } from 'node:crypto';
import type { Chain } from '../../src/chain/chain.ts';
import { genesisHash, type NetworkParams } from '../../src/consensus/params.ts';
import { p2pProtocolVersion } from '../../src/p2p/limits.ts';
import { decodeMessage, encodeMessage, type Message } from '../../src/p2p/messages.ts';
import { Services, type VersionMessage } from '../../src/p2p/messages/version.ts';
import { x25519Dh, type KeyPair } from '../../src/p2p/noise/suites.ts';
import { openSecureSession, type SecureSession } from '../../src/p2p/secure-session.ts';
import type { DuplexPort, Timer } from '../../src/p2p/transport.ts';
import type { P2pProtocolError } from '../../src/p2p/errors.ts';

export const realTimer: Timer = {
  setTimeout(callback, delayMs) {
    const handle = setTimeout(callback, delayMs);
    handle.unref?.();
    return () => clearTimeout(handle);
  },
};

export const randomBytes = (n: number): Uint8Array => webcrypto.getRandomValues(new Uint8Array(n));
export const newStaticKey = (): KeyPair => x25519Dh.generateKeyPair(randomBytes);

export function versionFor(params: NetworkParams, overrides: Partial<VersionMessage> = {}): VersionMessage {
  const genesis = genesisHash(params);
  return {
    type: 'version', protocolVersion: p2pProtocolVersion, network: params.name, chainId: params.chainId, genesis, services: Services.full,
    timestampMs: Date.now(), nonce: BigInt(Date.now()) * 7919n, userAgent: '/harness:1/', listenPort: 0, bestBlueScore: 0,
    bestBlueWork: 0n, selectedTip: genesis, relay: true, ...overrides,
  };
}

export function versionOfChain(chain: Chain, overrides: Partial<VersionMessage> = {}): VersionMessage {
  const tip = chain.selectedTip();
  return versionFor(chain.params, { bestBlueScore: tip.header.blueScore, bestBlueWork: tip.header.blueWork, selectedTip: tip.hash, ...overrides });
}

export interface Harness {
  readonly session: SecureSession;
  readonly received: Message[];
  send(message: Message): void;
  sendRaw(bytes: Uint8Array): void;
  /** Resolves with the first received message (from the start) of `type` matching `predicate`. */
  next<T extends Message['type']>(type: T, predicate?: (m: Extract<Message, { type: T }>) => boolean, timeoutMs?: number): Promise<Extract<Message, { type: T }>>;
  /** Resolves with the close reason once the node hangs up. */
  readonly closed: Promise<P2pProtocolError | undefined>;
}

export async function connectHarness(port: DuplexPort, options: { network: string; version: VersionMessage; staticKey?: KeyPair; handshake?: boolean; messageBytesMax?: number }): Promise<Harness> {
  const session = await openSecureSession({
    port, role: 'initiator', staticKey: options.staticKey ?? newStaticKey(), network: options.network, protocolVersion: p2pProtocolVersion,
    randomBytes, timer: realTimer, ...(options.messageBytesMax ? { messageBytesMax: options.messageBytesMax } : {}),
  });
  const received: Message[] = [];
  const wakers = new Set<() => void>();
  let isClosed = false;
  const closed = new Promise<P2pProtocolError | undefined>((resolve) =>
    session.onClose((error) => {
      isClosed = true;
      for (const wake of wakers) wake();
      resolve(error);
    }),
  );
  session.onMessage((bytes) => {
    received.push(decodeMessage(bytes));
    for (const wake of wakers) wake();
  });
  const harness: Harness = {
    session,
    received,
    closed,
    send: (message) => session.send(encodeMessage(message)),
    sendRaw: (bytes) => session.send(bytes),
    next(type, predicate, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const hit = received.find((m) => m.type === type && (!predicate || predicate(m as never)));
          if (hit) {
            cleanup();
            resolve(hit as never);
          } else if (isClosed) {
            cleanup();
            reject(new Error(`session closed before a ${type} message arrived`));
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no ${type} message within ${timeoutMs} ms; got ${received.map((m) => m.type).join(',')}`));
        }, timeoutMs);
        const cleanup = (): void => {
          clearTimeout(timer);
          wakers.delete(check);
        };
        wakers.add(check);
        check();
      });
    },
  };
  harness.send(options.version);
  if (options.handshake !== false) {
    await harness.next('version');
    harness.send({ type: 'verack' });
    await harness.next('verack');
  }
  return harness;
}
