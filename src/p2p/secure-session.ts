/**
 * A Noise_XX_25519_ChaChaPoly_SHA256 session over any DuplexPort (docs/p2p-transport.md). It runs the handshake as
 * initiator or responder with the prologue `"weft/p2p/1" ‖ u8 len ‖ network name ‖ u32 LE protocol version`, so a
 * peer on another network or protocol version fails authentication at message 2. Afterwards it carries
 * application messages (≤ p2pMessageBytesMax) packed into transport frames, and rekeys each direction every
 * `p2pRekeyIntervalMessages` frames — both ends count the same frames, so no signalling is needed (the transport
 * phase is secure-transport.ts; the handshake's state is one HandshakeRun, each step a function over it).
 * Any framing violation, AEAD failure or timeout closes the port and reports a P2pProtocolError with its banScore.
 */
import { assert } from '../errors.ts';
import { concatBytes, equalBytes, toHex } from '../util/bytes.ts';
import { HandshakeError, HandshakeTimeoutError, P2pProtocolError, RemoteKeyMismatchError } from './errors.ts';
import { checkFrameLength, createFrameDecoder, encodeFrame, type FrameDecoder } from './framing.ts';
import {
  p2pHandshakeFrameBytesMax,
  p2pHandshakePayloadBytesMax,
  p2pHandshakeTimeoutMs,
  p2pMessageBytesMax,
  p2pNetworkNameBytesMax,
  p2pRekeyIntervalMessages,
} from './limits.ts';
import { noiseMessageBytesMax } from './noise/cipher-state.ts';
import { createHandshakeState, handshakePatterns, type HandshakeState } from './noise/handshake-state.ts';
import { weftNoiseSuite, type KeyPair, type NoiseSuite } from './noise/suites.ts';
import { createTransport, type SecureSession, type Transport } from './secure-transport.ts';
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

export type { SecureSession } from './secure-transport.ts';

/** A handshake under way: its Noise state, the frame decoder of a stream port, and the transport once complete. */
interface HandshakeRun {
  readonly options: SecureSessionOptions;
  readonly handshake: HandshakeState;
  /** Stream ports only: `u16 BE length ‖ Noise message` frames, bounded tighter until the handshake completes. */
  readonly decoder: FrameDecoder | undefined;
  readonly resolve: (session: SecureSession) => void;
  readonly reject: (error: P2pProtocolError) => void;
  cancelTimeout: () => void;
  transport: Transport | undefined;
  failed: boolean;
}

/** Runs the XX handshake over `port`; resolves once it completes, rejects (and closes the port) if it fails. */
export function openSecureSession(options: SecureSessionOptions): Promise<SecureSession> {
  return new Promise<SecureSession>((resolve, reject) => {
    const { port } = options;
    const run: HandshakeRun = {
      options,
      handshake: createHandshakeState({
        pattern: handshakePatterns.XX!,
        suite: options.suite ?? weftNoiseSuite,
        initiator: options.role === 'initiator',
        prologue: encodePrologue(options.network, options.protocolVersion),
        s: options.staticKey,
        randomBytes: options.randomBytes,
      }),
      decoder: port.framing === 'stream' ? createFrameDecoder({ frameBytesMax: p2pHandshakeFrameBytesMax }) : undefined,
      resolve,
      reject,
      cancelTimeout: () => undefined,
      transport: undefined,
      failed: false,
    };
    const timeoutMs = options.handshakeTimeoutMs ?? p2pHandshakeTimeoutMs;
    run.cancelTimeout = options.timer.setTimeout(() => fail(run, new HandshakeTimeoutError(timeoutMs)), timeoutMs);
    port.onClose(() => {
      if (run.transport) run.transport.closeWith(undefined);
      else fail(run, new HandshakeError('the port closed during the handshake'));
    });
    port.onData((bytes) => guarded(run, () => onPortData(run, bytes)));
    guarded(run, () => advance(run));
  });
}

/** Runs `step`; a P2pProtocolError it throws fails the handshake or closes the session, anything else propagates. */
function guarded(run: HandshakeRun, step: () => void): void {
  try {
    step();
  } catch (error) {
    if (!(error instanceof P2pProtocolError)) throw error;
    fail(run, error);
  }
}

function fail(run: HandshakeRun, error: P2pProtocolError): void {
  if (run.transport) return run.transport.closeWith(error);
  if (run.failed) return;
  run.failed = true;
  run.cancelTimeout();
  run.options.port.close();
  run.reject(error);
}

function onPortData(run: HandshakeRun, bytes: Uint8Array): void {
  const { decoder } = run;
  if (decoder === undefined) {
    checkFrameLength(bytes.length, run.transport ? noiseMessageBytesMax : p2pHandshakeFrameBytesMax);
    if (!run.failed && !run.transport?.session.isClosed()) onFrame(run, bytes);
    return;
  }
  decoder.push(bytes);
  while (!run.failed && !run.transport?.session.isClosed()) {
    const frame = decoder.next();
    if (frame === undefined) break;
    onFrame(run, frame);
  }
}

function onFrame(run: HandshakeRun, frame: Uint8Array): void {
  if (run.transport) run.transport.receiveFrame(frame);
  else onHandshakeFrame(run, frame);
}

function onHandshakeFrame(run: HandshakeRun, frame: Uint8Array): void {
  const { handshake } = run;
  if (handshake.isMyTurn()) throw new HandshakeError('handshake message received out of turn');
  const payload = handshake.readMessage(frame);
  if (payload.length > p2pHandshakePayloadBytesMax) {
    throw new HandshakeError(`handshake payload of ${payload.length} bytes is over ${p2pHandshakePayloadBytesMax}`);
  }
  const remote = handshake.remoteStatic();
  const expected = run.options.expectedRemoteStatic;
  if (remote && expected && !equalBytes(remote, expected)) throw new RemoteKeyMismatchError(toHex(expected), toHex(remote));
  advance(run);
}

/** Writes our handshake messages while it is our turn (payloads are empty in protocol version 1); once complete, the transport. */
function advance(run: HandshakeRun): void {
  const { handshake, decoder, options } = run;
  while (!handshake.isComplete() && handshake.isMyTurn()) {
    const message = handshake.writeMessage(emptyBytes);
    options.port.send(decoder ? encodeFrame(message) : message);
  }
  if (!handshake.isComplete()) return;
  run.cancelTimeout();
  decoder?.setFrameBytesMax(noiseMessageBytesMax);
  run.transport = createTransport(handshake, options.port, {
    role: options.role,
    rekeyInterval: options.rekeyIntervalMessages ?? p2pRekeyIntervalMessages,
    messageBytesMax: options.messageBytesMax ?? p2pMessageBytesMax,
    framed: decoder !== undefined,
  });
  run.resolve(run.transport.session);
}
