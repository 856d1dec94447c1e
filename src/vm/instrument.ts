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
 * Unchanged sections (types, functions, table, elements, data) are copied byte for byte, the function imports
 * too; custom sections are dropped. The output is a pure function of the input and the schedule.
 */
import { vmStackSlotsMax } from '../limits.ts';
import { resultBlockType, type ScannedBody } from './code-scan.ts';
import { gasGlobalExport, hostModuleName, memoryImport, stackGlobalExport } from './host-abi.ts';
import { ExportKind, type ParsedModule } from './module-reader.ts';
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

export function instrumentModule(module: ParsedModule, bodies: readonly ScannedBody[]): Uint8Array<ArrayBuffer> {
  const { bytes, sections } = module;
  const gasGlobal = module.globalCount;
  const spGlobal = module.globalCount + 1;
  const out = createWriter(bytes.length * 2 + 256);
  out.bytes(bytes.subarray(0, 8));
  const copy = (id: number): void => {
    const range = sections.get(id);
    if (range) out.section(id, bytes.subarray(range.start, range.end));
  };

  copy(SectionId.type);

  // The module's own imports as they are, then its memory, now imported: memory index 0 is the only memory either
  // way, and function indices count function imports only, so no index in the code moves.
  const imports = createWriter(64);
  const importRange = sections.get(SectionId.import);
  if (importRange) {
    const c = createCursor(bytes, importRange.start, importRange.end);
    imports.u32(readU32(c) + 1).bytes(bytes.subarray(c.pos, importRange.end));
  } else {
    imports.u32(1);
  }
  imports.name(hostModuleName).name(memoryImport).u8(ExportKind.memory).u8(0x01).u32(module.memoryPages).u32(module.memoryPages);
  out.section(SectionId.import, imports.finish());

  copy(SectionId.function);
  copy(SectionId.table);

  const globals = createWriter(64).u32(module.globalCount + 2);
  if (module.globalEntries) globals.bytes(bytes.subarray(module.globalEntries.start, module.globalEntries.end));
  globals.u8(ValType.i64).u8(1).u8(Op.i64Const).s64(0n).u8(Op.end);
  globals.u8(ValType.i32).u8(1).u8(Op.i32Const).s32(0).u8(Op.end);
  out.section(SectionId.global, globals.finish());

  const exports = createWriter(64).u32(module.exports.length + 2);
  if (module.exportEntries) exports.bytes(bytes.subarray(module.exportEntries.start, module.exportEntries.end));
  exports.name(gasGlobalExport).u8(ExportKind.global).u32(gasGlobal);
  exports.name(stackGlobalExport).u8(ExportKind.global).u32(spGlobal);
  out.section(SectionId.export, exports.finish());

  copy(SectionId.element);

  if (bodies.length > 0) {
    const code = createWriter(bytes.length + bodies.length * 96).u32(bodies.length);
    for (const body of bodies) {
      const emitted = emitBody(bytes, body, { gas: gasGlobal, sp: spGlobal });
      code.u32(emitted.length).bytes(emitted);
    }
    out.section(SectionId.code, code.finish());
  }

  copy(SectionId.data);
  return out.finish();
}
