// The tagged parameter encoding (src/vm/abi.ts; docs/contracts.md "Call ABI"): a call's input is a sequence of
// values, each a tag byte and its bytes; return data uses the same encoding. Contracts never parse JSON (JSON
// number parsing would pull float code into the module, which deploy refuses).
import * as env from "./env";
import { revert, ADDRESS_BYTES } from "./context";

export const TAG_U64: u8 = 0x01;
export const TAG_I64: u8 = 0x02;
export const TAG_BOOL: u8 = 0x03;
export const TAG_STRING: u8 = 0x04;
export const TAG_BYTES: u8 = 0x05;
export const TAG_ADDRESS: u8 = 0x06;

/** Reads the call's input value by value; a missing or mistyped value reverts the call. */
export class Args {
  private pos: i32 = 0;
  constructor(private readonly data: Uint8Array) {}

  static fromInput(): Args {
    const data = new Uint8Array(env.input_len());
    env.input_read(data.dataStart);
    return new Args(data);
  }

  remaining(): i32 {
    return this.data.length - this.pos;
  }

  private take(tag: u8, len: i32): usize {
    if (this.pos + 1 + len > this.data.length || this.data[this.pos] != tag) revert("bad arguments");
    const at = this.data.dataStart + <usize>(this.pos + 1);
    this.pos += 1 + len;
    return at;
  }

  private length(tag: u8): i32 {
    if (this.pos + 5 > this.data.length || this.data[this.pos] != tag) revert("bad arguments");
    const len = load<u32>(this.data.dataStart + <usize>(this.pos + 1));
    if (<i64>len > <i64>(this.data.length - this.pos - 5)) revert("bad arguments");
    return <i32>len;
  }

  nextU64(): u64 {
    return load<u64>(this.take(TAG_U64, 8));
  }

  nextI64(): i64 {
    return load<i64>(this.take(TAG_I64, 8));
  }

  nextBool(): bool {
    return load<u8>(this.take(TAG_BOOL, 1)) != 0;
  }

  nextAddress(): Uint8Array {
    const at = this.take(TAG_ADDRESS, ADDRESS_BYTES);
    return this.data.slice(<i32>(at - this.data.dataStart), <i32>(at - this.data.dataStart) + ADDRESS_BYTES);
  }

  nextBytes(): Uint8Array {
    const len = this.length(TAG_BYTES);
    const start = this.pos + 5;
    this.pos = start + len;
    return this.data.slice(start, start + len);
  }

  nextString(): string {
    const len = this.length(TAG_STRING);
    const start = this.pos + 5;
    this.pos = start + len;
    return String.UTF8.decodeUnsafe(this.data.dataStart + <usize>start, <usize>len);
  }
}

/** Builds return data (or event data) in the same encoding. */
export class Writer {
  private buf: Uint8Array = new Uint8Array(64);
  private len: i32 = 0;

  private room(n: i32): usize {
    if (this.len + n > this.buf.length) {
      const next = new Uint8Array(max(this.buf.length * 2, this.len + n));
      for (let i = 0; i < this.len; i++) unchecked((next[i] = this.buf[i]));
      this.buf = next;
    }
    const at = this.buf.dataStart + <usize>this.len;
    this.len += n;
    return at;
  }

  u64(value: u64): Writer {
    const at = this.room(9);
    store<u8>(at, TAG_U64);
    store<u64>(at + 1, value);
    return this;
  }

  bool(value: bool): Writer {
    const at = this.room(2);
    store<u8>(at, TAG_BOOL);
    store<u8>(at + 1, value ? 1 : 0);
    return this;
  }

  address(value: Uint8Array): Writer {
    const at = this.room(1 + ADDRESS_BYTES);
    store<u8>(at, TAG_ADDRESS);
    for (let i = 0; i < ADDRESS_BYTES; i++) store<u8>(at + 1 + <usize>i, value[i]);
    return this;
  }

  bytes(value: Uint8Array): Writer {
    const at = this.room(5 + value.length);
    store<u8>(at, TAG_BYTES);
    store<u32>(at + 1, value.length);
    for (let i = 0; i < value.length; i++) store<u8>(at + 5 + <usize>i, value[i]);
    return this;
  }

  string(value: string): Writer {
    return this.bytesTagged(TAG_STRING, Uint8Array.wrap(String.UTF8.encode(value)));
  }

  private bytesTagged(tag: u8, value: Uint8Array): Writer {
    this.bytes(value);
    store<u8>(this.buf.dataStart + <usize>(this.len - 5 - value.length), tag);
    return this;
  }

  finish(): Uint8Array {
    return this.buf.subarray(0, this.len);
  }
}

/** Sets the call's return data to `w`'s contents. */
export function returnValue(w: Writer): void {
  const data = w.finish();
  env.set_return(data.dataStart, data.length);
}
