// What a call knows about itself: caller, own address, value, the accepting block, gas; events, hashing and revert.
import * as env from "./env";

/** Binary addresses are 33 bytes: a type byte and a 32-byte payload (src/crypto/address.ts). */
export const ADDRESS_BYTES: i32 = 33;

export function caller(): Uint8Array {
  const out = new Uint8Array(ADDRESS_BYTES);
  env.caller(out.dataStart);
  return out;
}

export function selfAddress(): Uint8Array {
  const out = new Uint8Array(ADDRESS_BYTES);
  env.self_address(out.dataStart);
  return out;
}

/** Base units sent with this call. */
export function value(): u64 {
  return env.value();
}

/** What the contract can still send in this call: its balance before the call, plus `value`, minus what it sent. */
export function balance(): u64 {
  return env.balance();
}

/** Sends `amount` base units to `to` (33 bytes) if the call succeeds; more than `balance()` traps. */
export function transferValue(to: Uint8Array, amount: u64): void {
  env.transfer_value(to.dataStart, amount);
}

export function blockHeight(): u64 {
  return env.block_height();
}

export function blockTimestamp(): u64 {
  return env.block_timestamp();
}

export function gasLeft(): i64 {
  return env.gas_left();
}

/** Emits an event; it is kept only if the call succeeds. */
export function emit(topic: string, data: Uint8Array): void {
  const t = Uint8Array.wrap(String.UTF8.encode(topic));
  env.emit_event(t.dataStart, t.length, data.dataStart, data.length);
}

/** Ends the call as reverted with `message`: its writes and events are dropped, its gas is still paid. */
export function revert(message: string): void {
  const m = Uint8Array.wrap(String.UTF8.encode(message));
  env.revert(m.dataStart, m.length);
}

export function blake3(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(32);
  env.blake3(data.dataStart, data.length, out.dataStart);
  return out;
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): bool {
  if (a.length != b.length) return false;
  for (let i = 0; i < a.length; i++) if (unchecked(a[i]) != unchecked(b[i])) return false;
  return true;
}
