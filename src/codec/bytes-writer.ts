/**
 * A growable little-endian byte writer: the encoding half of every canonical codec (headers, blocks, transactions,
 * p2p messages). Integers are range-checked before they are written, so an encoder can never emit bytes that its
 * decoder (src/codec/bytes-reader.ts) would read back as a different value.
 */
import { WeftError } from '../errors.ts';

/** A value handed to an encoder is out of range for its field (a caller bug or unchecked input). */
export class EncodeError extends WeftError {
  constructor(message: string, details?: unknown) {
    super('invalid_params', message, { details });
  }
}

/** Room for a typical header; the buffer doubles from there. */
const writerInitialBytes = 256;
const u64Max = (1n << 64n) - 1n;

export interface ByteWriter {
  /** Bytes written so far. */
  readonly length: number;
  u8(value: number, what?: string): void;
  u16(value: number, what?: string): void;
  u32(value: number, what?: string): void;
  u64(value: bigint, what?: string): void;
  /** A u64 held as a safe integer (timestamps, scores). */
  u64Number(value: number, what?: string): void;
  /** Unsigned LEB128 of a safe integer, at most `max`. */
  varint(value: number, max: number, what?: string): void;
  /** Raw bytes; when `length` is given the input must have exactly that many. */
  bytes(value: Uint8Array, length?: number, what?: string): void;
  /** A varint length (≤ `maxBytes`) then the bytes. */
  lengthPrefixed(value: Uint8Array, maxBytes: number, what?: string): void;
  /** A copy of the bytes written. */
  finish(): Uint8Array;
}

function checkUint(value: number, bits: number, what: string): void {
  const max = 2 ** bits - 1;
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw new EncodeError(`${what}: expected an integer in 0..${max}, got ${value}`);
  }
}

class GrowableWriter implements ByteWriter {
  private buf: Uint8Array;
  private view: DataView;
  private pos = 0;

  constructor(initialBytes: number) {
    this.buf = new Uint8Array(Math.max(initialBytes, 16));
    this.view = new DataView(this.buf.buffer);
  }

  get length(): number {
    return this.pos;
  }

  private reserve(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  u8(value: number, what = 'u8'): void {
    checkUint(value, 8, what);
    this.reserve(1);
    this.buf[this.pos++] = value;
  }

  u16(value: number, what = 'u16'): void {
    checkUint(value, 16, what);
    this.reserve(2);
    this.view.setUint16(this.pos, value, true);
    this.pos += 2;
  }

  u32(value: number, what = 'u32'): void {
    checkUint(value, 32, what);
    this.reserve(4);
    this.view.setUint32(this.pos, value, true);
    this.pos += 4;
  }

  u64(value: bigint, what = 'u64'): void {
    if (typeof value !== 'bigint' || value < 0n || value > u64Max) {
      throw new EncodeError(`${what}: expected a bigint in 0..2^64-1, got ${String(value)}`);
    }
    this.reserve(8);
    this.view.setBigUint64(this.pos, value, true);
    this.pos += 8;
  }

  u64Number(value: number, what = 'u64'): void {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new EncodeError(`${what}: expected a non-negative safe integer, got ${value}`);
    }
    this.reserve(8);
    this.view.setUint32(this.pos, value % 2 ** 32, true);
    this.view.setUint32(this.pos + 4, Math.floor(value / 2 ** 32), true);
    this.pos += 8;
  }

  varint(value: number, max: number, what = 'varint'): void {
    if (!Number.isSafeInteger(value) || value < 0 || value > max) {
      throw new EncodeError(`${what}: expected an integer in 0..${max}, got ${value}`);
    }
    this.reserve(8); // a safe integer (< 2^53) takes at most 8 LEB128 bytes
    let v = value;
    while (v >= 0x80) {
      this.buf[this.pos++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[this.pos++] = v;
  }

  bytes(value: Uint8Array, length?: number, what = 'bytes'): void {
    if (length !== undefined && value.length !== length) {
      throw new EncodeError(`${what}: expected ${length} bytes, got ${value.length}`);
    }
    this.reserve(value.length);
    this.buf.set(value, this.pos);
    this.pos += value.length;
  }

  lengthPrefixed(value: Uint8Array, maxBytes: number, what = 'bytes'): void {
    this.varint(value.length, maxBytes, `${what} length`);
    this.bytes(value);
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }
}

/** A fresh writer; `initialBytes` is only a capacity hint. */
export function createByteWriter(initialBytes: number = writerInitialBytes): ByteWriter {
  return new GrowableWriter(initialBytes);
}
