/**
 * The host side of the ABI (host-abi.ts) for one call: the `env` imports, bound to one fresh instance. Every host
 * function charges its gas before it does the work (docs/contracts.md "Host ABI"), by lowering the same exported
 * gas global the inline metering lowers; going below zero throws OutOfGasSignal with the global left negative, so
 * the classifier in execute.ts sees an out-of-gas whether wasm code or the host ran out.
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
import { toHex } from '../util/bytes.ts';
import type { GasSchedule } from './gas-schedule.ts';
import { gasGlobalExport, memoryExport, type HostFunctionName } from './host-abi.ts';

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

export interface HostState {
  readonly imports: Record<HostFunctionName, (...args: never[]) => unknown>;
  bind(instance: WebAssembly.Instance): void;
  returnData: Uint8Array;
  readonly writes: Map<string, StorageWrite>;
  readonly events: ContractEvent[];
  readonly transfers: ValueTransfer[];
}

const variableName = /^[A-Za-z0-9_]+$/;
const isAddressType = (type: number): boolean => Object.values(AddressType).includes(type as never);
const latin1 = new TextDecoder('latin1');
const utf8 = new TextDecoder('utf-8');

export function createHost(schedule: GasSchedule, input: Uint8Array, context: CallContext, storage: ContractStoragePort): HostState {
  const g = schedule.host;
  let memory: WebAssembly.Memory | undefined;
  let gas: WebAssembly.Global | undefined;

  const charge = (amount: number): void => {
    const left = (gas!.value as bigint) - BigInt(amount);
    gas!.value = left;
    if (left < 0n) throw new OutOfGasSignal();
  };
  const region = (ptr: number, len: number): Uint8Array => {
    const bytes = new Uint8Array(memory!.buffer);
    const start = ptr >>> 0;
    const length = len >>> 0;
    if (start + length > bytes.length) throw new HostTrapSignal(`memory access [${start}, ${start + length}) out of bounds`);
    return bytes.subarray(start, start + length);
  };
  const write = (ptr: number, data: Uint8Array): void => region(ptr, data.length).set(data);
  const variable = (ptr: number, len: number): string => {
    if (len >>> 0 > vmVariableNameBytesMax || len === 0) throw new HostTrapSignal(`a variable name of ${len >>> 0} bytes`);
    const name = latin1.decode(region(ptr, len));
    if (!variableName.test(name)) throw new HostTrapSignal('a variable name outside [A-Za-z0-9_]');
    return name;
  };
  const key = (ptr: number, len: number): Uint8Array => {
    if (len >>> 0 > vmStorageKeyBytesMax) throw new HostTrapSignal(`a storage key of ${len >>> 0} bytes`);
    return region(ptr, len).slice();
  };
  let spendable = (context.balance ?? 0n) + context.value;
  const slot = (name: string, k: Uint8Array): string => `${name}\u0000${toHex(k)}`;
  const read = (name: string, k: Uint8Array): Uint8Array | undefined => {
    const pending = state.writes.get(slot(name, k));
    return pending ? pending.value : storage.get(name, k);
  };

  const imports: HostState['imports'] = {
    input_len: () => (charge(g.context), input.length),
    input_read: (ptr: number) => {
      charge(g.copyBase + g.copyByte * input.length);
      write(ptr, input);
    },
    set_return: (ptr: number, len: number) => {
      charge(g.copyBase + g.copyByte * (len >>> 0));
      if (len >>> 0 > vmReturnBytesMax) throw new HostTrapSignal(`return data of ${len >>> 0} bytes`);
      state.returnData = region(ptr, len).slice();
    },
    revert: (ptr: number, len: number) => {
      charge(g.copyBase + g.copyByte * (len >>> 0));
      const bytes = region(ptr, len);
      throw new RevertSignal(utf8.decode(bytes.subarray(0, vmRevertMessageBytesMax)));
    },
    abort: (messagePtr: number) => {
      charge(g.copyBase);
      throw new RevertSignal(assemblyScriptString(new Uint8Array(memory!.buffer), messagePtr >>> 0));
    },
    storage_read: (vp: number, vl: number, kp: number, kl: number, out: number, cap: number) => {
      charge(g.readBase + g.readKeyByte * ((vl >>> 0) + (kl >>> 0)));
      const value = read(variable(vp, vl), key(kp, kl));
      if (value === undefined) return -1;
      charge(g.readValueByte * value.length);
      if (value.length <= cap >>> 0) write(out, value);
      return value.length;
    },
    storage_write: (vp: number, vl: number, kp: number, kl: number, valp: number, vall: number) => {
      charge(g.writeBase + g.writeByte * ((vl >>> 0) + (kl >>> 0) + (vall >>> 0)));
      if (vall >>> 0 > vmStorageValueBytesMax) throw new HostTrapSignal(`a stored value of ${vall >>> 0} bytes`);
      const name = variable(vp, vl);
      const k = key(kp, kl);
      if (read(name, k) === undefined) charge(g.newEntry);
      state.writes.set(slot(name, k), { variable: name, key: k, value: region(valp, vall).slice() });
    },
    storage_remove: (vp: number, vl: number, kp: number, kl: number) => {
      charge(g.removeBase + g.readKeyByte * ((vl >>> 0) + (kl >>> 0)));
      const name = variable(vp, vl);
      const k = key(kp, kl);
      const existed = read(name, k) !== undefined;
      state.writes.set(slot(name, k), { variable: name, key: k, value: undefined });
      return existed ? 1 : 0;
    },
    storage_has: (vp: number, vl: number, kp: number, kl: number) => {
      charge(g.hasBase + g.readKeyByte * ((vl >>> 0) + (kl >>> 0)));
      return read(variable(vp, vl), key(kp, kl)) === undefined ? 0 : 1;
    },
    caller: (out: number) => (charge(g.context), write(out, context.caller)),
    self_address: (out: number) => (charge(g.context), write(out, context.self)),
    value: () => (charge(g.context), BigInt.asIntN(64, context.value)),
    balance: () => (charge(g.context), BigInt.asIntN(64, spendable)),
    transfer_value: (to: number, amount: bigint) => {
      charge(g.transfer);
      const recipient = region(to, addressBytes).slice();
      if (!isAddressType(recipient[0]!)) throw new HostTrapSignal(`transfer to an address of unknown type ${recipient[0]}`);
      const units = BigInt.asUintN(64, amount);
      if (units > spendable) throw new HostTrapSignal(`transfer of ${units} with ${spendable} spendable`);
      spendable -= units;
      state.transfers.push({ to: recipient, amount: units });
    },
    block_height: () => (charge(g.context), BigInt.asIntN(64, context.blockHeight)),
    block_timestamp: () => (charge(g.context), BigInt.asIntN(64, context.blockTimestamp)),
    gas_left: () => (charge(g.context), gas!.value as bigint),
    emit_event: (tp: number, tl: number, dp: number, dl: number) => {
      charge(g.eventBase + g.eventByte * ((tl >>> 0) + (dl >>> 0)));
      if (tl >>> 0 > vmEventTopicBytesMax || dl >>> 0 > vmEventDataBytesMax) throw new HostTrapSignal('an event over its size limit');
      if (state.events.length >= vmEventsMax) throw new HostTrapSignal(`more than ${vmEventsMax} events`);
      state.events.push({ topic: region(tp, tl).slice(), data: region(dp, dl).slice() });
    },
    blake3: (ptr: number, len: number, out: number) => {
      charge(g.hashBase + g.hashByte * (len >>> 0));
      if (len >>> 0 > vmHashInputBytesMax) throw new HostTrapSignal(`hashing ${len >>> 0} bytes`);
      write(out, blake3(region(ptr, len)));
    },
  };

  const state: HostState = {
    imports,
    bind(instance) {
      memory = instance.exports[memoryExport] as WebAssembly.Memory;
      gas = instance.exports[gasGlobalExport] as WebAssembly.Global;
    },
    returnData: new Uint8Array(0),
    writes: new Map(),
    events: [],
    transfers: [],
  };
  return state;
}

/** AssemblyScript's string at `ptr`: UTF-16LE, its byte length in the u32 before it (runtime header). Bounded. */
function assemblyScriptString(memory: Uint8Array, ptr: number): string {
  if (ptr < 4 || ptr > memory.length) return 'abort';
  const view = new DataView(memory.buffer, memory.byteOffset, memory.byteLength);
  const bytes = Math.min(view.getUint32(ptr - 4, true), vmRevertMessageBytesMax * 2, memory.length - ptr);
  let text = '';
  for (let i = 0; i + 1 < bytes; i += 2) text += String.fromCharCode(view.getUint16(ptr + i, true));
  return text;
}
