/**
 * The instructions that open blocks, branch or call (WebAssembly core 1.0 §5.4.1): their immediates, their effect on
 * the frames and the operand height, and where they end a metered run (docs/contracts.md "Instrumentation").
 */
import { vmBlockDepthMax, vmBrTableTargetsMax } from '../../limits.ts';
import { emptyBlockType, Op, valTypeRejection } from '../opcodes.ts';
import { readU32, readU8, type WasmCursor } from '../wasm-cursor.ts';
import { becomeUnreachable, callEffect, endRun, pop, readLabel, reject, top, type BodyScanState } from './scan-state.ts';

/** A block type (§5.4.1): empty or one i32/i64 result; returns the block's arity. */
function readBlockType(c: WasmCursor): number {
  const at = c.pos;
  const byte = readU8(c);
  if (byte === emptyBlockType) return 0;
  const why = valTypeRejection(byte);
  if (why === undefined) return 1;
  if (why === 'malformed') reject('multi-value', 'a block type given by type index', at);
  return reject(why, `block type 0x${byte.toString(16)}`, at);
}

/** block, loop, if: a new frame; loop and if end the run (a loop is a branch target, an if a fork). */
export function scanBlockStart(st: BodyScanState, op: number, at: number): void {
  const arity = readBlockType(st.c);
  if (op === Op.if) pop(st, 1, at);
  if (st.frames.length > vmBlockDepthMax) reject('too-large', `blocks nested deeper than ${vmBlockDepthMax}`, at);
  st.frames.push({ startHeight: st.height, arity, isIf: op === Op.if, unreachable: false });
  if (op !== Op.block) endRun(st);
}

/** br, br_if. */
export function scanBranch(st: BodyScanState, op: number, at: number): void {
  readLabel(st, at);
  if (op === Op.br) becomeUnreachable(st);
  else pop(st, 1, at);
  endRun(st);
}

export function scanBrTable(st: BodyScanState, at: number): void {
  const n = readU32(st.c);
  if (n > vmBrTableTargetsMax) reject('too-large', `br_table with ${n} targets`, at);
  for (let i = 0; i <= n; i++) readLabel(st, at);
  pop(st, 1, at);
  becomeUnreachable(st);
  endRun(st);
}

/** call: returns to where it left, so it ends no run. */
export function scanCall(st: BodyScanState, at: number): void {
  const { ctx } = st;
  st.makesCalls = true;
  const f = readU32(st.c);
  if (f >= ctx.funcTypes.length) reject('invalid', `call to unknown function ${f}`, at);
  callEffect(st, ctx.types[ctx.funcTypes[f]!]!, at);
}

export function scanCallIndirect(st: BodyScanState, at: number): void {
  const { ctx, c } = st;
  st.makesCalls = true;
  const t = readU32(c);
  const tableAt = c.pos;
  if (readU8(c) !== 0) reject('reference-types', 'call_indirect through a table other than 0', tableAt);
  if (t >= ctx.types.length) reject('invalid', `call_indirect with unknown type ${t}`, at);
  if (!ctx.hasTable) reject('invalid', 'call_indirect without a table', at);
  pop(st, 1, at);
  callEffect(st, ctx.types[t]!, at);
}

/** else, end, return, unreachable; false for any other instruction (its effect is its pops and pushes). */
export function scanBlockEnd(st: BodyScanState, op: number, at: number): boolean {
  switch (op) {
    case Op.else: {
      const f = top(st);
      if (!f.isIf) reject('invalid', '`else` outside an `if`', at);
      st.frames[st.frames.length - 1] = { startHeight: f.startHeight, arity: f.arity, isIf: false, unreachable: false };
      st.height = f.startHeight;
      endRun(st);
      return true;
    }
    case Op.end: {
      const f = st.frames.pop()!;
      st.height = f.startHeight + f.arity;
      if (st.height > st.maxHeight) st.maxHeight = st.height;
      endRun(st);
      return true;
    }
    case Op.return:
      st.edits.push({ at, kind: 'return', depth: st.frames.length - 1 });
      becomeUnreachable(st);
      endRun(st);
      return true;
    case Op.unreachable:
      becomeUnreachable(st);
      return true;
  }
  return false;
}
