// Framing: u16 BE Noise frames over byte streams and u32 LE application messages split across Noise transport
// plaintexts. Any message survives any chunking; oversized and malformed input is refused with coded errors
// (banScore 100) before it is buffered; garbage after a handshake fails authentication.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { concatBytes } from '../../../src/util/bytes.ts';
import {
  createFrameDecoder,
  createMessageAssembler,
  encodeFrame,
  framePlaintextBytesMax,
  packMessages,
} from '../../../src/p2p/framing.ts';
import {
  DecryptError,
  FrameMalformedError,
  FrameTooLargeError,
  MessageTooLargeError,
  P2pBanScore,
  P2pErrorCode,
  P2pProtocolError,
} from '../../../src/p2p/errors.ts';
import { p2pMessageBytesMax } from '../../../src/p2p/limits.ts';
import { noiseMessageBytesMax, type CipherState } from '../../../src/p2p/noise/cipher-state.ts';
import { createHandshakeState, handshakePatterns } from '../../../src/p2p/noise/handshake-state.ts';
import { weftNoiseSuite, x25519Dh } from '../../../src/p2p/noise/suites.ts';

/** Cuts `bytes` at the given offsets (taken modulo the length), in order. */
function cut(bytes: Uint8Array, offsets: number[]): Uint8Array[] {
  const points = [...new Set(offsets.map((o) => (bytes.length === 0 ? 0 : o % (bytes.length + 1))))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let last = 0;
  for (const p of [...points, bytes.length]) {
    pieces.push(bytes.subarray(last, p));
    last = p;
  }
  return pieces;
}

function seededRandom(seed: number): (n: number) => Uint8Array {
  let state = seed >>> 0;
  return (n) =>
    Uint8Array.from({ length: n }, () => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      return state >>> 24;
    });
}

function handshakePair(seed: number): { a: { send: CipherState; receive: CipherState }; b: { send: CipherState; receive: CipherState } } {
  const randomBytes = seededRandom(seed);
  const common = { pattern: handshakePatterns.XX!, suite: weftNoiseSuite, prologue: new Uint8Array(0), randomBytes };
  const a = createHandshakeState({ ...common, initiator: true, s: x25519Dh.generateKeyPair(randomBytes) });
  const b = createHandshakeState({ ...common, initiator: false, s: x25519Dh.generateKeyPair(randomBytes) });
  const empty = new Uint8Array(0);
  b.readMessage(a.writeMessage(empty));
  a.readMessage(b.writeMessage(empty));
  b.readMessage(a.writeMessage(empty));
  return { a: a.split(), b: b.split() };
}

function expectCoded(fn: () => unknown, type: new (...args: never[]) => P2pProtocolError, code: number, banScore: number): void {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(type);
    expect((error as P2pProtocolError).code).toBe(code);
    expect((error as P2pProtocolError).banScore).toBe(banScore);
    return;
  }
  expect.unreachable('expected a coded error');
}

describe('Noise frames (u16 BE length prefix)', () => {
  it('encodes the length big-endian', () => {
    expect([...encodeFrame(new Uint8Array(0x0102)).subarray(0, 2)]).toEqual([1, 2]);
    expect(encodeFrame(new Uint8Array(noiseMessageBytesMax)).length).toBe(noiseMessageBytesMax + 2);
  });

  it('any sequence of frames survives any chunking', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ minLength: 1, maxLength: 600 }), { maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        (messages, offsets) => {
          const wire = concatBytes(...messages.map(encodeFrame));
          const decoder = createFrameDecoder();
          const out: Uint8Array[] = [];
          for (const piece of cut(wire, offsets)) {
            decoder.push(piece);
            for (let f = decoder.next(); f !== undefined; f = decoder.next()) out.push(f);
          }
          expect(out).toEqual(messages);
          expect(decoder.bufferedBytes()).toBe(0);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a 65535-byte frame passes one byte at a time boundary and whole', () => {
    const big = Uint8Array.from({ length: noiseMessageBytesMax }, (_, i) => i & 0xff);
    const decoder = createFrameDecoder();
    const wire = encodeFrame(big);
    decoder.push(wire.subarray(0, 1));
    expect(decoder.next()).toBeUndefined();
    decoder.push(wire.subarray(1, 40_000));
    expect(decoder.next()).toBeUndefined();
    decoder.push(wire.subarray(40_000));
    expect(decoder.next()).toEqual(big);
  });

  it('refuses a frame over the phase bound as soon as its header is complete', () => {
    const decoder = createFrameDecoder({ frameBytesMax: 1024 });
    decoder.push(Uint8Array.of(0x04));
    expect(decoder.next()).toBeUndefined();
    decoder.push(Uint8Array.of(0x01)); // 1025
    expectCoded(() => decoder.next(), FrameTooLargeError, P2pErrorCode.FrameTooLarge, P2pBanScore.Discourage);
    const lifted = createFrameDecoder({ frameBytesMax: 1024 });
    lifted.setFrameBytesMax(noiseMessageBytesMax);
    lifted.push(encodeFrame(new Uint8Array(1025)));
    expect(lifted.next()).toHaveLength(1025);
  });

  it('refuses a zero-length frame as malformed', () => {
    const decoder = createFrameDecoder();
    decoder.push(Uint8Array.of(0, 0, 7));
    expectCoded(() => decoder.next(), FrameMalformedError, P2pErrorCode.FrameMalformed, P2pBanScore.Discourage);
  });
});

