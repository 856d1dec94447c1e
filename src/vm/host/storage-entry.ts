/**
 * The storage entry a host call names (a variable name and a key in the call's memory), and how it reads: the
 * call's own buffered writes first, then the storage port. Variable names are checked and decoded once and kept in
 * a small ring, since a contract uses a handful of them on every storage call.
 */
import { vmStorageKeyBytesMax, vmVariableNameBytesMax } from '../../limits.ts';
import { HostTrapSignal, type HostCall } from '../host-functions.ts';
import { region } from './call-memory.ts';
import { byteKey } from '../../util/byte-key.ts';

/** A storage entry a host call names: the variable and the key (copied out of memory). */
export interface Entry {
  readonly name: string;
  readonly key: Uint8Array;
}

/** The variable names seen last, per host (host-imports.ts), with the next slot to replace. */
export interface VariableNames {
  readonly kept: { readonly bytes: Uint8Array; readonly name: string }[];
  next: number;
}

/** How many names the ring keeps. */
const namesKept = 8;

// Read once: under tsx each read of an imported binding is a getter call, and these are read on every storage call.
const variableNameBytesMax = vmVariableNameBytesMax;
const storageKeyBytesMax = vmStorageKeyBytesMax;

/** Bytes allowed in a variable name: [A-Za-z0-9_]. */
const nameByte = new Uint8Array(256);
for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_') nameByte[ch.charCodeAt(0)] = 1;

export function createVariableNames(): VariableNames {
  return { kept: [], next: 0 };
}

function variableName(names: VariableNames, bytes: Uint8Array): string {
  seen: for (const kept of names.kept) {
    if (kept.bytes.length !== bytes.length) continue;
    for (let i = 0; i < bytes.length; i++) if (kept.bytes[i] !== bytes[i]) continue seen;
    return kept.name;
  }
  for (let i = 0; i < bytes.length; i++) if (!nameByte[bytes[i]!]) throw new HostTrapSignal('a variable name outside [A-Za-z0-9_]');
  // One character per byte: the name was checked to be [A-Za-z0-9_] above.
  const name = byteKey(bytes);
  names.kept[names.next] = { bytes: bytes.slice(), name };
  names.next = (names.next + 1) % namesKept;
  return name;
}

/** The entry at (variable vp/vl, key kp/kl), both bounded. */
export function entry(c: HostCall, names: VariableNames, vp: number, vl: number, kp: number, kl: number): Entry {
  if (vl >>> 0 > variableNameBytesMax || vl === 0) throw new HostTrapSignal(`a variable name of ${vl >>> 0} bytes`);
  const name = variableName(names, region(c, vp, vl));
  if (kl >>> 0 > storageKeyBytesMax) throw new HostTrapSignal(`a storage key of ${kl >>> 0} bytes`);
  return { name, key: region(c, kp, kl).slice() };
}

/** The entry's value as this call sees it: its own pending write first, then committed storage. */
export function readEntry(c: HostCall, e: Entry): Uint8Array | undefined {
  const pending = c.writes.get(e.name, e.key);
  return pending ? pending.value : c.storage.get(e.name, e.key);
}
