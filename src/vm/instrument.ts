/**
 * Emits the instrumented module (docs/contracts.md "Instrumentation") from a parsed module and its scanned bodies:
 *
 * - two globals appended after the module's own (so no index moves and no original instruction can name them):
 *   `__weft_gas` (mut i64, gas left) and `__weft_sp` (mut i32, stack-budget slots in use), both exported, and the
 *   memory exported as `__weft_memory` for the host;
 * - the memory fixed at initial = maximum = its declared maximum;
 * - every body rewritten as
 *       sp += frameSlots; if (sp > vmStackSlotsMax) unreachable        ;; stack budget prologue
 *       block (result T)  <body with a charge before each metered block, return → br>  end
 *       sp -= frameSlots                                                ;; epilogue, reached on every normal exit
 *   where a charge is `gas -= n; if (gas < 0) unreachable`. A trap leaves sp above the budget or gas below zero,
 *   which is how the host tells stack exhaustion and out-of-gas from other traps (execute.ts).
 *
 * Unchanged sections (types, imports, functions, table, elements, data) are copied byte for byte; custom sections
 * are dropped. The output is a pure function of the input and the schedule.
 */
import { vmStackSlotsMax } from '../limits.ts';
import { resultBlockType, type ScannedBody } from './code-scan.ts';
import { gasGlobalExport, memoryExport, stackGlobalExport } from './host-abi.ts';
import { ExportKind, type ParsedModule } from './module-reader.ts';
import { emptyBlockType, Op, ValType } from './opcodes.ts';
import { createWriter, type WasmWriter } from './wasm-writer.ts';

const SectionId = { type: 1, import: 2, function: 3, table: 4, memory: 5, global: 6, export: 7, element: 9, code: 10, data: 11 } as const;

function charge(w: WasmWriter, gasGlobal: number, gas: number): void {
  w.u8(Op.globalGet).u32(gasGlobal).u8(Op.i64Const).s64(BigInt(gas)).u8(Op.i64Sub).u8(Op.globalSet).u32(gasGlobal);
  w.u8(Op.globalGet).u32(gasGlobal).u8(Op.i64Const).s64(0n).u8(Op.i64LtS);
  w.u8(Op.if).u8(emptyBlockType).u8(Op.unreachable).u8(Op.end);
}

function emitBody(bytes: Uint8Array, body: ScannedBody, gasGlobal: number, spGlobal: number): Uint8Array {
  const w = createWriter(body.code.end - body.locals.start + 64);
  w.bytes(bytes.subarray(body.locals.start, body.locals.end));
  // Prologue: claim this frame's slots, trap past the budget (sp stays above it so the host can tell why).
  w.u8(Op.globalGet).u32(spGlobal).u8(Op.i32Const).s32(body.frameSlots).u8(Op.i32Add).u8(Op.globalSet).u32(spGlobal);
  w.u8(Op.globalGet).u32(spGlobal).u8(Op.i32Const).s32(vmStackSlotsMax).u8(Op.i32GtU);
  w.u8(Op.if).u8(emptyBlockType).u8(Op.unreachable).u8(Op.end);
  w.u8(Op.block).u8(resultBlockType(body.type));
  let from = body.code.start;
  for (const edit of body.edits) {
    w.bytes(bytes.subarray(from, edit.at));
    from = edit.at;
    if (edit.kind === 'charge') {
      charge(w, gasGlobal, edit.gas);
    } else {
      w.u8(Op.br).u32(edit.depth);
      from = edit.at + 1; // `return` is one byte
    }
  }
  w.bytes(bytes.subarray(from, body.code.end)); // ends with the body's own `end`, which now closes the wrapper
  w.u8(Op.globalGet).u32(spGlobal).u8(Op.i32Const).s32(body.frameSlots).u8(Op.i32Sub).u8(Op.globalSet).u32(spGlobal);
  w.u8(Op.end);
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
  copy(SectionId.import);
  copy(SectionId.function);
  copy(SectionId.table);

  const memory = createWriter(8).u32(1).u8(0x01).u32(module.memoryPages).u32(module.memoryPages);
  out.section(SectionId.memory, memory.finish());

  const globals = createWriter(64).u32(module.globalCount + 2);
  if (module.globalEntries) globals.bytes(bytes.subarray(module.globalEntries.start, module.globalEntries.end));
  globals.u8(ValType.i64).u8(1).u8(Op.i64Const).s64(0n).u8(Op.end);
  globals.u8(ValType.i32).u8(1).u8(Op.i32Const).s32(0).u8(Op.end);
  out.section(SectionId.global, globals.finish());

  const exports = createWriter(64).u32(module.exports.length + 3);
  if (module.exportEntries) exports.bytes(bytes.subarray(module.exportEntries.start, module.exportEntries.end));
  exports.name(gasGlobalExport).u8(ExportKind.global).u32(gasGlobal);
  exports.name(stackGlobalExport).u8(ExportKind.global).u32(spGlobal);
  exports.name(memoryExport).u8(ExportKind.memory).u32(0);
  out.section(SectionId.export, exports.finish());

  copy(SectionId.element);

  if (bodies.length > 0) {
    const code = createWriter(bytes.length + bodies.length * 96).u32(bodies.length);
    for (const body of bodies) {
      const emitted = emitBody(bytes, body, gasGlobal, spGlobal);
      code.u32(emitted.length).bytes(emitted);
    }
    out.section(SectionId.code, code.finish());
  }

  copy(SectionId.data);
  return out.finish();
}
