/**
 * The storage host functions (docs/contracts.md "Host ABI"): gas for the name and key first, then the entry; a read
 * pays per value byte before the copy, a write that creates an entry pays for the state growth. Writes are buffered
 * in the call (HostCall.writes) and only handed back when it succeeds.
 */
import { vmStorageValueBytesMax } from '../../limits.ts';
import type { HostGas } from '../gas-schedule.ts';
import { HostTrapSignal, type HostCall } from '../host-functions.ts';
import { charge, region, write } from './call-memory.ts';
import { entry, readEntry, type VariableNames } from './storage-entry.ts';

// Read once: under tsx each read of an imported binding is a getter call, and this is read on every write.
const storageValueBytesMax = vmStorageValueBytesMax;

/** The value's length (copied to `out` only when it fits `cap`), or -1 when the entry is absent. */
export function storageRead(c: HostCall, g: HostGas, names: VariableNames, vp: number, vl: number, kp: number, kl: number, out: number, cap: number): number {
  charge(c, g.readBase + g.readKeyByte * ((vl >>> 0) + (kl >>> 0)));
  const value = readEntry(c, entry(c, names, vp, vl, kp, kl));
  if (value === undefined) return -1;
  charge(c, g.readValueByte * value.length);
  if (value.length <= cap >>> 0) write(c, out, value);
  return value.length;
}

export function storageWrite(c: HostCall, g: HostGas, names: VariableNames, vp: number, vl: number, kp: number, kl: number, valp: number, vall: number): void {
  charge(c, g.writeBase + g.writeByte * ((vl >>> 0) + (kl >>> 0) + (vall >>> 0)));
  if (vall >>> 0 > storageValueBytesMax) throw new HostTrapSignal(`a stored value of ${vall >>> 0} bytes`);
  const e = entry(c, names, vp, vl, kp, kl);
  if (readEntry(c, e) === undefined) charge(c, g.newEntry);
  c.writes.set({ variable: e.name, key: e.key, value: region(c, valp, vall).slice() });
}

/** 1 when the entry existed, else 0. */
export function storageRemove(c: HostCall, g: HostGas, names: VariableNames, vp: number, vl: number, kp: number, kl: number): number {
  charge(c, g.removeBase + g.readKeyByte * ((vl >>> 0) + (kl >>> 0)));
  const e = entry(c, names, vp, vl, kp, kl);
  const existed = readEntry(c, e) !== undefined;
  c.writes.set({ variable: e.name, key: e.key, value: undefined });
  return existed ? 1 : 0;
}

export function storageHas(c: HostCall, g: HostGas, names: VariableNames, vp: number, vl: number, kp: number, kl: number): number {
  charge(c, g.hasBase + g.readKeyByte * ((vl >>> 0) + (kl >>> 0)));
  return readEntry(c, entry(c, names, vp, vl, kp, kl)) === undefined ? 0 : 1;
}
