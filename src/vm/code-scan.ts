/**
 * One pass over a function body (WebAssembly core 1.0 §5.4, §3.3): decodes every instruction against the whitelist
 * (opcodes.ts), checks indices and the operand-stack height the way the spec's validation algorithm does (including
 * the stack-polymorphic code after br/return/unreachable), and plans the instrumentation in the same walk:
 *
 * - metered blocks (docs/contracts.md "Instrumentation"): straight-line runs of instructions that are entered only
 *   at their first instruction. A run ends after loop, if, else, end, br, br_if, br_table and return, which are the
 *   only places control can join or leave; `call` returns to where it left, so it ends nothing. Each reachable run
 *   with a non-zero cost gets one charge of (its instructions' gas + the charge's own overhead) before its first
 *   instruction. The first run's charge is not an edit: it is `entryGas`, with the function's frame cost, which the
 *   instrumenter folds into the function-entry test.
 * - `return` edits: in a function that calls, the instrumenter rewrites `return` to a `br` to the wrapper block it
 *   puts around the body (so the stack-budget epilogue runs on every way out); the depth is the number of open blocks.
 * - the frame cost: frameBaseSlots + params + locals + the maximum operand height.
 *
 * Type checking proper is left to the engine's own validation of the whole module (prepare.ts), which is
 * deterministic; this pass only needs heights, and it never trusts an index it has not bounds-checked.
 *
 * The pass's state is scan/scan-state.ts (frames, height, the metered run); one instruction is scanned by
 * scan/instruction.ts, and the instructions that open, close or leave blocks by scan/branches.ts.
 */
import { vmLocalsMax } from '../limits.ts';
import { frameBaseSlots } from './gas-schedule.ts';
import { emptyBlockType, valTypeRejection } from './opcodes.ts';
import { scanInstruction } from './scan/instruction.ts';
import { createBodyScanState, reject, type BodyEdit, type ScanContext } from './scan/scan-state.ts';
import type { ByteRange, FuncType } from './wasm-module.ts';
import { atEnd, createCursor, malformed, readU32, readU8, type WasmCursor } from './wasm-cursor.ts';

export interface ScannedBody {
  /** The locals declarations, copied unchanged. */
  readonly locals: ByteRange;
  /** The instructions, final `end` included. */
  readonly code: ByteRange;
  readonly type: FuncType;
  /** Params + declared locals: the index of the first local the instrumenter may add. */
  readonly localCount: number;
  /** Stack-budget slots one activation of this function takes. */
  readonly frameSlots: number;
  /** The function-entry charge: the first run's gas, the frame's slots and the charge's own overhead. */
  readonly entryGas: number;
  /** Whether the body contains `call` or `call_indirect` (a leaf needs no stack-budget bookkeeping). */
  readonly makesCalls: boolean;
  /** The edits after entry, in offset order (a charge before a `return` at the same offset). */
  readonly edits: readonly BodyEdit[];
}

function readLocals(c: WasmCursor): number {
  const groups = readU32(c);
  let total = 0;
  for (let i = 0; i < groups; i++) {
    const n = readU32(c);
    total += n;
    if (total > vmLocalsMax) reject('too-large', `more than ${vmLocalsMax} locals`, c.pos);
    const at = c.pos;
    const why = valTypeRejection(readU8(c));
    if (why === 'malformed') malformed('unknown local type', at);
    if (why) reject(why, 'a local of a refused type', at);
  }
  return total;
}

export function scanBody(ctx: ScanContext, range: ByteRange, funcIndex: number): ScannedBody {
  const type = ctx.types[ctx.funcTypes[funcIndex]!]!;
  const c = createCursor(ctx.bytes, range.start, range.end);
  const localCount = readLocals(c) + type.params.length;
  const locals = { start: range.start, end: c.pos };
  const codeStart = c.pos;
  const st = createBodyScanState(ctx, c, type, localCount);
  while (st.frames.length > 0) scanInstruction(st);
  if (!atEnd(c)) malformed('bytes after the function body', c.pos);

  const frameSlots = frameBaseSlots + localCount + st.maxHeight;
  const entry = (st.entryGas ?? 0) + frameSlots * ctx.schedule.frameSlot + ctx.schedule.meteredBlock;
  // Offset order; where a run starts with `return`, its charge goes first (one charge at most per offset).
  const edits = st.edits.sort((a, b) => a.at - b.at || (a.kind === 'charge' ? -1 : 1));
  return { locals, code: { start: codeStart, end: range.end }, type, localCount, frameSlots, entryGas: entry, makesCalls: st.makesCalls, edits };
}

/** The block type of a body wrapped in a block: its function's one result, or empty. */
export const resultBlockType = (type: FuncType): number => (type.results.length === 0 ? emptyBlockType : type.results[0]!);
