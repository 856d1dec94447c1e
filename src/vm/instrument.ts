/**
 * Emits the instrumented module (docs/contracts.md "Instrumentation") from a parsed module and its scanned bodies:
 *
 * - two globals appended after the module's own (so no index moves and no original instruction can name them):
 *   `__weft_gas` (mut i64, gas left) and `__weft_sp` (mut i32, stack-budget slots in use), both exported;
 * - the memory fixed at initial = maximum = its declared maximum, and imported as `env.__weft_memory` after the
 *   host functions rather than defined, so the host can hand each call a zeroed memory from a pool instead of having
 *   the engine reserve a new one per instance (memory-pool.ts);
 * - two locals appended to every body (sp0 i32, gas-left i64), and every body rewritten as
 *       if ((sp0 = sp) > max − frame | (gas -= entry) < 0) { <cold path> unreachable }   ;; one test on entry
 *       sp = sp0 + frame;  block (result T)  <body, return → br>  end;  sp = sp0          ;; only if it calls
 *   with a charge `gas -= n; if (gas < 0) unreachable` before each further metered block. A leaf (no call) keeps
 *   sp as it is: its frame was checked on entry and no deeper frame can see it. The cold path leaves the globals
 *   as two separate checks would (over the budget: gas as before the entry charge, sp above the budget), which is
 *   how the host tells stack exhaustion and out-of-gas from other traps (execute.ts).
 *
 * - one more function, the dispatcher `__weft_call(i)` (its type appended too), which with the two globals is all
 *   the module exports: the contract's own exports are dropped, since the engine builds every export of every
 *   instance (emitDispatcher).
 *
 * The types, function imports, functions, table, elements and data are copied byte for byte (with the appended
 * entries after them); custom sections are dropped. The output is a pure function of the input and the schedule.
 */
import { vmStackSlotsMax } from '../limits.ts';
import { resultBlockType, type ScannedBody } from './code-scan.ts';
import { callExport, gasGlobalExport, hostModuleName, memoryImport, stackGlobalExport } from './host-abi.ts';
import { ExportKind, type ParsedModule } from './wasm-module.ts';
import { emptyBlockType, Op, ValType } from './opcodes.ts';
import { createCursor, readU32 } from './wasm-cursor.ts';
import { createWriter, type WasmWriter } from './wasm-writer.ts';

const SectionId = { type: 1, import: 2, function: 3, table: 4, memory: 5, global: 6, export: 7, element: 9, code: 10, data: 11 } as const;

/** Locals the instrumenter appends after the function's own (so no original index moves). */
interface Temps {
  /** i32: the stack budget in use when the function was entered. */
  readonly sp0: number;
  /** i64: the gas left after the latest charge, so a charge reads the global once. */
  readonly gasLeft: number;
}

/** `gas -= n; if (gas < 0) unreachable`, reading and writing the global once. */
function charge(w: WasmWriter, g: Globals, t: Temps, gas: number): void {
  w.u8(Op.globalGet).u32(g.gas).u8(Op.i64Const).s64(BigInt(gas)).u8(Op.i64Sub).u8(Op.localTee).u32(t.gasLeft).u8(Op.globalSet).u32(g.gas);
  w.u8(Op.localGet).u32(t.gasLeft).u8(Op.i64Const).s64(0n).u8(Op.i64LtS);
  w.u8(Op.if).u8(emptyBlockType).u8(Op.unreachable).u8(Op.end);
}

interface Globals {
  readonly gas: number;
  readonly sp: number;
}

/**
 * The function entry: one test for both the stack budget (sp0 + frame > max) and the entry charge, so the common
 * path takes one branch. The cold path leaves the globals as the two separate checks of version 1 did — over the
 * budget: gas as before the entry charge and sp above the budget (stack_exhausted); else gas below zero.
 */
