/**
 * The host ABI of prepare version 1 (docs/contracts.md "Host ABI"): every function a contract may import, all from
 * module `env`, with its exact Wasm type. prepare refuses any other import, and any of these with another type.
 * Pointers and lengths are i32; amounts, heights, times and gas are i64 (BigInt on the JS side).
 *
 * The implementations and their gas are in host-functions.ts and gas-schedule.ts; this table is what a module is
 * checked against, so it is the ABI's one definition.
 */
import { ValType } from './opcodes.ts';

export interface HostSignature {
  readonly params: readonly number[];
  readonly results: readonly number[];
}

const { i32, i64 } = ValType;
const sig = (params: number[], results: number[] = []): HostSignature => Object.freeze({ params, results });

export const hostModuleName = 'env';

export const hostAbi = Object.freeze({
  /** Length of the call's input (its canonical parameter bytes). */
  input_len: sig([], [i32]),
  /** Copies the input to memory at ptr. */
  input_read: sig([i32]),
  /** Sets the call's return data (the last call wins). */
  set_return: sig([i32, i32]),
  /** Ends the call as reverted with a UTF-8 message: writes, events and return data are dropped. */
  revert: sig([i32, i32]),
  /** AssemblyScript's abort(message, file, line, column): a revert whose message is the UTF-16 string at message. */
  abort: sig([i32, i32, i32, i32]),
  /** (var_ptr, var_len, key_ptr, key_len, out_ptr, out_cap) → value length, -1 when absent; copies only if it fits. */
  storage_read: sig([i32, i32, i32, i32, i32, i32], [i32]),
  /** (var_ptr, var_len, key_ptr, key_len, val_ptr, val_len). */
  storage_write: sig([i32, i32, i32, i32, i32, i32]),
  /** (var_ptr, var_len, key_ptr, key_len) → 1 if an entry was removed, else 0. */
  storage_remove: sig([i32, i32, i32, i32], [i32]),
  /** (var_ptr, var_len, key_ptr, key_len) → 1 if the entry exists, else 0. */
  storage_has: sig([i32, i32, i32, i32], [i32]),
  /** Writes the 33-byte binary address of the caller (the transaction's sender) at out_ptr. */
  caller: sig([i32]),
  /** Writes the contract's own 33-byte address at out_ptr. */
  self_address: sig([i32]),
  /** Base units transferred to the contract with this call. */
  value: sig([], [i64]),
  /** The contract's spendable base units: its balance before the call, plus `value`, minus what it sent so far. */
  balance: sig([], [i64]),
  /** (to_ptr, amount): sends base units from the contract to the 33-byte address at to_ptr, if the call succeeds. */
  transfer_value: sig([i32, i64]),
  /** DAA score of the block that accepts the call (its height on the DAG). */
  block_height: sig([], [i64]),
  /** Timestamp of that block's header, Unix seconds. */
  block_timestamp: sig([], [i64]),
  /** Gas left after this call's own cost. */
  gas_left: sig([], [i64]),
  /** (topic_ptr, topic_len, data_ptr, data_len): an event, kept only if the call succeeds. */
  emit_event: sig([i32, i32, i32, i32]),
  /** (ptr, len, out_ptr): the 32-byte BLAKE3 hash of memory[ptr, ptr+len) written at out_ptr. */
  blake3: sig([i32, i32, i32]),
} satisfies Record<string, HostSignature>);

export type HostFunctionName = keyof typeof hostAbi;

export function isHostFunctionName(name: string): name is HostFunctionName {
  return Object.hasOwn(hostAbi, name);
}

/** Names the VM itself exports from a prepared module; a contract may not export names with this prefix. */
export const reservedExportPrefix = '__weft_';
/** `(i32) → ()`: runs the entry point at that index of PreparedContract.entryPoints (the module's only function export). */
export const callExport = '__weft_call';
export const gasGlobalExport = '__weft_gas';
export const stackGlobalExport = '__weft_sp';
/** The memory a prepared module imports from `env` (initial = maximum): the host hands every call a zeroed one. */
export const memoryImport = '__weft_memory';
