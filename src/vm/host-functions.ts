/**
 * The host side of the ABI (host-abi.ts): the `env` imports, built once per gas schedule and serving the call that
 * is running (its HostCall: input, context, storage port, memory, gas global, buffered effects). Every host
 * function charges its gas before it does the work (docs/contracts.md "Host ABI"), by lowering the same exported gas
 * global the inline metering lowers; going below zero throws OutOfGasSignal with the global left negative, so the
 * classifier in execute.ts sees an out-of-gas whether wasm code or the host ran out.
 *
 * Storage writes and events are buffered here and only handed back when the call succeeds; reads see the call's own
 * earlier writes first, then the storage port.
 */
import { AddressType, addressBytes } from '../crypto/address.ts';
import { blake3 } from '../crypto/blake3.ts';
import {
  vmEventDataBytesMax,
  vmEventsMax,
  vmEventTopicBytesMax,
  vmHashInputBytesMax,
  vmReturnBytesMax,
  vmRevertMessageBytesMax,
  vmStorageKeyBytesMax,
  vmStorageValueBytesMax,
  vmVariableNameBytesMax,
} from '../limits.ts';
import type { GasSchedule } from './gas-schedule.ts';
import type { HostFunctionName } from './host-abi.ts';
import { PendingWrites } from './pending-writes.ts';

/** Reads the contract's committed storage: (variable name, key) → value, or undefined when absent. */
export interface ContractStoragePort {
  get(variable: string, key: Uint8Array): Uint8Array | undefined;
}

/** What the call knows about its circumstances (docs/contracts.md "Host ABI"). */
export interface CallContext {
  /** 33-byte binary address of the transaction's sender (or the view call's caller). */
  readonly caller: Uint8Array;
  /** 33-byte binary address of the contract. */
  readonly self: Uint8Array;
  /** Base units transferred with the call. */
  readonly value: bigint;
  /** The contract's balance before the call, `value` not included (0 when left out). */
  readonly balance?: bigint;
  readonly blockHeight: bigint;
  /** Unix seconds, from the accepting block's header. */
  readonly blockTimestamp: bigint;
}

/** One buffered storage change: a value to store, or `undefined` to remove the entry. */
export interface StorageWrite {
  readonly variable: string;
  readonly key: Uint8Array;
  readonly value: Uint8Array | undefined;
}

/** Base units the contract sends out; applied by the caller, after `value` arrived, only if the call succeeds. */
export interface ValueTransfer {
  readonly to: Uint8Array;
  readonly amount: bigint;
}

export interface ContractEvent {
  readonly topic: Uint8Array;
  readonly data: Uint8Array;
}

/** Thrown through the engine when gas runs out inside a host function. */
export class OutOfGasSignal {}
/** Thrown through the engine by `revert` and `abort`: the contract chose to fail. */
export class RevertSignal {
  constructor(readonly message: string) {}
}
/** Thrown through the engine when the contract misuses the ABI (bad pointer, bad name, over a limit): a trap. */
export class HostTrapSignal {
  constructor(readonly message: string) {}
}

/** One call's state: what the shared host functions read and buffer while that call runs. */
export interface HostCall {
  readonly input: Uint8Array;
  readonly context: CallContext;
  readonly storage: ContractStoragePort;
  readonly memory: WebAssembly.Memory;
  /** The instance's gas global, set once the instance exists (no host function runs before that). */
  gas: WebAssembly.Global | undefined;
  /** A view of `memory`, renewed when a `memory.grow` (even by 0) detached the buffer it was on. */
  view: Uint8Array;
  spendable: bigint;
  returnData: Uint8Array;
  readonly writes: PendingWrites;
  readonly events: ContractEvent[];
  readonly transfers: ValueTransfer[];
}

export function createHostCall(input: Uint8Array, context: CallContext, storage: ContractStoragePort, memory: WebAssembly.Memory): HostCall {
  return {
    input,
    context,
    storage,
    memory,
    gas: undefined,
    view: new Uint8Array(memory.buffer),
    spendable: (context.balance ?? 0n) + context.value,
    returnData: new Uint8Array(0),
    writes: new PendingWrites(),
    events: [],
    transfers: [],
  };
}

/**
 * The host functions of one gas schedule, built once and shared by every instance: they serve whichever call is
 * `current`, so a call costs no closures and the engine sees the same import functions each time.
 */
export interface Host {
  /** The `env` imports of every prepared module: the host functions, and the memory of the call being started. */
  readonly imports: { readonly env: Record<string, WebAssembly.ImportValue> };
  current: HostCall | undefined;
}

// The limits the host functions check, read once: under tsx (how the node runs) each read of an imported binding is
// a getter call, and these are read on every host call.
const max = Object.freeze({
  eventDataBytes: vmEventDataBytesMax,
  events: vmEventsMax,
  eventTopicBytes: vmEventTopicBytesMax,
  hashInputBytes: vmHashInputBytesMax,
  returnBytes: vmReturnBytesMax,
  revertMessageBytes: vmRevertMessageBytesMax,
  storageKeyBytes: vmStorageKeyBytesMax,
  storageValueBytes: vmStorageValueBytesMax,
  variableNameBytes: vmVariableNameBytesMax,
});

