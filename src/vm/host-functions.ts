/**
 * The host side of the ABI (host-abi.ts): the state of the call that is running (its HostCall: input, context,
 * storage port, memory, gas global, buffered effects) and the signals host functions throw through the engine.
 * Every host function charges its gas before it does the work (docs/contracts.md "Host ABI"), by lowering the same
 * exported gas global the inline metering lowers; going below zero throws OutOfGasSignal with the global left
 * negative, so the classifier in execute.ts sees an out-of-gas whether wasm code or the host ran out.
 *
 * Storage writes and events are buffered here and only handed back when the call succeeds; reads see the call's own
 * earlier writes first, then the storage port.
 *
 * The host functions are free functions over a HostCall, by group, in src/vm/host/ (call-data.ts, call-context.ts,
 * storage-functions.ts, effects.ts, over call-memory.ts and storage-entry.ts); host-imports.ts builds the shared
 * `env` imports of a gas schedule from them (`hostOf`).
 */
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

// StorageWrite is defined beside the buffer that holds it; it stays importable from here, where callers found it.
export type { StorageWrite } from './pending-writes.ts';

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
