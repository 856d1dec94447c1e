/**
 * A bounded little-endian byte reader: the decoding half of every canonical codec. It never reads past its input,
 * refuses non-minimal varints (so each value has exactly one encoding) and throws DecodeError saying which field,
 * at which offset, what was got and what was expected. `end()` makes trailing bytes an error.
 */
import { DecodeError } from '../errors.ts';

/** LEB128 of a safe integer (< 2^53) needs at most 8 bytes of 7 bits. */
const varintBytesMax = 8;

export interface ByteReader {
  /** Bytes consumed so far. */
  readonly offset: number;
  /** Bytes left. */
  readonly remaining: number;
  u8(what?: string): number;
  u16(what?: string): number;
  u32(what?: string): number;
  u64(what?: string): bigint;
  /** A u64 that must fit in a safe integer (timestamps, scores). */
  u64Number(what?: string): number;
  /** Minimal unsigned LEB128, at most `max` (≤ Number.MAX_SAFE_INTEGER). */
  varint(max: number, what?: string): number;
  /** Exactly `length` bytes, copied (the result never aliases the input). */
  bytes(length: number, what?: string): Uint8Array;
  /** A varint length (≤ `maxBytes`) then that many bytes. */
  lengthPrefixed(maxBytes: number, what?: string): Uint8Array;
  /** Throws unless every byte was consumed. */
  end(what?: string): void;
}

class BoundedReader implements ByteReader {
  private readonly buf: Uint8Array;
  private readonly view: DataView;
  private pos = 0;

  constructor(bytes: Uint8Array) {
    this.buf = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get offset(): number {
    return this.pos;
  }

  get remaining(): number {
    return this.buf.length - this.pos;
  }

  private need(n: number, what: string): void {
    if (this.buf.length - this.pos < n) {
      throw new DecodeError(
        `${what}: expected ${n} bytes at offset ${this.pos}, got ${this.buf.length - this.pos} (input ends)`,
      );
    }
  }

  u8(what = 'u8'): number {
    this.need(1, what);
    return this.buf[this.pos++]!;
  }

  u16(what = 'u16'): number {
    this.need(2, what);
    const v = this.view.getUint16(this.pos, true);
    this.pos += 2;
    return v;
  }

  u32(what = 'u32'): number {
    this.need(4, what);
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }

  u64(what = 'u64'): bigint {
    this.need(8, what);
    const v = this.view.getBigUint64(this.pos, true);
    this.pos += 8;
    return v;
  }

  u64Number(what = 'u64'): number {
    this.need(8, what);
    const lo = this.view.getUint32(this.pos, true);
    const hi = this.view.getUint32(this.pos + 4, true);
    // 2^53 - 1 = hi ≤ 0x1fffff with any lo.
    if (hi > 0x1fffff) {
      const got = (BigInt(hi) << 32n) | BigInt(lo);
      throw new DecodeError(`${what}: expected a u64 ≤ 2^53-1 at offset ${this.pos}, got ${got}`);
    }
    this.pos += 8;
    return hi * 2 ** 32 + lo;
  }

  varint(max: number, what = 'varint'): number {
    const start = this.pos;
    let value = 0;
    let scale = 1;
    for (let i = 0; ; i++) {
      if (i === varintBytesMax) throw new DecodeError(`${what}: varint at offset ${start} longer than ${i} bytes`);
      const byte = this.u8(what);
      value += (byte & 0x7f) * scale;
      scale *= 0x80;
      if ((byte & 0x80) === 0) {
        if (byte === 0 && i > 0) throw new DecodeError(`${what}: non-minimal varint at offset ${start}`);
        break;
      }
    }
    if (value > max) throw new DecodeError(`${what}: expected at most ${max}, got ${value} (offset ${start})`);
    return value;
  }

  bytes(length: number, what = 'bytes'): Uint8Array {
    this.need(length, what);
    const out = this.buf.slice(this.pos, this.pos + length);
    this.pos += length;
    return out;
  }

  lengthPrefixed(maxBytes: number, what = 'bytes'): Uint8Array {
    const length = this.varint(maxBytes, `${what} length`);
    return this.bytes(length, what);
  }

  end(what = 'input'): void {
    if (this.pos !== this.buf.length) {
      throw new DecodeError(`${what}: expected end of input at offset ${this.pos}, got ${this.remaining} trailing bytes`);
    }
  }
}

export function createByteReader(bytes: Uint8Array): ByteReader {
  return new BoundedReader(bytes);
}
