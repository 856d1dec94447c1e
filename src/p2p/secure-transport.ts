/**
 * A secure session after its handshake (docs/p2p-transport.md "Framing" and "Session lifecycle"): application
 * messages packed into Noise transport frames, each direction rekeyed every `rekeyInterval` frames in lockstep, and
 * messages that arrive before a handler is set held in order. The state is one TransportState; each operation is a
 * function over it, and `createTransport` wires them into the SecureSession callers see.
 */
import { assert } from '../errors.ts';
import { concatBytes } from '../util/bytes.ts';
import { FrameMalformedError, MessageTooLargeError, P2pProtocolError, SessionClosedError } from './errors.ts';
import {
  createMessageAssembler,
  encodeFrame,
  framePlaintextBytesMax,
  messageLengthBytes,
  packMessages,
  type MessageAssembler,
} from './framing.ts';
import { p2pPendingMessagesMax } from './limits.ts';
import { noiseTagBytes, type CipherState } from './noise/cipher-state.ts';
import type { HandshakeState } from './noise/handshake-state.ts';
import type { DuplexPort } from './transport.ts';

const emptyBytes = new Uint8Array(0);

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

export interface TransportSettings {
  readonly role: 'initiator' | 'responder';
  /** Frames a direction carries between rekeys; both ends use the same. */
  readonly rekeyInterval: number;
  readonly messageBytesMax: number;
  /** Stream ports (TCP) carry `u16 BE length ‖ Noise message`; message ports one Noise message each. */
  readonly framed: boolean;
}

/** What the handshake side holds of a transport: the session, where frames go in, and how it closes. */
export interface Transport {
  readonly session: SecureSession;
  /** Throws a P2pProtocolError for a bad frame; the port's data handler closes the session with it. */
  receiveFrame(frame: Uint8Array): void;
  closeWith(error: P2pProtocolError | undefined): void;
}

interface TransportState {
  readonly settings: TransportSettings;
  readonly port: DuplexPort;
  readonly sendCipher: CipherState;
  readonly receiveCipher: CipherState;
  readonly assembler: MessageAssembler;
  readonly stats: { -readonly [K in keyof SecureSessionStats]: SecureSessionStats[K] };
  /** Messages that arrived before a handler was set. */
  readonly pending: Uint8Array[];
  readonly closeCallbacks: SessionCloseCallback[];
  /**
   * Messages sent this turn, not yet encrypted. The receiver reads the plaintexts as one stream
   * (createMessageAssembler), so packing them changes no byte of a message; each message after the first in a
   * frame saves its 18 bytes of frame length and tag, and an AEAD call.
   */
  readonly queued: Uint8Array[];
  queuedBytes: number;
  flushScheduled: boolean;
  messageCallback: ((message: Uint8Array) => void) | undefined;
  closed: boolean;
  closeError: P2pProtocolError | undefined;
}

export function createTransport(handshake: HandshakeState, port: DuplexPort, settings: TransportSettings): Transport {
  assert(Number.isInteger(settings.rekeyInterval) && settings.rekeyInterval > 0, 'rekey interval must be a positive integer');
  const remoteStatic = handshake.remoteStatic();
  assert(remoteStatic !== undefined, 'XX always yields the remote static key');
  const { send: sendCipher, receive: receiveCipher } = handshake.split();
  const state: TransportState = {
    settings,
    port,
    sendCipher,
    receiveCipher,
    assembler: createMessageAssembler({ messageBytesMax: settings.messageBytesMax }),
    stats: { framesSent: 0, framesReceived: 0, messagesSent: 0, messagesReceived: 0, rekeysSent: 0, rekeysReceived: 0 },
    pending: [],
    closeCallbacks: [],
    queued: [],
    queuedBytes: 0,
    flushScheduled: false,
    messageCallback: undefined,
    closed: false,
    closeError: undefined,
  };
  const session: SecureSession = {
    role: settings.role,
    remoteStatic,
    handshakeHash: handshake.handshakeHash(),
    send: (message) => sendMessage(state, message),
    onMessage: (callback) => setMessageHandler(state, callback),
    onClose(callback) {
      if (state.closed) callback(state.closeError);
      else state.closeCallbacks.push(callback);
    },
    close: () => closeWith(state, undefined),
    isClosed: () => state.closed,
    stats: () => ({ ...state.stats }),
  };
  return { session, receiveFrame: (frame) => receiveFrame(state, frame), closeWith: (error) => closeWith(state, error) };
}

