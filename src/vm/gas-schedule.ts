/**
 * The gas schedule of prepare version 1 (docs/contracts.md "Gas schedule"). Aim: 1 gas ≈ 1 ns of work on a
 * reference desktop under V8; the shape follows NEAR (flat per instruction, metered blocks) and the Cosmos SDK KV
 * gas config for storage. It is consensus: a change is a new prepare version activated at a fork height, and old
 * contracts are re-prepared under it (src/vm/prepare.ts).
 */
import { Op } from './opcodes.ts';

export interface GasSchedule {
  /** Every instruction but the structural ones below. */
  readonly instruction: number;
  /** Extra for `call` and `call_indirect` (on top of `instruction`); the callee's frame is charged on entry. */
  readonly call: number;
  /** Per frame slot of the callee (params + locals + operand height + fixed part), charged at function entry. */
  readonly frameSlot: number;
  /** The overhead of one inline charge itself, added to each metered block that is charged. */
  readonly meteredBlock: number;
  /** Every call: instantiating the module, whether or not it was cached (cache state must not change gas). */
  readonly instantiate: number;
  /** Every call, per byte of the module as deployed (not as instrumented, so instrumenter changes keep gas). */
  readonly codeByte: number;
  /** Every call, per 64 KiB page of the fixed memory (it is zeroed on each fresh instance). */
  readonly memoryPage: number;
  readonly host: HostGas;
}

/** Host-call gas, charged before the host does the work (docs/contracts.md "Host ABI"). */
export interface HostGas {
  /** input_len, caller, self_address, value, balance, block_height, block_timestamp, gas_left. */
  readonly context: number;
  /** input_read, set_return, revert, abort: base + per byte moved. */
  readonly copyBase: number;
  readonly copyByte: number;
  /** storage_read: base + per byte of variable name and key, + per byte of the value read (charged before the copy). */
  readonly readBase: number;
  readonly readKeyByte: number;
  readonly readValueByte: number;
  /** storage_write: base + per byte of name, key and value, + `newEntry` when it creates an entry (state growth). */
  readonly writeBase: number;
  readonly writeByte: number;
  readonly newEntry: number;
  /** storage_remove and storage_has: base + per byte of name and key. */
  readonly removeBase: number;
  readonly hasBase: number;
  /** emit_event: base + per byte of topic and data. */
  readonly eventBase: number;
  readonly eventByte: number;
  /** blake3: base + per byte hashed (noble's pure-JS BLAKE3). */
  readonly hashBase: number;
  readonly hashByte: number;
  /** transfer_value: two account writes when the call succeeds. */
  readonly transfer: number;
}

/** The fixed part of every frame's stack-budget cost: return address, frame pointer, instrumentation temporaries. */
export const frameBaseSlots = 8;

export const gasScheduleV1: GasSchedule = Object.freeze({
  instruction: 1,
  call: 5,
  frameSlot: 1,
  meteredBlock: 2,
  instantiate: 10_000,
  codeByte: 1,
  memoryPage: 1_000,
  host: Object.freeze({
    context: 100,
    copyBase: 200,
    copyByte: 3,
    readBase: 2_000,
    readKeyByte: 3,
    readValueByte: 1,
    writeBase: 5_000,
    writeByte: 30,
    newEntry: 20_000,
    removeBase: 2_000,
    hasBase: 1_500,
    eventBase: 500,
    eventByte: 10,
    hashBase: 500,
    hashByte: 20,
    transfer: 9_000,
  }),
});

/** Gas of one instruction: structural markers (block, loop, else, end, nop) cost nothing, calls cost extra. */
export function instructionGas(schedule: GasSchedule, op: number): number {
  if (op === Op.block || op === Op.loop || op === Op.else || op === Op.end || op === Op.nop) return 0;
  if (op === Op.call || op === Op.callIndirect) return schedule.instruction + schedule.call;
  return schedule.instruction;
}

/** Gas every call pays before the contract runs: instantiation, code size and memory. */
export function callBaseGas(schedule: GasSchedule, codeBytes: number, memoryPages: number): number {
  return schedule.instantiate + schedule.codeByte * codeBytes + schedule.memoryPage * memoryPages;
}

/**
 * Transaction-level gas of the contract kinds (Ethereum-like): every contract transaction pays `txBase`, plus
 * `inputByte` per byte of parameters (and method name); a deploy adds `deployBase` and `deployCodeByte` per byte of
 * code (storing it in state forever and preparing it). Charged before the VM runs; the rest of the gas limit is the
 * VM's.
 */
const txGasV1 = Object.freeze({ txBase: 21_000, inputByte: 16, deployBase: 32_000, deployCodeByte: 200 });

export function deployIntrinsicGas(codeBytes: number, paramBytes: number): bigint {
  const g = txGasV1;
  return BigInt(g.txBase + g.deployBase + g.deployCodeByte * codeBytes + g.inputByte * paramBytes);
}

export function callIntrinsicGas(methodBytes: number, paramBytes: number): bigint {
  return BigInt(txGasV1.txBase + txGasV1.inputByte * (methodBytes + paramBytes));
}