/** Bytes allowed in a variable name: [A-Za-z0-9_]. */
const nameByte = new Uint8Array(256);
for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_') nameByte[ch.charCodeAt(0)] = 1;
const isAddressType = (type: number): boolean => Object.values(AddressType).includes(type as never);
const utf8 = new TextDecoder('utf-8');
/** One character per byte, for variable names (checked to be [A-Za-z0-9_] first). */
const byteString = (bytes: Uint8Array): string => String.fromCharCode.apply(null, bytes as unknown as number[]);

/** A storage entry a host call names: the variable and the key (copied out of memory). */
interface Entry {
  readonly name: string;
  readonly key: Uint8Array;
}

/** The variable names seen last, checked and decoded once: a contract uses a handful, on every storage call. */
const namesKept = 8;

const hosts = new WeakMap<GasSchedule, Host>();

/** The shared host of `schedule` (one per prepare version). */
export function hostOf(schedule: GasSchedule): Host {
  let host = hosts.get(schedule);
  if (!host) {
    host = createHost(schedule);
    hosts.set(schedule, host);
  }
  return host;
}

function createHost(schedule: GasSchedule): Host {
  const g = schedule.host;
  const call = (): HostCall => host.current!;

  const charge = (c: HostCall, amount: number): void => {
    const left = (c.gas!.value as bigint) - BigInt(amount);
    c.gas!.value = left;
    if (left < 0n) throw new OutOfGasSignal();
  };
  // A detached buffer's views have length 0, so only then is the memory asked for its new one.
  const memoryBytes = (c: HostCall): Uint8Array => (c.view.length > 0 ? c.view : (c.view = new Uint8Array(c.memory.buffer)));
  const region = (c: HostCall, ptr: number, len: number): Uint8Array => {
    const bytes = memoryBytes(c);
    const start = ptr >>> 0;
    const length = len >>> 0;
    if (start + length > bytes.length) throw new HostTrapSignal(`memory access [${start}, ${start + length}) out of bounds`);
    return bytes.subarray(start, start + length);
  };
  const write = (c: HostCall, ptr: number, data: Uint8Array): void => region(c, ptr, data.length).set(data);
  const names: { readonly bytes: Uint8Array; readonly name: string }[] = [];
  let nextName = 0;
  const variableName = (bytes: Uint8Array): string => {
    seen: for (const kept of names) {
      if (kept.bytes.length !== bytes.length) continue;
      for (let i = 0; i < bytes.length; i++) if (kept.bytes[i] !== bytes[i]) continue seen;
      return kept.name;
    }
    for (let i = 0; i < bytes.length; i++) if (!nameByte[bytes[i]!]) throw new HostTrapSignal('a variable name outside [A-Za-z0-9_]');
    const name = byteString(bytes);
    names[nextName] = { bytes: bytes.slice(), name };
    nextName = (nextName + 1) % namesKept;
    return name;
  };
  const entry = (c: HostCall, vp: number, vl: number, kp: number, kl: number): Entry => {
    if (vl >>> 0 > max.variableNameBytes || vl === 0) throw new HostTrapSignal(`a variable name of ${vl >>> 0} bytes`);
    const name = variableName(region(c, vp, vl));
    if (kl >>> 0 > max.storageKeyBytes) throw new HostTrapSignal(`a storage key of ${kl >>> 0} bytes`);
    return { name, key: region(c, kp, kl).slice() };
  };
  const read = (c: HostCall, e: Entry): Uint8Array | undefined => {
    const pending = c.writes.get(e.name, e.key);
    return pending ? pending.value : c.storage.get(e.name, e.key);
  };

  const functions: Record<HostFunctionName, (...args: never[]) => unknown> = {
    input_len: () => {
      const c = call();
      charge(c, g.context);
      return c.input.length;
    },
    input_read: (ptr: number) => {
      const c = call();
      charge(c, g.copyBase + g.copyByte * c.input.length);
      write(c, ptr, c.input);
    },
    set_return: (ptr: number, len: number) => {
      const c = call();
      charge(c, g.copyBase + g.copyByte * (len >>> 0));
      if (len >>> 0 > max.returnBytes) throw new HostTrapSignal(`return data of ${len >>> 0} bytes`);
      c.returnData = region(c, ptr, len).slice();
    },
    revert: (ptr: number, len: number) => {
      const c = call();
      charge(c, g.copyBase + g.copyByte * (len >>> 0));
      const bytes = region(c, ptr, len);
      throw new RevertSignal(utf8.decode(bytes.subarray(0, max.revertMessageBytes)));
    },
    abort: (messagePtr: number) => {
      const c = call();
      charge(c, g.copyBase);
      throw new RevertSignal(assemblyScriptString(memoryBytes(c), messagePtr >>> 0));
    },
    storage_read: (vp: number, vl: number, kp: number, kl: number, out: number, cap: number) => {
      const c = call();
      charge(c, g.readBase + g.readKeyByte * ((vl >>> 0) + (kl >>> 0)));
      const value = read(c, entry(c, vp, vl, kp, kl));
      if (value === undefined) return -1;
      charge(c, g.readValueByte * value.length);
      if (value.length <= cap >>> 0) write(c, out, value);
      return value.length;
    },
    storage_write: (vp: number, vl: number, kp: number, kl: number, valp: number, vall: number) => {
      const c = call();
      charge(c, g.writeBase + g.writeByte * ((vl >>> 0) + (kl >>> 0) + (vall >>> 0)));
      if (vall >>> 0 > max.storageValueBytes) throw new HostTrapSignal(`a stored value of ${vall >>> 0} bytes`);
      const e = entry(c, vp, vl, kp, kl);
      if (read(c, e) === undefined) charge(c, g.newEntry);
      c.writes.set({ variable: e.name, key: e.key, value: region(c, valp, vall).slice() });
    },
    storage_remove: (vp: number, vl: number, kp: number, kl: number) => {
      const c = call();
      charge(c, g.removeBase + g.readKeyByte * ((vl >>> 0) + (kl >>> 0)));
      const e = entry(c, vp, vl, kp, kl);
      const existed = read(c, e) !== undefined;
      c.writes.set({ variable: e.name, key: e.key, value: undefined });
      return existed ? 1 : 0;
    },
    storage_has: (vp: number, vl: number, kp: number, kl: number) => {
      const c = call();
      charge(c, g.hasBase + g.readKeyByte * ((vl >>> 0) + (kl >>> 0)));
      return read(c, entry(c, vp, vl, kp, kl)) === undefined ? 0 : 1;
    },
    caller: (out: number) => {
      const c = call();
      charge(c, g.context);
      write(c, out, c.context.caller);
    },
    self_address: (out: number) => {
      const c = call();
      charge(c, g.context);
      write(c, out, c.context.self);
    },
    value: () => {
      const c = call();
      charge(c, g.context);
      return BigInt.asIntN(64, c.context.value);
    },
    balance: () => {
      const c = call();
      charge(c, g.context);
      return BigInt.asIntN(64, c.spendable);
    },
    transfer_value: (to: number, amount: bigint) => {
      const c = call();
      charge(c, g.transfer);
      const recipient = region(c, to, addressBytes).slice();
      if (!isAddressType(recipient[0]!)) throw new HostTrapSignal(`transfer to an address of unknown type ${recipient[0]}`);
      const units = BigInt.asUintN(64, amount);
      if (units > c.spendable) throw new HostTrapSignal(`transfer of ${units} with ${c.spendable} spendable`);
      c.spendable -= units;
      c.transfers.push({ to: recipient, amount: units });
    },
    block_height: () => {
      const c = call();
      charge(c, g.context);
      return BigInt.asIntN(64, c.context.blockHeight);
    },
    block_timestamp: () => {
      const c = call();
      charge(c, g.context);
      return BigInt.asIntN(64, c.context.blockTimestamp);
    },
    gas_left: () => {
      const c = call();
      charge(c, g.context);
      return c.gas!.value as bigint;
    },
    emit_event: (tp: number, tl: number, dp: number, dl: number) => {
      const c = call();
      charge(c, g.eventBase + g.eventByte * ((tl >>> 0) + (dl >>> 0)));
      if (tl >>> 0 > max.eventTopicBytes || dl >>> 0 > max.eventDataBytes) throw new HostTrapSignal('an event over its size limit');
      if (c.events.length >= max.events) throw new HostTrapSignal(`more than ${max.events} events`);
      c.events.push({ topic: region(c, tp, tl).slice(), data: region(c, dp, dl).slice() });
    },
    blake3: (ptr: number, len: number, out: number) => {
      const c = call();
      charge(c, g.hashBase + g.hashByte * (len >>> 0));
      if (len >>> 0 > max.hashInputBytes) throw new HostTrapSignal(`hashing ${len >>> 0} bytes`);
      write(c, out, blake3(region(c, ptr, len)));
    },
  };

  const host: Host = { imports: { env: { ...functions } }, current: undefined };
  return host;
}

/** AssemblyScript's string at `ptr`: UTF-16LE, its byte length in the u32 before it (runtime header). Bounded. */
function assemblyScriptString(memory: Uint8Array, ptr: number): string {
  if (ptr < 4 || ptr > memory.length) return 'abort';
  const view = new DataView(memory.buffer, memory.byteOffset, memory.byteLength);
  const bytes = Math.min(view.getUint32(ptr - 4, true), max.revertMessageBytes * 2, memory.length - ptr);
  let text = '';
  for (let i = 0; i + 1 < bytes; i += 2) text += String.fromCharCode(view.getUint16(ptr + i, true));
  return text;
}
