/**
 * Two framing layers (docs/p2p-transport.md):
 *  1. Noise frames on byte streams (TCP): `u16 BE length ‖ Noise message` — the framing Noise §13 suggests and
 *     libp2p uses. `createFrameDecoder` takes arbitrary chunk boundaries and refuses zero-length frames and frames
 *     over the current phase's bound. Message transports (WebSocket) carry one Noise message per message, unframed.
 *  2. Application messages inside the decrypted stream: `u32 LE length ‖ message`, split into Noise transport
 *     plaintexts of at most 65519 bytes; `createMessageAssembler` checks the length against `p2pMessageBytesMax`
 *     before buffering anything.
 */
import { assert } from '../errors.ts';
import { FrameMalformedError, FrameTooLargeError, MessageTooLargeError } from './errors.ts';
import { p2pMessageBytesMax } from './limits.ts';
import { noiseMessageBytesMax, noiseTagBytes } from './noise/cipher-state.ts';

const frameLengthBytes = 2;
/** The `u32 LE length` before each application message in the decrypted stream. */
export const messageLengthBytes = 4;
/** Largest plaintext of one Noise transport message: 65535 minus the 16-byte tag. */
export const framePlaintextBytesMax = noiseMessageBytesMax - noiseTagBytes;

/** `u16 BE length ‖ noiseMessage`. */
export function encodeFrame(noiseMessage: Uint8Array): Uint8Array {
  assert(noiseMessage.length <= noiseMessageBytesMax, `Noise message of ${noiseMessage.length} bytes is over 65535`);
  const out = new Uint8Array(frameLengthBytes + noiseMessage.length);
  out[0] = noiseMessage.length >>> 8;
  out[1] = noiseMessage.length & 0xff;
  out.set(noiseMessage, frameLengthBytes);
  return out;
}

export interface FrameDecoder {
  /** Appends bytes as they came off the wire; any chunk boundaries. */
  push(chunk: Uint8Array): void;
  /** The next complete frame's Noise message (a copy), or undefined until more bytes arrive. */
  next(): Uint8Array | undefined;
  /** Changes the bound for the frames still to be read (the session lifts it once the handshake completes). */
  setFrameBytesMax(frameBytesMax: number): void;
  bufferedBytes(): number;
}

/** Refuses a frame over `frameBytesMax` or of zero length as soon as its 2-byte header is complete. */
export function checkFrameLength(length: number, frameBytesMax: number): void {
  if (length === 0) throw new FrameMalformedError('zero-length frame');
  if (length > frameBytesMax) throw new FrameTooLargeError(length, frameBytesMax);
}

export function createFrameDecoder(options: { frameBytesMax?: number } = {}): FrameDecoder {
  let frameBytesMax = options.frameBytesMax ?? noiseMessageBytesMax;
  // Unread bytes are buffer[start, end); at most one partial frame plus the last chunk stays buffered.
  let buffer = new Uint8Array(0);
  let start = 0;
  let end = 0;

  function setFrameBytesMax(value: number): void {
    assert(Number.isInteger(value) && value > 0 && value <= noiseMessageBytesMax, 'frame bound must be 1..65535');
    frameBytesMax = value;
  }
  setFrameBytesMax(frameBytesMax);

  return {
    push(chunk) {
      if (chunk.length === 0) return;
      if (end + chunk.length > buffer.length) {
        // Move the unread tail to the front, into a larger buffer only when it would not fit otherwise.
        const unread = end - start;
        if (unread + chunk.length > buffer.length) {
          const grown = new Uint8Array(Math.max(unread + chunk.length, 2 * buffer.length));
          grown.set(buffer.subarray(start, end));
          buffer = grown;
        } else {
          buffer.copyWithin(0, start, end);
        }
        start = 0;
        end = unread;
      }
      buffer.set(chunk, end);
      end += chunk.length;
    },
    next() {
      if (end - start < frameLengthBytes) return undefined;
      const length = (buffer[start]! << 8) | buffer[start + 1]!;
      checkFrameLength(length, frameBytesMax);
      if (end - start < frameLengthBytes + length) return undefined;
      const frame = buffer.slice(start + frameLengthBytes, start + frameLengthBytes + length);
      start += frameLengthBytes + length;
      if (start === end) start = end = 0;
      return frame;
    },
    setFrameBytesMax,
    bufferedBytes: () => end - start,
  };
}

/**
 * Packs application messages into Noise transport plaintexts of the stream `u32 LE length ‖ message ‖ …`, each at
 * most `chunkBytesMax` bytes: messages share a plaintext, and one larger than a plaintext spans several. Throws
 * MessageTooLargeError for a message above `messageBytesMax`.
 */
export function packMessages(
  messages: readonly Uint8Array[],
  options: { messageBytesMax?: number; chunkBytesMax?: number } = {},
): Uint8Array[] {
  const messageBytesMax = options.messageBytesMax ?? p2pMessageBytesMax;
  const chunkBytesMax = options.chunkBytesMax ?? framePlaintextBytesMax;
  assert(chunkBytesMax > messageLengthBytes && chunkBytesMax <= framePlaintextBytesMax, 'chunk bound out of range');
  let total = 0;
  for (const message of messages) {
    if (message.length > messageBytesMax) throw new MessageTooLargeError(message.length, messageBytesMax);
    total += messageLengthBytes + message.length;
  }
  const stream = new Uint8Array(total);
  const view = new DataView(stream.buffer);
  let offset = 0;
  for (const message of messages) {
    view.setUint32(offset, message.length, true);
    stream.set(message, offset + messageLengthBytes);
    offset += messageLengthBytes + message.length;
  }
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < total; at += chunkBytesMax) chunks.push(stream.subarray(at, Math.min(total, at + chunkBytesMax)));
  return chunks;
}

export interface MessageAssembler {
  /** Appends one decrypted plaintext; returns the messages it completed (often none, sometimes several). */
  push(plaintext: Uint8Array): Uint8Array[];
  /** Bytes held for the message in progress (header or body). */
  bufferedBytes(): number;
}

export function createMessageAssembler(options: { messageBytesMax?: number } = {}): MessageAssembler {
  const messageBytesMax = options.messageBytesMax ?? p2pMessageBytesMax;
  const header = new Uint8Array(messageLengthBytes);
  let headerFill = 0;
  let body: Uint8Array | undefined;
  let bodyFill = 0;

  return {
    push(plaintext) {
      const done: Uint8Array[] = [];
      let offset = 0;
      while (offset < plaintext.length) {
        if (body === undefined) {
          const take = Math.min(messageLengthBytes - headerFill, plaintext.length - offset);
          header.set(plaintext.subarray(offset, offset + take), headerFill);
          headerFill += take;
          offset += take;
          if (headerFill < messageLengthBytes) break;
          const length = new DataView(header.buffer).getUint32(0, true);
          // Checked before allocating: a peer cannot make us reserve more than the bound.
          if (length > messageBytesMax) throw new MessageTooLargeError(length, messageBytesMax);
          headerFill = 0;
          body = new Uint8Array(length);
          bodyFill = 0;
        }
        // A zero-length message completes here with its header alone (take = 0).
        const take = Math.min(body.length - bodyFill, plaintext.length - offset);
        body.set(plaintext.subarray(offset, offset + take), bodyFill);
        bodyFill += take;
        offset += take;
        if (bodyFill === body.length) {
          done.push(body);
          body = undefined;
        }
      }
      return done;
    },
    bufferedBytes: () => (body === undefined ? headerFill : messageLengthBytes + bodyFill),
  };
}
