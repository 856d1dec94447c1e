/**
 * A growable byte sink that writes the parts of a Wasm binary the instrumenter emits (core spec 1.0 §5): bytes,
 * minimal LEB128 integers, names and sections. Minimal encodings only, so one input always gives one output.
 */
import { assert } from '../errors.ts';

export interface WasmWriter {
  u8(byte: number): WasmWriter;
  bytes(data: Uint8Array): WasmWriter;
  u32(value: number): WasmWriter;
  s32(value: number): WasmWriter;
  s64(value: bigint): WasmWriter;
  name(text: string): WasmWriter;
  /** A section: its id, the u32 byte length of `content`, then `content`. */
  section(id: number, content: Uint8Array): WasmWriter;
  readonly length: number;
  finish(): Uint8Array<ArrayBuffer>;
}

const utf8 = new TextEncoder();

export function createWriter(initialBytes = 256): WasmWriter {
  let buf = new Uint8Array(initialBytes);
  let len = 0;
  const room = (n: number): void => {
    if (len + n <= buf.length) return;
    const next = new Uint8Array(Math.max(buf.length * 2, len + n));
    next.set(buf.subarray(0, len));
    buf = next;
  };
  const writer: WasmWriter = {
    u8(byte) {
      room(1);
      buf[len++] = byte;
      return writer;
    },
    bytes(data) {
      room(data.length);
      buf.set(data, len);
      len += data.length;
      return writer;
    },
    u32(value) {
      assert(Number.isInteger(value) && value >= 0 && value <= 0xffff_ffff, `u32 out of range: ${value}`);
      let v = value;
      do {
        const byte = v % 128;
        v = Math.floor(v / 128);
        writer.u8(v === 0 ? byte : byte | 0x80);
      } while (v !== 0);
      return writer;
    },
    s32(value) {
      assert(Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31, `s32 out of range: ${value}`);
      return writer.s64(BigInt(value));
    },
    s64(value) {
      let v = value;
      for (;;) {
        const byte = Number(v & 0x7fn);
        v >>= 7n;
        const done = (v === 0n && (byte & 0x40) === 0) || (v === -1n && (byte & 0x40) !== 0);
        writer.u8(done ? byte : byte | 0x80);
        if (done) return writer;
      }
    },
    name(text) {
      const encoded = utf8.encode(text);
      return writer.u32(encoded.length).bytes(encoded);
    },
    section(id, content) {
      return writer.u8(id).u32(content.length).bytes(content);
    },
    get length() {
      return len;
    },
    finish() {
      return buf.slice(0, len);
    },
  };
  return writer;
}
