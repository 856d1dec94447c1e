/**
 * execute(): one contract call on a fresh instance of a prepared module (docs/contracts.md "Results and faults").
 *
 * Gas: the call first pays its base (instantiation, code bytes, memory pages: the same whether or not the compiled
 * module was cached), then the rest is put in the module's gas global, which the inline metering and the host
 * functions lower. A call ends in exactly one typed result — ok, revert (the contract's message), out_of_gas, trap,
 * stack_exhausted, no_entry — each with the gas it used; only `ok` hands back storage writes, events and return
 * data, so a failed call changes nothing but still pays. What the engine itself fails at (a RangeError for stack or
 * memory, a refused module) is thrown as VmFaultError: a node fault, never a consensus result.
 */
import { assert } from '../errors.ts';
import { vmInputBytesMax, vmStackSlotsMax } from '../limits.ts';
import { compareBytes } from '../util/bytes.ts';
import { VmFaultError } from './errors.ts';
import { callBaseGas } from './gas-schedule.ts';
import { callExport, gasGlobalExport, memoryImport, stackGlobalExport } from './host-abi.ts';
import {
  createHostCall,
  HostTrapSignal,
  OutOfGasSignal,
  RevertSignal,
  type CallContext,
  type ContractEvent,
  type ContractStoragePort,
  type HostCall,
  type StorageWrite,
  type ValueTransfer,
} from './host-functions.ts';
import { hostOf, type Host } from './host/host-imports.ts';
import { releaseMemory, takeMemory } from './memory-pool.ts';
import type { PreparedContract } from './prepare.ts';

export interface CallRequest {
  readonly prepared: PreparedContract;
  /** The exported function to run: an entry point not starting with `__`; `init` only when `deploy` is set. */
  readonly entry: string;
  /** Canonical parameter bytes (src/vm/abi.ts), read by the contract through input_len/input_read. */
  readonly input: Uint8Array;
  readonly context: CallContext;
  readonly storage: ContractStoragePort;
  readonly gasLimit: bigint;
  /** A deploy's constructor call: allows the `init` entry point. */
  readonly deploy?: boolean;
}

export type CallResult =
  | {
      readonly status: 'ok';
      readonly gasUsed: bigint;
      readonly returnData: Uint8Array;
      /** Storage changes in (variable, key) order, for the caller to commit. */
      readonly writes: readonly StorageWrite[];
      readonly events: readonly ContractEvent[];
      /** Base units the contract sends out, in call order, for the caller to apply after `value` arrived. */
      readonly transfers: readonly ValueTransfer[];
    }
  | { readonly status: 'revert'; readonly gasUsed: bigint; readonly message: string }
  | { readonly status: 'out_of_gas'; readonly gasUsed: bigint }
  | { readonly status: 'stack_exhausted'; readonly gasUsed: bigint }
  /** A Wasm trap or an ABI misuse. `detail` is the engine's or host's text: informative, not consensus. */
  | { readonly status: 'trap'; readonly gasUsed: bigint; readonly detail: string }
  | { readonly status: 'no_entry'; readonly gasUsed: bigint; readonly detail: string };

export type CallStatus = CallResult['status'];

/** The constructor's name: run once, by the deploy. */
export const constructorEntry = 'init';
/** AssemblyScript's exported start function (asc --exportStart): run first on every fresh instance, under metering. */
const startEntry = '__start';

const compiled = new WeakMap<PreparedContract, WebAssembly.Module>();

function compile(prepared: PreparedContract): WebAssembly.Module {
  let module = compiled.get(prepared);
  if (!module) {
    try {
      module = new WebAssembly.Module(prepared.code);
    } catch (cause) {
      throw new VmFaultError('the engine refused a prepared module', cause);
    }
    compiled.set(prepared, module);
  }
  return module;
}

/** Why `entry` may not be called, or undefined when it may. */
function entryRefusal(prepared: PreparedContract, entry: string, deploy: boolean): string | undefined {
  if (entry.startsWith('__')) return `${entry} is internal`;
  if (entry === constructorEntry && !deploy) return `${entry} is the constructor, run only by the deploy`;
  if (!prepared.entryPoints.includes(entry)) return `the contract exports no method ${entry} of type () -> ()`;
  return undefined;
}