function prologue(w: WasmWriter, g: Globals, t: Temps, body: ScannedBody): void {
  const headroom = vmStackSlotsMax - body.frameSlots; // may be negative: then every entry is over the budget
  w.u8(Op.globalGet).u32(g.sp).u8(Op.localTee).u32(t.sp0).u8(Op.i32Const).s32(headroom).u8(Op.i32GtS);
  w.u8(Op.globalGet).u32(g.gas).u8(Op.i64Const).s64(BigInt(body.entryGas)).u8(Op.i64Sub).u8(Op.localTee).u32(t.gasLeft).u8(Op.globalSet).u32(g.gas);
  w.u8(Op.localGet).u32(t.gasLeft).u8(Op.i64Const).s64(0n).u8(Op.i64LtS).u8(Op.i32Or);
  w.u8(Op.if).u8(emptyBlockType);
  w.u8(Op.localGet).u32(t.sp0).u8(Op.i32Const).s32(headroom).u8(Op.i32GtS);
  w.u8(Op.if).u8(emptyBlockType);
  w.u8(Op.localGet).u32(t.gasLeft).u8(Op.i64Const).s64(BigInt(body.entryGas)).u8(Op.i64Add).u8(Op.globalSet).u32(g.gas);
  w.u8(Op.localGet).u32(t.sp0).u8(Op.i32Const).s32(body.frameSlots).u8(Op.i32Add).u8(Op.globalSet).u32(g.sp);
  w.u8(Op.end).u8(Op.unreachable).u8(Op.end);
  // Only a function that calls needs its frame counted while it runs; a leaf's frame was checked above.
  if (body.makesCalls) w.u8(Op.localGet).u32(t.sp0).u8(Op.i32Const).s32(body.frameSlots).u8(Op.i32Add).u8(Op.globalSet).u32(g.sp);
}

/** The locals declaration with the instrumenter's two temporaries appended as groups of one. */
function emitLocals(w: WasmWriter, bytes: Uint8Array, body: ScannedBody): void {
  const c = createCursor(bytes, body.locals.start, body.locals.end);
  const groups = readU32(c);
  w.u32(groups + 2).bytes(bytes.subarray(c.pos, body.locals.end));
  w.u32(1).u8(ValType.i32).u32(1).u8(ValType.i64);
}

function emitBody(bytes: Uint8Array, body: ScannedBody, g: Globals): Uint8Array {
  const w = createWriter(body.code.end - body.locals.start + 96);
  const t: Temps = { sp0: body.localCount, gasLeft: body.localCount + 1 };
  emitLocals(w, bytes, body);
  prologue(w, g, t, body);
  // A leaf leaves sp alone, so it needs no epilogue: its returns stay returns and its body stays unwrapped.
  const wrapped = body.makesCalls;
  if (wrapped) w.u8(Op.block).u8(resultBlockType(body.type));
  let from = body.code.start;
  for (const edit of body.edits) {
    w.bytes(bytes.subarray(from, edit.at));
    from = edit.at;
    if (edit.kind === 'charge') {
      charge(w, g, t, edit.gas);
    } else if (wrapped) {
      w.u8(Op.br).u32(edit.depth);
      from = edit.at + 1; // `return` is one byte
    }
  }
  w.bytes(bytes.subarray(from, body.code.end)); // ends with the body's own `end` (closing the wrapper if there is one)
  if (wrapped) w.u8(Op.localGet).u32(t.sp0).u8(Op.globalSet).u32(g.sp).u8(Op.end);
  return w.finish();
}

/** An entry point: an exported () → () function, by its export name. */
export interface EntryPoint {
  readonly name: string;
  readonly index: number;
}

/**
 * `__weft_call(i)`: calls entries[i] and returns, traps on an index past the end. One export instead of one per entry
 * point, because the engine builds every export of every instance (V8: microseconds each, most of instantiation).
 * Host glue, not contract code: no charge and no frame, so gas and the stack budget are as if the entry were called
 * directly.
 */
