/** Byte helpers shared by every layer: hex, concatenation, comparison, fixed-width little-endian integers. */
import { DecodeError } from '../errors.ts';

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += HEX[bytes[i]!];
  return out;
}

/** Parses lowercase or uppercase hex without a prefix; throws DecodeError on odd length or a non-hex digit. */
export function fromHex(hex: string): Uint8Array {
  if (hex.length % 2 !== 0) throw new DecodeError(`hex string has odd length ${hex.length}`);
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) {
    const hi = hexNibble(hex.charCodeAt(2 * i));
    const lo = hexNibble(hex.charCodeAt(2 * i + 1));
    if (hi < 0 || lo < 0) throw new DecodeError(`invalid hex digit near offset ${2 * i}`);
    out[i] = (hi << 4) | lo;
  }
  return out;
}

/** The value of a hex digit's char code (either case), or -1. */
function hexNibble(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  if (code >= 65 && code <= 70) return code - 55;
  return -1;
}

/** The hex digits of the API's `0x…` form: `text` without a leading `0x`, or as it is when it has none. */
export function strip0x(text: string): string {
  return text.startsWith('0x') ? text.slice(2) : text;
}

/** `0x` + 64 lowercase hex digits: the API form of every hash (docs/design.md "Networks and units"). */
export function toHash0x(hash: Uint8Array): string {
  return `0x${toHex(hash)}`;
}

export function concatBytes(...parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/** Lexicographic order of bytes; shorter prefix first. Kaspa breaks GHOSTDAG hash ties this way. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = a[i]! - b[i]!;
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/** Big-endian unsigned integer of any width (256-bit hashes and targets). */
export function bytesToBigIntBE(bytes: Uint8Array): bigint {
  let n = 0n;
  for (let i = 0; i < bytes.length; i++) n = (n << 8n) | BigInt(bytes[i]!);
  return n;
}

export function bigIntToBytesBE(n: bigint, width: number): Uint8Array {
  const out = new Uint8Array(width);
  let v = n;
  for (let i = width - 1; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  if (v !== 0n) throw new DecodeError(`integer does not fit in ${width} bytes`);
  return out;
}
