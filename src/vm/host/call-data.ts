/**
 * The host functions that move the call's own data (docs/contracts.md "Host ABI"): its input, its return data, and
 * the two ways a contract fails on purpose (revert with a message, AssemblyScript's abort).
 */
import { vmReturnBytesMax, vmRevertMessageBytesMax } from '../../limits.ts';
import type { HostGas } from '../gas-schedule.ts';
import { HostTrapSignal, RevertSignal, type HostCall } from '../host-functions.ts';
import { charge, memoryBytes, region, write } from './call-memory.ts';

// Read once: under tsx each read of an imported binding is a getter call, and these are read on every host call.
const returnBytesMax = vmReturnBytesMax;
const revertMessageBytesMax = vmRevertMessageBytesMax;
const utf8 = new TextDecoder('utf-8');

export function inputLen(c: HostCall, g: HostGas): number {
  charge(c, g.context);
  return c.input.length;
}

export function inputRead(c: HostCall, g: HostGas, ptr: number): void {
  charge(c, g.copyBase + g.copyByte * c.input.length);
  write(c, ptr, c.input);
}

export function setReturn(c: HostCall, g: HostGas, ptr: number, len: number): void {
  charge(c, g.copyBase + g.copyByte * (len >>> 0));
  if (len >>> 0 > returnBytesMax) throw new HostTrapSignal(`return data of ${len >>> 0} bytes`);
  c.returnData = region(c, ptr, len).slice();
}

export function revert(c: HostCall, g: HostGas, ptr: number, len: number): never {
  charge(c, g.copyBase + g.copyByte * (len >>> 0));
  const bytes = region(c, ptr, len);
  throw new RevertSignal(utf8.decode(bytes.subarray(0, revertMessageBytesMax)));
}

export function abort(c: HostCall, g: HostGas, messagePtr: number): never {
  charge(c, g.copyBase);
  throw new RevertSignal(assemblyScriptString(memoryBytes(c), messagePtr >>> 0));
}

/** AssemblyScript's string at `ptr`: UTF-16LE, its byte length in the u32 before it (runtime header). Bounded. */
function assemblyScriptString(memory: Uint8Array, ptr: number): string {
  if (ptr < 4 || ptr > memory.length) return 'abort';
  const view = new DataView(memory.buffer, memory.byteOffset, memory.byteLength);
  const bytes = Math.min(view.getUint32(ptr - 4, true), revertMessageBytesMax * 2, memory.length - ptr);
  let text = '';
  for (let i = 0; i + 1 < bytes; i += 2) text += String.fromCharCode(view.getUint16(ptr + i, true));
  return text;
}