function emitDispatcher(entries: readonly EntryPoint[]): Uint8Array {
  const w = createWriter(16 + entries.length * 8).u32(0); // no locals
  for (let k = 0; k <= entries.length; k++) w.u8(Op.block).u8(emptyBlockType);
  w.u8(Op.localGet).u32(0).u8(Op.brTable).u32(entries.length);
  entries.forEach((_, k) => w.u32(k));
  w.u32(entries.length).u8(Op.end); // default: the outermost block, past every call
  for (const entry of entries) w.u8(Op.call).u32(entry.index).u8(Op.return).u8(Op.end);
  return w.u8(Op.unreachable).u8(Op.end).finish();
}

export interface InstrumentOptions {
  /** Also export the original module's exports as they are (tests and the metering bench call non-entry functions). */
  readonly keepExports?: boolean;
}

export function instrumentModule(module: ParsedModule, bodies: readonly ScannedBody[], entries: readonly EntryPoint[], options: InstrumentOptions = {}): Uint8Array<ArrayBuffer> {
  const { bytes, sections } = module;
  const gasGlobal = module.globalCount;
  const spGlobal = module.globalCount + 1;
  // The dispatcher's type and function come after all of the module's own, so no index moves.
  const dispatcherType = module.types.length;
  const dispatcher = module.funcTypes.length;
  const out = createWriter(bytes.length * 2 + 256);
  out.bytes(bytes.subarray(0, 8));
  const copy = (id: number): void => {
    const range = sections.get(id);
    if (range) out.section(id, bytes.subarray(range.start, range.end));
  };
  /** A vector section with `added` more entries (`extra`) after the module's own, which are copied as they are. */
  const extend = (id: number, added: number, extra: Uint8Array): void => {
    const range = sections.get(id);
    const w = createWriter(64 + extra.length + (range ? range.end - range.start : 0));
    if (range) {
      const c = createCursor(bytes, range.start, range.end);
      w.u32(readU32(c) + added).bytes(bytes.subarray(c.pos, range.end));
    } else {
      w.u32(added);
    }
    out.section(id, w.bytes(extra).finish());
  };

  extend(SectionId.type, 1, createWriter(8).u8(0x60).u32(1).u8(ValType.i32).u32(0).finish());
  // The memory, now imported after the host functions: memory index 0 is the only memory either way, and function
  // indices count function imports only, so no index in the code moves.
  const memoryType = createWriter(8).u8(0x01).u32(module.memoryPages).u32(module.memoryPages).finish();
  extend(SectionId.import, 1, createWriter(32).name(hostModuleName).name(memoryImport).u8(ExportKind.memory).bytes(memoryType).finish());
  extend(SectionId.function, 1, createWriter(8).u32(dispatcherType).finish());
  copy(SectionId.table);

  const globals = createWriter(64).u32(module.globalCount + 2);
  if (module.globalEntries) globals.bytes(bytes.subarray(module.globalEntries.start, module.globalEntries.end));
  globals.u8(ValType.i64).u8(1).u8(Op.i64Const).s64(0n).u8(Op.end);
  globals.u8(ValType.i32).u8(1).u8(Op.i32Const).s32(0).u8(Op.end);
  out.section(SectionId.global, globals.finish());

  const exports = createWriter(64).u32(3 + (options.keepExports ? module.exports.length : 0));
  exports.name(callExport).u8(ExportKind.func).u32(dispatcher);
  exports.name(gasGlobalExport).u8(ExportKind.global).u32(gasGlobal);
  exports.name(stackGlobalExport).u8(ExportKind.global).u32(spGlobal);
  if (options.keepExports && module.exportEntries) exports.bytes(bytes.subarray(module.exportEntries.start, module.exportEntries.end));
  out.section(SectionId.export, exports.finish());

  copy(SectionId.element);

  const code = createWriter(bytes.length + bodies.length * 96).u32(bodies.length + 1);
  for (const body of bodies) {
    const emitted = emitBody(bytes, body, { gas: gasGlobal, sp: spGlobal });
    code.u32(emitted.length).bytes(emitted);
  }
  const dispatch = emitDispatcher(entries);
  code.u32(dispatch.length).bytes(dispatch);
  out.section(SectionId.code, code.finish());

  copy(SectionId.data);
  return out.finish();
}