export function execute(request: CallRequest): CallResult {
  const { prepared, gasLimit } = request;
  // The gas global is an i64: a larger limit would wrap. Transactions bound it far lower (contractTxGasLimitMax).
  assert(gasLimit >= 0n && gasLimit < 1n << 62n, `gas limit ${gasLimit} outside [0, 2^62)`);
  if (request.input.length > vmInputBytesMax) throw new VmFaultError(`input of ${request.input.length} bytes reached execute (bound at the edge)`);
  const base = BigInt(callBaseGas(prepared.schedule, prepared.originalBytes, prepared.memoryPages));
  if (gasLimit < base) return { status: 'out_of_gas', gasUsed: gasLimit };
  const refusal = entryRefusal(prepared, request.entry, request.deploy ?? false);
  if (refusal) return { status: 'no_entry', gasUsed: base, detail: refusal };

  const module = compile(prepared);
  const host = hostOf(prepared.schedule);
  const memory = takeMemory(prepared.memoryPages);
  const call = createHostCall(request.input, request.context, request.storage, memory);
  const outer = host.current; // a call made from inside a host function (none is today) resumes the outer one after
  host.current = call;
  try {
    return run(request, module, host, call, base);
  } finally {
    host.current = outer;
    releaseMemory(memory, prepared.memoryPages);
  }
}

function run(request: CallRequest, module: WebAssembly.Module, host: Host, call: HostCall, base: bigint): CallResult {
  const { prepared, gasLimit } = request;
  let instance: WebAssembly.Instance;
  try {
    host.imports.env[memoryImport] = call.memory;
    instance = new WebAssembly.Instance(module, host.imports);
  } catch (cause) {
    throw new VmFaultError('instantiating a prepared module failed', cause);
  }
  const exports = instance.exports;
  const gas = exports[gasGlobalExport] as WebAssembly.Global;
  const sp = exports[stackGlobalExport] as WebAssembly.Global;
  const dispatch = exports[callExport] as (entry: number) => void;
  call.gas = gas;
  gas.value = gasLimit - base;
  const start = prepared.entryPoints.indexOf(startEntry);
  try {
    if (start >= 0) dispatch(start);
    dispatch(prepared.entryPoints.indexOf(request.entry));
  } catch (error) {
    return classify(error, gasUsed(gasLimit, gas), (gas.value as bigint) < 0n, (sp.value as number) > vmStackSlotsMax);
  }
  const writes = [...call.writes.values()].sort(byEntry);
  return { status: 'ok', gasUsed: gasUsed(gasLimit, gas), returnData: call.returnData, writes, events: call.events, transfers: call.transfers };
}

/** (variable, key) order: how a call's writes are handed back. */
function byEntry(a: StorageWrite, b: StorageWrite): number {
  return a.variable < b.variable ? -1 : a.variable > b.variable ? 1 : compareBytes(a.key, b.key);
}

function gasUsed(gasLimit: bigint, gas: WebAssembly.Global): bigint {
  const left = gas.value as bigint;
  return gasLimit - (left > 0n ? left : 0n);
}

function classify(error: unknown, gasUsed: bigint, outOfGas: boolean, stackExhausted: boolean): CallResult {
  if (error instanceof RangeError) throw new VmFaultError(`engine resource error: ${error.message}`, error);
  // Order matters: the inline charge and the host both leave gas below zero; the prologue leaves sp above the budget.
  if (outOfGas) return { status: 'out_of_gas', gasUsed };
  if (error instanceof OutOfGasSignal) throw new VmFaultError('out-of-gas signal with gas left');
  if (stackExhausted) return { status: 'stack_exhausted', gasUsed };
  if (error instanceof RevertSignal) return { status: 'revert', gasUsed, message: error.message };
  if (error instanceof HostTrapSignal) return { status: 'trap', gasUsed, detail: error.message };
  if (error instanceof WebAssembly.RuntimeError) return { status: 'trap', gasUsed, detail: error.message };
  throw error; // a bug in the host (a TypeError, an assertion): crash loudly
}
