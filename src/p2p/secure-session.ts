/**
 * A Noise_XX_25519_ChaChaPoly_SHA256 session over any DuplexPort (docs/p2p-transport.md). It runs the handshake as
 * initiator or responder with the prologue `"weft/p2p/1" ‖ u8 len ‖ network name ‖ u32 LE protocol version`, so a
 * peer on another network or protocol version fails authentication at message 2. Afterwards it carries
 * application messages (≤ p2pMessageBytesMax) packed into transport frames, and rekeys each direction every
 * `p2pRekeyIntervalMessages` frames — both ends count the same frames, so no signalling is needed.
 * Any framing violation, AEAD failure or timeout closes the port and reports a P2pProtocolError with its banScore.
 */
import { assert } from '../errors.ts';
import { concatBytes, equalBytes, toHex } from '../util/bytes.ts';
import {
  FrameMalformedError,
  HandshakeError,
  MessageTooLargeError,
  HandshakeTimeoutError,
  P2pProtocolError,
  RemoteKeyMismatchError,
  SessionClosedError,
} from './errors.ts';
import {
  checkFrameLength,
  createFrameDecoder,
  createMessageAssembler,
  encodeFrame,
  framePlaintextBytesMax,
  packMessages,
} from './framing.ts';
import {
  p2pHandshakeFrameBytesMax,
  p2pHandshakePayloadBytesMax,
  p2pHandshakeTimeoutMs,
  p2pMessageBytesMax,
  p2pNetworkNameBytesMax,
  p2pPendingMessagesMax,
  p2pRekeyIntervalMessages,
} from './limits.ts';
import { noiseMessageBytesMax, noiseTagBytes, type CipherState } from './noise/cipher-state.ts';
import { createHandshakeState, handshakePatterns, type HandshakeState } from './noise/handshake-state.ts';
import { weftNoiseSuite, type KeyPair, type NoiseSuite } from './noise/suites.ts';
import type { DuplexPort, Timer } from './transport.ts';

const p2pPrologueLabel = 'weft/p2p/1';
const u32Max = 0xffff_ffff;
const emptyBytes = new Uint8Array(0);

/** `"weft/p2p/1" ‖ u8 byte length ‖ UTF-8 network name ‖ u32 LE protocol version`. */
export function encodePrologue(network: string, protocolVersion: number): Uint8Array {
  const encoder = new TextEncoder();
  const name = encoder.encode(network);
  assert(name.length > 0 && name.length <= p2pNetworkNameBytesMax, `network name must be 1..${p2pNetworkNameBytesMax} bytes`);
  assert(Number.isInteger(protocolVersion) && protocolVersion >= 0 && protocolVersion <= u32Max, 'protocol version must be a u32');
  const version = new Uint8Array(4);
  new DataView(version.buffer).setUint32(0, protocolVersion, true);
  return concatBytes(encoder.encode(p2pPrologueLabel), Uint8Array.of(name.length), name, version);
}

export interface SecureSessionOptions {
  readonly port: DuplexPort;
  readonly role: 'initiator' | 'responder';
  /** The node's persistent X25519 static key: its public half is the NodeID. */
  readonly staticKey: KeyPair;
  /** e.g. 'mainnet', 'testnet', 'devnet'; bound into the prologue. */
  readonly network: string;
  /** Bound into the prologue: peers of different versions cannot complete the handshake. */
  readonly protocolVersion: number;
  /** CSPRNG for the ephemeral key (tests pass a seeded one). */
  readonly randomBytes: (n: number) => Uint8Array;
  readonly timer: Timer;
  /** Pinned remote NodeID: checked as soon as it arrives (message 2 for the initiator, before sending ours). */
  readonly expectedRemoteStatic?: Uint8Array;
  readonly handshakeTimeoutMs?: number;
  /** Both ends must use the same value; only tests change it. */
  readonly rekeyIntervalMessages?: number;
  readonly messageBytesMax?: number;
  /** Defaults to the @noble suite; a Node host may pass one with node:crypto's AEAD (same bytes, faster). */
  readonly suite?: NoiseSuite;
}

interface SecureSessionStats {
  readonly framesSent: number;
  readonly framesReceived: number;
  readonly messagesSent: number;
  readonly messagesReceived: number;
  readonly rekeysSent: number;
  readonly rekeysReceived: number;
}

type SessionCloseCallback = (error: P2pProtocolError | undefined) => void;

export interface SecureSession {
  readonly role: 'initiator' | 'responder';
  /** The peer's static public key: its NodeID, authenticated by the handshake. */
  readonly remoteStatic: Uint8Array;
  /** Noise `h` after the handshake: a session ID both ends share (out-of-band checks). */
  readonly handshakeHash: Uint8Array;
  /**
   * Queues one message; the messages of a turn are encrypted and sent together at its end (or at once when they
   * fill a frame), and before a close. The session holds the bytes until then: do not change them. Throws
   * SessionClosedError once closed, MessageTooLargeError over the bound.
   */
  send(message: Uint8Array): void;
  /** One handler; messages that arrived before it was registered are handed to it at once, in order. */
  onMessage(callback: (message: Uint8Array) => void): void;
  /** Called once: error undefined for a clean close (either side), else the reason with its banScore. */
  onClose(callback: SessionCloseCallback): void;
  close(): void;
  isClosed(): boolean;
  stats(): SecureSessionStats;
}

