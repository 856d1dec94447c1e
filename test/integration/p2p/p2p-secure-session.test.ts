// The secure session: XX handshake over an in-memory pipe and over real TCP on 127.0.0.1, identities, 1,000
// messages each way across several rekeys, tampering, wrong network/version, pinning, timeouts and bounds.
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { equalBytes, toHex } from '../../../src/util/bytes.ts';
import {
  DecryptError,
  FrameTooLargeError,
  HandshakeError,
  HandshakeTimeoutError,
  MessageTooLargeError,
  P2pBanScore,
  P2pErrorCode,
  P2pProtocolError,
  RemoteKeyMismatchError,
  SessionClosedError,
} from '../../../src/p2p/errors.ts';
import { encodeFrame } from '../../../src/p2p/framing.ts';
import { p2pRekeyIntervalMessages } from '../../../src/p2p/limits.ts';
import { encodePrologue, openSecureSession, type SecureSession, type SecureSessionOptions } from '../../../src/p2p/secure-session.ts';
import { createMemoryPortPair, type DuplexPort, type MemoryPortOptions, type Timer } from '../../../src/p2p/transport.ts';
import { x25519Dh, type KeyPair } from '../../../src/p2p/noise/suites.ts';

function seededRandom(seed: number): (n: number) => Uint8Array {
  let state = seed >>> 0;
  return (n) =>
    Uint8Array.from({ length: n }, () => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      return state >>> 24;
    });
}

/** A timer that only fires when the test says so. */
function manualTimer(): Timer & { fire(): void; pending(): number } {
  const tasks = new Map<number, () => void>();
  let id = 0;
  return {
    setTimeout(callback) {
      const key = ++id;
      tasks.set(key, callback);
      return () => tasks.delete(key);
    },
    fire() {
      for (const [key, task] of [...tasks]) {
        tasks.delete(key);
        task();
      }
    },
    pending: () => tasks.size,
  };
}

const realTimer: Timer = {
  setTimeout(callback, delayMs) {
    const handle = setTimeout(callback, delayMs);
    return () => clearTimeout(handle);
  },
};

const aliceKey: KeyPair = x25519Dh.generateKeyPair(seededRandom(1));
const bobKey: KeyPair = x25519Dh.generateKeyPair(seededRandom(2));

function options(port: DuplexPort, role: 'initiator' | 'responder', extra: Partial<SecureSessionOptions> = {}): SecureSessionOptions {
  return {
    port,
    role,
    staticKey: role === 'initiator' ? aliceKey : bobKey,
    network: 'devnet',
    protocolVersion: 1,
    randomBytes: seededRandom(role === 'initiator' ? 101 : 202),
    timer: manualTimer(),
    ...extra,
  };
}

async function pair(
  portOptions: MemoryPortOptions = {},
  extraA: Partial<SecureSessionOptions> = {},
  extraB: Partial<SecureSessionOptions> = {},
): Promise<[SecureSession, SecureSession]> {
  const [pa, pb] = createMemoryPortPair(portOptions);
  return Promise.all([openSecureSession(options(pa, 'initiator', extraA)), openSecureSession(options(pb, 'responder', extraB))]);
}

function collect(session: SecureSession, count: number): Promise<Uint8Array[]> {
  return new Promise((resolve, reject) => {
    const got: Uint8Array[] = [];
    session.onClose((error) => reject(error ?? new Error(`closed after ${got.length} of ${count}`)));
    session.onMessage((m) => {
      got.push(m);
      if (got.length === count) resolve(got);
    });
  });
}

function closeReason(session: SecureSession): Promise<P2pProtocolError | undefined> {
  return new Promise((resolve) => session.onClose(resolve));
}

/** Message i: its index, then a length that varies, with every 250th spanning two frames or more. */
function testMessage(i: number, from: string): Uint8Array {
  const length = i % 250 === 0 ? 70_000 + i : 4 + ((i * 37) % 900);
  const m = new Uint8Array(length);
  new DataView(m.buffer).setUint32(0, i, true);
  for (let j = 4; j < length; j++) m[j] = (j * 7 + i + from.charCodeAt(0)) & 0xff;
  return m;
}

async function exchangeThousand(a: SecureSession, b: SecureSession): Promise<void> {
  const count = 1000;
  const atB = collect(b, count);
  const atA = collect(a, count);
  for (let i = 0; i < count; i++) {
    a.send(testMessage(i, 'a'));
    b.send(testMessage(i, 'b'));
    // Most messages leave in a turn of their own (a frame each, so the rekeys come round); every tenth shares one.
    if (i % 10 !== 0) await Promise.resolve();
  }
  const [fromA, fromB] = await Promise.all([atB, atA]);
  for (let i = 0; i < count; i++) {
    expect(equalBytes(fromA[i]!, testMessage(i, 'a')), `a→b message ${i}`).toBe(true);
    expect(equalBytes(fromB[i]!, testMessage(i, 'b')), `b→a message ${i}`).toBe(true);
  }
}

