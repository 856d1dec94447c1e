// Contract storage: values keyed by (variable name, key), as the host ABI and get_contract_state see them. A
// variable name is [A-Za-z0-9_]{1,64}; the key is up to 256 bytes (empty for a scalar).
import * as env from "./env";

const EMPTY = new Uint8Array(0);

function nameBytes(variable: string): Uint8Array {
  return Uint8Array.wrap(String.UTF8.encode(variable));
}

export function getBytes(variable: string, key: Uint8Array = EMPTY): Uint8Array | null {
  const name = nameBytes(variable);
  let out = new Uint8Array(32);
  const len = env.storage_read(name.dataStart, name.length, key.dataStart, key.length, out.dataStart, out.length);
  if (len < 0) return null;
  if (len > out.length) {
    out = new Uint8Array(len);
    env.storage_read(name.dataStart, name.length, key.dataStart, key.length, out.dataStart, out.length);
  }
  return out.subarray(0, len);
}

export function setBytes(variable: string, key: Uint8Array, value: Uint8Array): void {
  const name = nameBytes(variable);
  env.storage_write(name.dataStart, name.length, key.dataStart, key.length, value.dataStart, value.length);
}

export function has(variable: string, key: Uint8Array = EMPTY): bool {
  const name = nameBytes(variable);
  return env.storage_has(name.dataStart, name.length, key.dataStart, key.length) != 0;
}

export function remove(variable: string, key: Uint8Array = EMPTY): bool {
  const name = nameBytes(variable);
  return env.storage_remove(name.dataStart, name.length, key.dataStart, key.length) != 0;
}

/** A u64 stored as 8 little-endian bytes; `fallback` when absent. */
export function getU64(variable: string, key: Uint8Array = EMPTY, fallback: u64 = 0): u64 {
  const bytes = getBytes(variable, key);
  if (bytes == null || bytes.length != 8) return fallback;
  return load<u64>(bytes.dataStart);
}

export function setU64(variable: string, key: Uint8Array, value: u64): void {
  const bytes = new Uint8Array(8);
  store<u64>(bytes.dataStart, value);
  setBytes(variable, key, bytes);
}

/** A map from byte keys to u64 under one variable name (the name is what get_contract_state asks for). */
export class U64Map {
  constructor(public readonly variable: string) {}
  get(key: Uint8Array): u64 {
    return getU64(this.variable, key, 0);
  }
  set(key: Uint8Array, value: u64): void {
    setU64(this.variable, key, value);
  }
  has(key: Uint8Array): bool {
    return has(this.variable, key);
  }
  remove(key: Uint8Array): bool {
    return remove(this.variable, key);
  }
}