/** Runs the XX handshake over `port`; resolves once it completes, rejects (and closes the port) if it fails. */
export function openSecureSession(options: SecureSessionOptions): Promise<SecureSession> {
  return new Promise<SecureSession>((resolve, reject) => {
    const suite = options.suite ?? weftNoiseSuite;
    const handshakeTimeoutMs = options.handshakeTimeoutMs ?? p2pHandshakeTimeoutMs;
    const { port } = options;
    const handshake = createHandshakeState({
      pattern: handshakePatterns.XX!,
      suite,
      initiator: options.role === 'initiator',
      prologue: encodePrologue(options.network, options.protocolVersion),
      s: options.staticKey,
      randomBytes: options.randomBytes,
    });
    const decoder = port.framing === 'stream' ? createFrameDecoder({ frameBytesMax: p2pHandshakeFrameBytesMax }) : undefined;
    let transport: TransportState | undefined;
    let failed = false;

    const fail = (error: P2pProtocolError): void => {
      if (transport) return transport.closeWith(error);
      if (failed) return;
      failed = true;
      cancelTimeout();
      port.close();
      reject(error);
    };
    const cancelTimeout = options.timer.setTimeout(() => fail(new HandshakeTimeoutError(handshakeTimeoutMs)), handshakeTimeoutMs);
    port.onClose(() => {
      if (transport) transport.closeWith(undefined);
      else fail(new HandshakeError('the port closed during the handshake'));
    });

    const sendNoiseMessage = (message: Uint8Array): void => port.send(decoder ? encodeFrame(message) : message);

    const onHandshakeFrame = (frame: Uint8Array): void => {
      if (handshake.isMyTurn()) throw new HandshakeError('handshake message received out of turn');
      const payload = handshake.readMessage(frame);
      if (payload.length > p2pHandshakePayloadBytesMax) {
        throw new HandshakeError(`handshake payload of ${payload.length} bytes is over ${p2pHandshakePayloadBytesMax}`);
      }
      const remote = handshake.remoteStatic();
      const expected = options.expectedRemoteStatic;
      if (remote && expected && !equalBytes(remote, expected)) throw new RemoteKeyMismatchError(toHex(expected), toHex(remote));
      advance();
    };

    // Writes our handshake messages while it is our turn (payloads are empty in protocol version 1).
    const advance = (): void => {
      while (!handshake.isComplete() && handshake.isMyTurn()) sendNoiseMessage(handshake.writeMessage(emptyBytes));
      if (!handshake.isComplete()) return;
      cancelTimeout();
      decoder?.setFrameBytesMax(noiseMessageBytesMax);
      transport = createTransportState(options, handshake, port, decoder !== undefined);
      resolve(transport.session);
    };

    const onFrame = (frame: Uint8Array): void => {
      if (transport) transport.receiveFrame(frame);
      else onHandshakeFrame(frame);
    };

    port.onData((bytes) => {
      try {
        if (decoder === undefined) {
          checkFrameLength(bytes.length, transport ? noiseMessageBytesMax : p2pHandshakeFrameBytesMax);
          if (!failed && !transport?.session.isClosed()) onFrame(bytes);
          return;
        }
        decoder.push(bytes);
        while (!failed && !transport?.session.isClosed()) {
          const frame = decoder.next();
          if (frame === undefined) break;
          onFrame(frame);
        }
      } catch (error) {
        if (!(error instanceof P2pProtocolError)) throw error;
        fail(error);
      }
    });

    try {
      advance();
    } catch (error) {
      if (!(error instanceof P2pProtocolError)) throw error;
      fail(error);
    }
  });
}

interface TransportState {
  readonly session: SecureSession;
  receiveFrame(frame: Uint8Array): void;
  closeWith(error: P2pProtocolError | undefined): void;
}

