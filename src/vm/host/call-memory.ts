/**
 * What every host function does first (docs/contracts.md "Host ABI"): charge its gas by lowering the instance's gas
 * global, and reach the call's memory through bounds-checked regions.
 */
import { HostTrapSignal, OutOfGasSignal, type HostCall } from '../host-functions.ts';

/** Lowers the gas global; below zero throws OutOfGasSignal with the global left negative (execute.ts classifies it). */
export function charge(c: HostCall, amount: number): void {
  const left = (c.gas!.value as bigint) - BigInt(amount);
  c.gas!.value = left;
  if (left < 0n) throw new OutOfGasSignal();
}

/** The call's memory bytes; a detached buffer's views have length 0, so only then is the memory asked for its new one. */
export function memoryBytes(c: HostCall): Uint8Array {
  return c.view.length > 0 ? c.view : (c.view = new Uint8Array(c.memory.buffer));
}

/** [ptr, ptr + len) of the call's memory, both read as u32; outside the memory it is a trap. */
export function region(c: HostCall, ptr: number, len: number): Uint8Array {
  const bytes = memoryBytes(c);
  const start = ptr >>> 0;
  const length = len >>> 0;
  if (start + length > bytes.length) throw new HostTrapSignal(`memory access [${start}, ${start + length}) out of bounds`);
  return bytes.subarray(start, start + length);
}

export function write(c: HostCall, ptr: number, data: Uint8Array): void {
  region(c, ptr, data.length).set(data);
}
