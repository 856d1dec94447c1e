/**
 * The `env` imports of every prepared module (host-abi.ts): the host functions of one gas schedule, built once and
 * shared by every instance. They serve whichever call is `current` (its HostCall, host-functions.ts), so a call
 * costs no closures and the engine sees the same import functions each time. Every host function charges its gas
 * before it does the work (docs/contracts.md "Host ABI").
 */
import type { GasSchedule } from '../gas-schedule.ts';
import type { HostFunctionName } from '../host-abi.ts';
import type { HostCall } from '../host-functions.ts';
import { abort, inputLen, inputRead, revert, setReturn } from './call-data.ts';
import { blockHeight, blockTimestamp, callValue, caller, gasLeft, selfAddress, spendableBalance } from './call-context.ts';
import { blake3Hash, emitEvent, transferValue } from './effects.ts';
import { storageHas, storageRead, storageRemove, storageWrite } from './storage-functions.ts';
import { createVariableNames } from './storage-entry.ts';

/** The host functions of one gas schedule and the call they serve now. */
export interface Host {
  /** The `env` imports of every prepared module: the host functions, and the memory of the call being started. */
  readonly imports: { readonly env: Record<string, WebAssembly.ImportValue> };
  current: HostCall | undefined;
}

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
  const names = createVariableNames();
  const host: Host = { imports: { env: {} }, current: undefined };
  const functions: Record<HostFunctionName, (...args: never[]) => unknown> = {
    input_len: () => inputLen(host.current!, g),
    input_read: (ptr: number) => inputRead(host.current!, g, ptr),
    set_return: (ptr: number, len: number) => setReturn(host.current!, g, ptr, len),
    revert: (ptr: number, len: number) => revert(host.current!, g, ptr, len),
    abort: (messagePtr: number) => abort(host.current!, g, messagePtr),
    storage_read: (vp: number, vl: number, kp: number, kl: number, out: number, cap: number) => storageRead(host.current!, g, names, vp, vl, kp, kl, out, cap),
    storage_write: (vp: number, vl: number, kp: number, kl: number, valp: number, vall: number) => storageWrite(host.current!, g, names, vp, vl, kp, kl, valp, vall),
    storage_remove: (vp: number, vl: number, kp: number, kl: number) => storageRemove(host.current!, g, names, vp, vl, kp, kl),
    storage_has: (vp: number, vl: number, kp: number, kl: number) => storageHas(host.current!, g, names, vp, vl, kp, kl),
    caller: (out: number) => caller(host.current!, g, out),
    self_address: (out: number) => selfAddress(host.current!, g, out),
    value: () => callValue(host.current!, g),
    balance: () => spendableBalance(host.current!, g),
    transfer_value: (to: number, amount: bigint) => transferValue(host.current!, g, to, amount),
    block_height: () => blockHeight(host.current!, g),
    block_timestamp: () => blockTimestamp(host.current!, g),
    gas_left: () => gasLeft(host.current!, g),
    emit_event: (tp: number, tl: number, dp: number, dl: number) => emitEvent(host.current!, g, tp, tl, dp, dl),
    blake3: (ptr: number, len: number, out: number) => blake3Hash(host.current!, g, ptr, len, out),
  };
  Object.assign(host.imports.env, functions);
  return host;
}