function createTransportState(
  options: SecureSessionOptions,
  handshake: HandshakeState,
  port: DuplexPort,
  framed: boolean,
): TransportState {
  const rekeyInterval = options.rekeyIntervalMessages ?? p2pRekeyIntervalMessages;
  assert(Number.isInteger(rekeyInterval) && rekeyInterval > 0, 'rekey interval must be a positive integer');
  const messageBytesMax = options.messageBytesMax ?? p2pMessageBytesMax;
  const remoteStatic = handshake.remoteStatic();
  assert(remoteStatic !== undefined, 'XX always yields the remote static key');
  const handshakeHash = handshake.handshakeHash();
  const { send: sendCipher, receive: receiveCipher }: { send: CipherState; receive: CipherState } = handshake.split();
  const assembler = createMessageAssembler({ messageBytesMax });
  const stats = { framesSent: 0, framesReceived: 0, messagesSent: 0, messagesReceived: 0, rekeysSent: 0, rekeysReceived: 0 };
  const pending: Uint8Array[] = [];
  const closeCallbacks: SessionCloseCallback[] = [];
  let messageCallback: ((message: Uint8Array) => void) | undefined;
  let closed = false;
  let closeError: P2pProtocolError | undefined;

  function closeWith(error: P2pProtocolError | undefined): void {
    if (closed) return;
    try {
      flush();
    } catch {
      // What was queued is lost with the session; the close goes on.
    }
    closed = true;
    closeError = error;
    pending.length = 0;
    port.close();
    for (const callback of closeCallbacks) callback(error);
  }

  // The messages of one turn leave together at its end, packed into as few frames as fit. The receiver reads the
  // plaintexts as one stream (createMessageAssembler), so packing changes no byte of a message; each message after
  // the first in a frame saves its 18 bytes of frame length and tag, and an AEAD call (docs/p2p-transport.md).
  const queued: Uint8Array[] = [];
  let queuedBytes = 0;
  let flushScheduled = false;

  function flush(): void {
    if (closed || queued.length === 0) return;
    const chunks = packMessages(queued, { messageBytesMax });
    queued.length = 0;
    queuedBytes = 0;
    let frames: Uint8Array[];
    try {
      frames = chunks.map(encryptFrame);
    } catch (error) {
      if (error instanceof P2pProtocolError) closeWith(error);
      throw error;
    }
    if (framed) port.send(frames.length === 1 ? frames[0]! : concatBytes(...frames));
    else for (const frame of frames) port.send(frame);
  }

  function flushAtTurnEnd(): void {
    flushScheduled = false;
    try {
      flush();
    } catch (error) {
      // A protocol error (the send nonce ran out) has closed the session; anything else is a bug and propagates.
      if (!(error instanceof P2pProtocolError)) throw error;
    }
  }

  // Lockstep rekey: both ends count the same frames per direction, so the keys change at the same message.
  function encryptFrame(plaintext: Uint8Array): Uint8Array {
    const ciphertext = sendCipher.encryptWithAd(emptyBytes, plaintext);
    stats.framesSent += 1;
    if (stats.framesSent % rekeyInterval === 0) {
      sendCipher.rekey();
      stats.rekeysSent += 1;
    }
    return framed ? encodeFrame(ciphertext) : ciphertext;
  }

  function deliver(message: Uint8Array): void {
    stats.messagesReceived += 1;
    if (messageCallback === undefined) {
      if (pending.length >= p2pPendingMessagesMax) {
        throw new SessionClosedError(`over ${p2pPendingMessagesMax} messages arrived before a message handler was set`);
      }
      pending.push(message);
      return;
    }
    messageCallback(message);
  }

  const session: SecureSession = {
    role: options.role,
    remoteStatic,
    handshakeHash,
    send(message) {
      if (closed) throw new SessionClosedError('send on a closed session');
      if (message.length > messageBytesMax) throw new MessageTooLargeError(message.length, messageBytesMax);
      queued.push(message);
      queuedBytes += 4 + message.length;
      stats.messagesSent += 1;
      // A frame's worth leaves at once: the queue stays bounded, and a large message is not held for the turn.
      if (queuedBytes >= framePlaintextBytesMax) flush();
      else if (!flushScheduled) {
        flushScheduled = true;
        void Promise.resolve().then(flushAtTurnEnd);
      }
    },
    onMessage(callback) {
      messageCallback = callback;
      try {
        while (pending.length > 0 && !closed) callback(pending.shift()!);
      } catch (error) {
        if (!(error instanceof P2pProtocolError)) throw error;
        closeWith(error);
      }
    },
    onClose(callback) {
      if (closed) callback(closeError);
      else closeCallbacks.push(callback);
    },
    close: () => closeWith(undefined),
    isClosed: () => closed,
    stats: () => ({ ...stats }),
  };

  return {
    session,
    closeWith,
    // Errors propagate to the port's data handler, which closes the session with them (banScore included).
    receiveFrame(frame) {
      if (frame.length < noiseTagBytes) {
        throw new FrameMalformedError(`transport frame of ${frame.length} bytes is shorter than the ${noiseTagBytes}-byte tag`);
      }
      const plaintext = receiveCipher.decryptWithAd(emptyBytes, frame);
      stats.framesReceived += 1;
      if (stats.framesReceived % rekeyInterval === 0) {
        receiveCipher.rekey();
        stats.rekeysReceived += 1;
      }
      for (const message of assembler.push(plaintext)) {
        if (closed) return;
        deliver(message);
      }
    },
  };
}