function sendMessage(state: TransportState, message: Uint8Array): void {
  const { messageBytesMax } = state.settings;
  if (state.closed) throw new SessionClosedError('send on a closed session');
  if (message.length > messageBytesMax) throw new MessageTooLargeError(message.length, messageBytesMax);
  state.queued.push(message);
  state.queuedBytes += messageLengthBytes + message.length;
  state.stats.messagesSent += 1;
  // A frame's worth leaves at once: the queue stays bounded, and a large message is not held for the turn.
  if (state.queuedBytes >= framePlaintextBytesMax) flush(state);
  else if (!state.flushScheduled) {
    state.flushScheduled = true;
    void Promise.resolve().then(() => flushAtTurnEnd(state));
  }
}

/** Encrypts what is queued and writes it: one port write on a stream port, one message a frame otherwise. */
function flush(state: TransportState): void {
  const { port, queued, settings } = state;
  if (state.closed || queued.length === 0) return;
  const chunks = packMessages(queued, { messageBytesMax: settings.messageBytesMax });
  queued.length = 0;
  state.queuedBytes = 0;
  let frames: Uint8Array[];
  try {
    frames = chunks.map((chunk) => encryptFrame(state, chunk));
  } catch (error) {
    if (error instanceof P2pProtocolError) closeWith(state, error);
    throw error;
  }
  if (settings.framed) port.send(frames.length === 1 ? frames[0]! : concatBytes(...frames));
  else for (const frame of frames) port.send(frame);
}

function flushAtTurnEnd(state: TransportState): void {
  state.flushScheduled = false;
  try {
    flush(state);
  } catch (error) {
    // A protocol error (the send nonce ran out) has closed the session; anything else is a bug and propagates.
    if (!(error instanceof P2pProtocolError)) throw error;
  }
}

// Lockstep rekey: both ends count the same frames per direction, so the keys change at the same message.
function encryptFrame(state: TransportState, plaintext: Uint8Array): Uint8Array {
  const { sendCipher, stats, settings } = state;
  const ciphertext = sendCipher.encryptWithAd(emptyBytes, plaintext);
  stats.framesSent += 1;
  if (stats.framesSent % settings.rekeyInterval === 0) {
    sendCipher.rekey();
    stats.rekeysSent += 1;
  }
  return settings.framed ? encodeFrame(ciphertext) : ciphertext;
}

function receiveFrame(state: TransportState, frame: Uint8Array): void {
  const { receiveCipher, stats } = state;
  if (frame.length < noiseTagBytes) {
    throw new FrameMalformedError(`transport frame of ${frame.length} bytes is shorter than the ${noiseTagBytes}-byte tag`);
  }
  const plaintext = receiveCipher.decryptWithAd(emptyBytes, frame);
  stats.framesReceived += 1;
  if (stats.framesReceived % state.settings.rekeyInterval === 0) {
    receiveCipher.rekey();
    stats.rekeysReceived += 1;
  }
  for (const message of state.assembler.push(plaintext)) {
    if (state.closed) return;
    deliver(state, message);
  }
}

function deliver(state: TransportState, message: Uint8Array): void {
  state.stats.messagesReceived += 1;
  if (state.messageCallback !== undefined) return state.messageCallback(message);
  if (state.pending.length >= p2pPendingMessagesMax) {
    throw new SessionClosedError(`over ${p2pPendingMessagesMax} messages arrived before a message handler was set`);
  }
  state.pending.push(message);
}

function setMessageHandler(state: TransportState, callback: (message: Uint8Array) => void): void {
  state.messageCallback = callback;
  try {
    while (state.pending.length > 0 && !state.closed) callback(state.pending.shift()!);
  } catch (error) {
    if (!(error instanceof P2pProtocolError)) throw error;
    closeWith(state, error);
  }
}

/** Sends what is queued, then closes the port and tells every close callback, once. */
function closeWith(state: TransportState, error: P2pProtocolError | undefined): void {
  if (state.closed) return;
  try {
    flush(state);
  } catch {
    // What was queued is lost with the session; the close goes on.
  }
  state.closed = true;
  state.closeError = error;
  state.pending.length = 0;
  state.port.close();
  for (const callback of state.closeCallbacks) callback(error);
}