function expectRekeysCrossed(a: SecureSession, b: SecureSession, interval: number): void {
  const sa = a.stats();
  const sb = b.stats();
  expect(sa.framesSent).toBe(sb.framesReceived);
  expect(sa.rekeysSent).toBe(Math.floor(sa.framesSent / interval));
  expect(sa.rekeysSent).toBeGreaterThanOrEqual(10);
  expect(sb.rekeysReceived).toBe(sa.rekeysSent);
  expect(sb.rekeysSent).toBe(sa.rekeysReceived);
  expect(sa.messagesSent).toBe(1000);
  expect(sb.messagesReceived).toBe(1000);
}

describe('secure session over an in-memory pipe', () => {
  it('binds label, network and protocol version into the prologue', () => {
    expect(toHex(encodePrologue('devnet', 1))).toBe(
      toHex(new TextEncoder().encode('weft/p2p/1')) + '06' + toHex(new TextEncoder().encode('devnet')) + '01000000',
    );
    expect(() => encodePrologue('', 1)).toThrow();
    expect(() => encodePrologue('devnet', 2 ** 32)).toThrow();
  });

  it('completes the handshake; each side sees the other static key and the same session hash', async () => {
    const [a, b] = await pair();
    expect(toHex(a.remoteStatic)).toBe(toHex(bobKey.publicKey));
    expect(toHex(b.remoteStatic)).toBe(toHex(aliceKey.publicKey));
    expect(toHex(a.handshakeHash)).toBe(toHex(b.handshakeHash));
    expect(a.handshakeHash).toHaveLength(32);
  });

  it('sends 1,000 messages both ways across rekeys, with the stream cut into 1..700-byte pieces', async () => {
    const rechunk = seededRandom(5);
    const chunk = (bytes: Uint8Array) => {
      const out: Uint8Array[] = [];
      for (let at = 0; at < bytes.length; ) {
        const n = 1 + ((rechunk(2)[0]! << 8) | rechunk(1)[0]!) % 700;
        out.push(bytes.subarray(at, at + n));
        at += n;
      }
      return out;
    };
    const interval = 64;
    const [a, b] = await pair({ chunk }, { rekeyIntervalMessages: interval }, { rekeyIntervalMessages: interval });
    await exchangeThousand(a, b);
    expectRekeysCrossed(a, b, interval);
  });

  it('uses the 65,536-message rekey interval by default', async () => {
    expect(p2pRekeyIntervalMessages).toBe(65_536);
    const [a, b] = await pair();
    const got = collect(b, 3);
    for (let i = 0; i < 3; i++) a.send(testMessage(i + 1, 'a'));
    await got;
    expect(a.stats().rekeysSent).toBe(0);
  });

  it('packs the messages sent in one turn into one frame, and sends what is queued before a close', async () => {
    const seen: number[] = [];
    const [a, b] = await pair({ intercept: (bytes) => (seen.push(bytes.length), bytes) });
    const before = seen.length;
    const got = collect(b, 100);
    for (let i = 0; i < 100; i++) a.send(Uint8Array.of(i, i));
    expect(seen.length).toBe(before);
    const messages = await got;
    expect(messages).toEqual(Array.from({ length: 100 }, (_, i) => Uint8Array.of(i, i)));
    // One frame: 2-byte length, 100 × (4-byte length + 2 bytes), 16-byte tag.
    expect(seen.slice(before)).toEqual([2 + 600 + 16]);
    expect(a.stats()).toMatchObject({ framesSent: 1, messagesSent: 100 });

    const last = new Promise<Uint8Array>((resolve) => b.onMessage(resolve));
    const closed = closeReason(b);
    a.send(Uint8Array.of(7));
    a.close();
    expect(await last).toEqual(Uint8Array.of(7));
    expect(await closed).toBeUndefined();
  });

  it('works over message ports (WebSocket style): one unframed Noise message per frame', async () => {
    const seen: number[] = [];
    const [a, b] = await pair({ framing: 'message', intercept: (bytes) => (seen.push(bytes.length), bytes) });
    expect(seen.slice(0, 3)).toEqual([32, 96, 64]);
    const got = collect(b, 2);
    a.send(new Uint8Array(100_000).fill(3));
    a.send(Uint8Array.of(1));
    const [big, small] = await got;
    expect(big!.every((x) => x === 3) && big!.length === 100_000).toBe(true);
    expect(small).toEqual(Uint8Array.of(1));
    expect(seen.slice(3)).toEqual([65535, 100_000 + 4 - 65519 + 16, 4 + 1 + 16]);
  });

  it('carries a 4 MiB message', async () => {
    const [a, b] = await pair();
    const message = new Uint8Array(4 * 1024 * 1024);
    message[message.length - 1] = 0x5a;
    const got = collect(b, 1);
    a.send(message);
    expect((await got)[0]![message.length - 1]).toBe(0x5a);
    expect(() => a.send(new Uint8Array(4 * 1024 * 1024 + 1))).toThrow(MessageTooLargeError);
  });

  it('a tampered byte closes the receiver with DecryptError and the sender sees the port close', async () => {
    let tamper = false;
    const intercept = (bytes: Uint8Array, from: 'a' | 'b') => {
      if (tamper && from === 'a') bytes[bytes.length - 3]! ^= 0x40;
      return bytes;
    };
    const [a, b] = await pair({ intercept });
    const received: Uint8Array[] = [];
    b.onMessage((m) => received.push(m));
    tamper = true;
    const [reasonB, reasonA] = [closeReason(b), closeReason(a)];
    a.send(Uint8Array.of(1, 2, 3));
    const error = await reasonB;
    expect(error).toBeInstanceOf(DecryptError);
    expect(error!.code).toBe(P2pErrorCode.DecryptFailed);
    expect(error!.banScore).toBe(P2pBanScore.None);
    expect(await reasonA).toBeUndefined();
    expect(received).toEqual([]);
    expect(b.isClosed() && a.isClosed()).toBe(true);
    expect(() => a.send(Uint8Array.of(1))).toThrow(SessionClosedError);
  });

  it.each([
    ['network', { network: 'testnet' }],
    ['protocol version', { protocolVersion: 2 }],
  ])('a different %s fails the handshake on both sides', async (_what, extra) => {
    const [pa, pb] = createMemoryPortPair();
    const results = await Promise.allSettled([
      openSecureSession(options(pa, 'initiator')),
      openSecureSession(options(pb, 'responder', extra)),
    ]);
    for (const r of results) {
      expect(r.status).toBe('rejected');
      const reason = (r as PromiseRejectedResult).reason as P2pProtocolError;
      expect(reason).toBeInstanceOf(HandshakeError);
      expect(reason.code).toBe(P2pErrorCode.HandshakeFailed);
      expect(reason.banScore).toBe(P2pBanScore.None);
    }
  });

  it('a pinned remote key is enforced before the initiator reveals its own static key', async () => {
    const sent: number[] = [];
    const [pa, pb] = createMemoryPortPair({ intercept: (bytes, from) => (from === 'a' && sent.push(bytes.length), bytes) });
    const results = await Promise.allSettled([
      openSecureSession(options(pa, 'initiator', { expectedRemoteStatic: aliceKey.publicKey })),
      openSecureSession(options(pb, 'responder')),
    ]);
    const reason = (results[0] as PromiseRejectedResult).reason as P2pProtocolError;
    expect(reason).toBeInstanceOf(RemoteKeyMismatchError);
    expect(reason.code).toBe(P2pErrorCode.RemoteKeyMismatch);
    expect(results[1].status).toBe('rejected');
    expect(sent).toEqual([2 + 32]); // msg1 only: msg3 (carrying our static key) never left
    const [a] = await pair({}, { expectedRemoteStatic: bobKey.publicKey }, { expectedRemoteStatic: aliceKey.publicKey });
    expect(toHex(a.remoteStatic)).toBe(toHex(bobKey.publicKey));
  });

  it('times out through the injected timer and closes the port', async () => {
    const timer = manualTimer();
    const [pa, pb] = createMemoryPortPair();
    let closed = false;
    pb.onClose(() => (closed = true));
    const opening = openSecureSession(options(pa, 'initiator', { timer, handshakeTimeoutMs: 5000 }));
    expect(timer.pending()).toBe(1);
    timer.fire();
    const reason = await opening.catch((e: unknown) => e as P2pProtocolError);
    expect(reason).toBeInstanceOf(HandshakeTimeoutError);
    expect((reason as P2pProtocolError).code).toBe(P2pErrorCode.HandshakeTimeout);
    await Promise.resolve();
    expect(closed).toBe(true);
  });

  it('cancels the handshake timer once the handshake completes', async () => {
    const timer = manualTimer();
    await pair({}, { timer });
    expect(timer.pending()).toBe(0);
  });

  it('refuses an oversized handshake frame with banScore 100', async () => {
    const [pa, pb] = createMemoryPortPair();
    const opening = openSecureSession(options(pb, 'responder'));
    pa.send(Uint8Array.of(0x08, 0x00));
    const reason = (await opening.catch((e: unknown) => e)) as P2pProtocolError;
    expect(reason).toBeInstanceOf(FrameTooLargeError);
    expect(reason.banScore).toBe(P2pBanScore.Discourage);
  });

  it('closes with MessageTooLargeError (banScore 100) when a peer declares a message over the bound', async () => {
    const [a, b] = await pair({}, { messageBytesMax: 10_000 }, { messageBytesMax: 1000 });
    const reason = closeReason(b);
    a.send(new Uint8Array(1001));
    const error = await reason;
    expect(error).toBeInstanceOf(MessageTooLargeError);
    expect(error!.banScore).toBe(P2pBanScore.Discourage);
  });

  it('a P2pProtocolError thrown by the message handler closes the session with it', async () => {
    const [a, b] = await pair();
    const misbehaving = new MessageTooLargeError(5, 4);
    b.onMessage(() => {
      throw misbehaving;
    });
    const reason = closeReason(b);
    a.send(Uint8Array.of(1));
    expect(await reason).toBe(misbehaving);
  });

  it('hands messages that arrived before onMessage to it in order', async () => {
    const [a, b] = await pair();
    a.send(Uint8Array.of(1));
    a.send(Uint8Array.of(2));
    await new Promise((r) => setTimeout(r, 0));
    const got: number[] = [];
    b.onMessage((m) => got.push(m[0]!));
    expect(got).toEqual([1, 2]);
  });
});

