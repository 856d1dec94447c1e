/**
 * A bounds-checked reader over a Wasm binary (WebAssembly core spec 1.0 §5, "Binary format"): bytes, LEB128
 * integers and names. Every failure is a PrepareError('malformed'): a module comes from outside, so running off the
 * end, an overlong LEB128 or a bad UTF-8 name is bad input, never a crash.
 */
import { PrepareError } from './errors.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true });

export interface WasmCursor {
  /** Offset of the next byte in the whole module. */
  pos: number;
  /** One past the last byte this cursor may read (a section's or a body's end). */
  readonly end: number;
  readonly bytes: Uint8Array;
}

export function createCursor(bytes: Uint8Array, pos = 0, end = bytes.length): WasmCursor {
  return { bytes, pos, end };
}

export function malformed(message: string, at: number): never {
  throw new PrepareError('malformed', `${message} at byte ${at}`, { offset: at });
}

export function atEnd(c: WasmCursor): boolean {
  return c.pos >= c.end;
}

export function readU8(c: WasmCursor): number {
  if (c.pos >= c.end) malformed('unexpected end', c.pos);
  return c.bytes[c.pos++]!;
}

export function readBytes(c: WasmCursor, length: number): Uint8Array {
  if (length > c.end - c.pos) malformed(`${length} bytes run past the end`, c.pos);
  const out = c.bytes.subarray(c.pos, c.pos + length);
  c.pos += length;
  return out;
}

/** Unsigned LEB128 of at most 32 bits (§5.2.2): at most 5 bytes, no bits past 32. */
export function readU32(c: WasmCursor): number {
  const start = c.pos;
  let result = 0;
  for (let shift = 0; shift < 35; shift += 7) {
    const byte = readU8(c);
    if (shift === 28 && (byte & 0x70) !== 0) malformed('u32 LEB128 out of range', start);
    result += (byte & 0x7f) * 2 ** shift;
    if ((byte & 0x80) === 0) return result;
  }
  return malformed('u32 LEB128 longer than 5 bytes', start);
}

/**
 * Skips a signed LEB128 of at most `bits` bits (an i32.const or i64.const immediate) and returns its value when it
 * fits a safe integer, else NaN. The spec's rule on the unused high bits is left to the engine's validation.
 */
export function readSigned(c: WasmCursor, bits: 32 | 64): number {
  const start = c.pos;
  const maxBytes = Math.ceil(bits / 7);
  let result = 0n;
  let shift = 0n;
  for (let i = 0; i < maxBytes; i++) {
    const byte = readU8(c);
    result |= BigInt(byte & 0x7f) << shift;
    shift += 7n;
    if ((byte & 0x80) === 0) {
      if (byte & 0x40) result -= 1n << shift;
      const n = Number(result);
      return Number.isSafeInteger(n) ? n : Number.NaN;
    }
  }
  return malformed(`s${bits} LEB128 longer than ${maxBytes} bytes`, start);
}

/** A name (§5.2.4): a u32 length and UTF-8 bytes. */
export function readName(c: WasmCursor): string {
  const at = c.pos;
  const bytes = readBytes(c, readU32(c));
  try {
    return utf8.decode(bytes);
  } catch {
    return malformed('name is not UTF-8', at);
  }
}
