/**
 * The state of one pass over a function body (code-scan.ts): the cursor, the control frames, the operand height
 * and its maximum, and the metered run being measured, with the stack operations of the spec's validation algorithm
 * (WebAssembly core 1.0 appendix "Validation Algorithm"), heights only, and the end of a metered run.
 */
import { PrepareError, type PrepareRejection } from '../errors.ts';
import type { GasSchedule } from '../gas-schedule.ts';
import type { FuncType } from '../wasm-module.ts';
import { readU32, type WasmCursor } from '../wasm-cursor.ts';

export interface ScanContext {
  readonly bytes: Uint8Array;
  readonly types: readonly FuncType[];
  readonly funcTypes: readonly number[];
  readonly globalCount: number;
  readonly hasTable: boolean;
  readonly schedule: GasSchedule;
}

/** An edit at a byte offset of the original body: insert a gas charge before it, or replace `return` by `br depth`. */
export type BodyEdit = { readonly at: number; readonly kind: 'charge'; readonly gas: number } | { readonly at: number; readonly kind: 'return'; readonly depth: number };

export interface Frame {
  readonly startHeight: number;
  readonly arity: number;
  readonly isIf: boolean;
  unreachable: boolean;
}

export interface BodyScanState {
  readonly ctx: ScanContext;
  /** Over the instructions, after the locals. */
  readonly c: WasmCursor;
  /** Params + declared locals. */
  readonly localCount: number;
  /** The open blocks, the function's own frame at the bottom; the body ends when the last is closed. */
  readonly frames: Frame[];
  height: number;
  maxHeight: number;
  readonly edits: BodyEdit[];
  /** The first run's gas, once that run has ended (it is charged at function entry, not by an edit). */
  entryGas: number | undefined;
  /** Where the metered run being measured starts, its gas so far, and whether it can be reached at all. */
  runStart: number;
  runGas: number;
  runLive: boolean;
  makesCalls: boolean;
}

export function createBodyScanState(ctx: ScanContext, c: WasmCursor, type: FuncType, localCount: number): BodyScanState {
  return {
    ctx, c, localCount,
    frames: [{ startHeight: 0, arity: type.results.length, isIf: false, unreachable: false }],
    height: 0, maxHeight: 0, edits: [], entryGas: undefined,
    runStart: c.pos, runGas: 0, runLive: true, makesCalls: false,
  };
}

export function reject(reason: PrepareRejection, message: string, at: number): never {
  throw new PrepareError(reason, `${message} (byte ${at})`, { offset: at });
}

export function top(st: BodyScanState): Frame {
  return st.frames[st.frames.length - 1]!;
}

/** Pops `n` operands; below the frame's start that is an underflow, unless the frame is already unreachable. */
export function pop(st: BodyScanState, n: number, at: number): void {
  const f = top(st);
  if (st.height - n >= f.startHeight) st.height -= n;
  else if (f.unreachable) st.height = f.startHeight;
  else reject('invalid', 'operand stack underflow', at);
}

export function push(st: BodyScanState, n: number): void {
  st.height += n;
  if (st.height > st.maxHeight) st.maxHeight = st.height;
}

/** A branch target: a label index within the open blocks. */
export function readLabel(st: BodyScanState, at: number): void {
  if (readU32(st.c) >= st.frames.length) reject('invalid', 'branch to an unknown label', at);
}

/** After br, br_table, return or unreachable the rest of the block is stack-polymorphic. */
export function becomeUnreachable(st: BodyScanState): void {
  const f = top(st);
  st.height = f.startHeight;
  f.unreachable = true;
}

/** Closes the metered run before the cursor: a charge edit when it is reachable and costs gas; starts the next. */
export function endRun(st: BodyScanState): void {
  if (st.entryGas === undefined) st.entryGas = st.runGas;
  else if (st.runLive && st.runGas > 0) st.edits.push({ at: st.runStart, kind: 'charge', gas: st.runGas + st.ctx.schedule.meteredBlock });
  st.runStart = st.c.pos;
  st.runGas = 0;
  st.runLive = st.frames.length > 0 && !top(st).unreachable;
}

export function callEffect(st: BodyScanState, t: FuncType, at: number): void {
  pop(st, t.params.length, at);
  push(st, t.results.length);
}