describe('secure session over TCP on 127.0.0.1', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const c of cleanups.splice(0)) c();
  });

  function tcpPort(socket: Socket): DuplexPort {
    let dataCallback: ((bytes: Uint8Array) => void) | undefined;
    let closeCallback: (() => void) | undefined;
    const early: Uint8Array[] = [];
    socket.setNoDelay(true);
    socket.on('data', (d: Buffer) => {
      const bytes = new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
      if (dataCallback) dataCallback(bytes);
      else early.push(bytes);
    });
    socket.on('error', () => {});
    socket.on('close', () => closeCallback?.());
    return {
      framing: 'stream',
      send: (bytes) => void (socket.destroyed || socket.write(bytes)),
      onData(callback) {
        dataCallback = callback;
        for (const b of early.splice(0)) callback(b);
      },
      onClose: (callback) => void (closeCallback = callback),
      close: () => void socket.destroy(),
    };
  }

  async function listen(): Promise<{ server: Server; port: number; accepted: Promise<Socket> }> {
    const server = createServer();
    const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => server.close());
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no TCP address');
    return { server, port: address.port, accepted };
  }

  async function dial(port: number): Promise<Socket> {
    const socket = connect(port, '127.0.0.1');
    cleanups.push(() => socket.destroy());
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    return socket;
  }

  it('handshakes, matches identities and sends 1,000 messages both ways across rekeys', async () => {
    const { port, accepted } = await listen();
    const clientSocket = await dial(port);
    const serverSocket = await accepted;
    cleanups.push(() => serverSocket.destroy());
    const interval = 50;
    const [a, b] = await Promise.all([
      openSecureSession(options(tcpPort(clientSocket), 'initiator', { timer: realTimer, rekeyIntervalMessages: interval })),
      openSecureSession(options(tcpPort(serverSocket), 'responder', { timer: realTimer, rekeyIntervalMessages: interval })),
    ]);
    expect(toHex(a.remoteStatic)).toBe(toHex(bobKey.publicKey));
    expect(toHex(b.remoteStatic)).toBe(toHex(aliceKey.publicKey));
    await exchangeThousand(a, b);
    expectRekeysCrossed(a, b, interval);
    const closedA = closeReason(a);
    b.close();
    expect(await closedA).toBeUndefined();
  });

  it('garbage written after the handshake fails authentication and closes the connection', async () => {
    const { port, accepted } = await listen();
    const clientSocket = await dial(port);
    const serverSocket = await accepted;
    cleanups.push(() => serverSocket.destroy());
    const [a, b] = await Promise.all([
      openSecureSession(options(tcpPort(clientSocket), 'initiator', { timer: realTimer })),
      openSecureSession(options(tcpPort(serverSocket), 'responder', { timer: realTimer })),
    ]);
    const reasonB = closeReason(b);
    const reasonA = closeReason(a);
    clientSocket.write(encodeFrame(new Uint8Array(40).fill(0xab)));
    const error = await reasonB;
    expect(error).toBeInstanceOf(DecryptError);
    expect(await reasonA).toBeUndefined();
  });

  it('a wrong network fails the handshake over TCP', async () => {
    const { port, accepted } = await listen();
    const clientSocket = await dial(port);
    const serverSocket = await accepted;
    cleanups.push(() => serverSocket.destroy());
    const results = await Promise.allSettled([
      openSecureSession(options(tcpPort(clientSocket), 'initiator', { timer: realTimer, network: 'mainnet' })),
      openSecureSession(options(tcpPort(serverSocket), 'responder', { timer: realTimer })),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect((results[0] as PromiseRejectedResult).reason).toBeInstanceOf(HandshakeError);
  });
});