describe('application messages (u32 LE length, packed into Noise plaintexts)', () => {
  it('chunks never exceed the Noise plaintext bound and the first carries the length', () => {
    const message = new Uint8Array(3 * framePlaintextBytesMax);
    const chunks = packMessages([message]);
    expect(chunks).toHaveLength(4);
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(framePlaintextBytesMax);
    expect(new DataView(chunks[0]!.buffer).getUint32(0, true)).toBe(message.length);
    expect(chunks.reduce((n, c) => n + c.length, 0)).toBe(message.length + 4);
  });

  it('small messages share one plaintext, each behind its length', () => {
    const chunks = packMessages([Uint8Array.of(1, 2), new Uint8Array(0), Uint8Array.of(3)]);
    expect(chunks).toEqual([Uint8Array.of(2, 0, 0, 0, 1, 2, 0, 0, 0, 0, 1, 0, 0, 0, 3)]);
    expect(packMessages([])).toEqual([]);
  });

  it('any messages, any chunk size, any regrouping of the stream reassemble', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 3000 }), { maxLength: 8 }),
        fc.integer({ min: 5, max: framePlaintextBytesMax }),
        fc.array(fc.nat(), { maxLength: 20 }),
        (messages, chunkBytesMax, offsets) => {
          const chunks = packMessages(messages, { chunkBytesMax });
          for (const c of chunks) expect(c.length).toBeLessThanOrEqual(chunkBytesMax);
          const stream = concatBytes(...chunks);
          const assembler = createMessageAssembler();
          const out = cut(stream, offsets).flatMap((piece) => assembler.push(piece));
          expect(out).toEqual(messages);
          expect(assembler.bufferedBytes()).toBe(0);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('full pipeline: pack, encrypt, frame, rechunk, decode, decrypt, reassemble', () => {
    const { a, b } = handshakePair(7);
    const empty = new Uint8Array(0);
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 70_000 }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        (messages, offsets) => {
          const wire = concatBytes(
            ...packMessages(messages).map((c) => encodeFrame(a.send.encryptWithAd(empty, c))),
          );
          const decoder = createFrameDecoder();
          const assembler = createMessageAssembler();
          const out: Uint8Array[] = [];
          for (const piece of cut(wire, offsets)) {
            decoder.push(piece);
            for (let f = decoder.next(); f !== undefined; f = decoder.next()) {
              out.push(...assembler.push(b.receive.decryptWithAd(empty, f)));
            }
          }
          expect(out).toEqual(messages);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('carries a message of exactly p2pMessageBytesMax and refuses one byte more', () => {
    const max = new Uint8Array(p2pMessageBytesMax);
    max[p2pMessageBytesMax - 1] = 0xee;
    const assembler = createMessageAssembler();
    const out = packMessages([max]).flatMap((c) => assembler.push(c));
    expect(out).toHaveLength(1);
    expect(out[0]![p2pMessageBytesMax - 1]).toBe(0xee);
    expectCoded(
      () => packMessages([Uint8Array.of(1), new Uint8Array(p2pMessageBytesMax + 1)]),
      MessageTooLargeError,
      P2pErrorCode.MessageTooLarge,
      P2pBanScore.Discourage,
    );
  });

  it('refuses an oversized declared length before buffering the body', () => {
    const header = new Uint8Array(4);
    new DataView(header.buffer).setUint32(0, 101, true);
    const assembler = createMessageAssembler({ messageBytesMax: 100 });
    expect(assembler.push(header.subarray(0, 2))).toEqual([]);
    expectCoded(() => assembler.push(header.subarray(2)), MessageTooLargeError, P2pErrorCode.MessageTooLarge, P2pBanScore.Discourage);
    const exact = createMessageAssembler({ messageBytesMax: 100 });
    expect(packMessages([new Uint8Array(100)], { messageBytesMax: 100 }).flatMap((c) => exact.push(c))).toHaveLength(1);
    const huge = createMessageAssembler();
    expectCoded(() => huge.push(Uint8Array.of(0xff, 0xff, 0xff, 0xff)), MessageTooLargeError, P2pErrorCode.MessageTooLarge, 100);
    expect(huge.bufferedBytes()).toBeLessThanOrEqual(4);
  });

  it('a zero-length message is delivered from its header alone', () => {
    const assembler = createMessageAssembler();
    expect(assembler.push(concatBytes(...packMessages([new Uint8Array(0)]), ...packMessages([Uint8Array.of(9)])))).toEqual([
      new Uint8Array(0),
      Uint8Array.of(9),
    ]);
  });
});

describe('garbage after the handshake', () => {
  it('any garbage frame fails authentication and leaves the receiver able to read the real one', () => {
    const { a, b } = handshakePair(11);
    const empty = new Uint8Array(0);
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 16, maxLength: 2000 }), (garbage) => {
        expect(() => b.receive.decryptWithAd(empty, garbage)).toThrow(DecryptError);
      }),
      { numRuns: 100 },
    );
    const real = a.send.encryptWithAd(empty, Uint8Array.of(1, 2, 3));
    expect(b.receive.decryptWithAd(empty, real)).toEqual(Uint8Array.of(1, 2, 3));
  });

  it('a real frame with any one byte changed fails authentication', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 500 }), fc.nat(), fc.integer({ min: 1, max: 255 }), (pt, at, xor) => {
        const { a, b } = handshakePair(13);
        const frame = a.send.encryptWithAd(new Uint8Array(0), pt);
        frame[at % frame.length]! ^= xor;
        try {
          b.receive.decryptWithAd(new Uint8Array(0), frame);
          expect.unreachable();
        } catch (error) {
          expect(error).toBeInstanceOf(DecryptError);
          expect((error as DecryptError).code).toBe(P2pErrorCode.DecryptFailed);
          expect((error as DecryptError).banScore).toBe(P2pBanScore.None);
        }
      }),
      { numRuns: 20 },
    );
  });
});
