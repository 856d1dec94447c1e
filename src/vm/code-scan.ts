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
 */
import { vmBlockDepthMax, vmBrTableTargetsMax, vmLocalsMax } from '../limits.ts';
import { PrepareError, type PrepareRejection } from './errors.ts';
import { frameBaseSlots, instructionGas, type GasSchedule } from './gas-schedule.ts';
import type { ByteRange, FuncType } from './wasm-module.ts';
import { emptyBlockType, Op, opInfo, rejectionOf, valTypeRejection } from './opcodes.ts';
import { atEnd, createCursor, malformed, readSigned, readU32, readU8, type WasmCursor } from './wasm-cursor.ts';

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

interface Frame {
  readonly startHeight: number;
  readonly arity: number;
  readonly isIf: boolean;
  unreachable: boolean;
}

function reject(reason: PrepareRejection, message: string, at: number): never {
  throw new PrepareError(reason, `${message} (byte ${at})`, { offset: at });
}

function readBlockType(c: WasmCursor): number {
  const at = c.pos;
  const byte = readU8(c);
  if (byte === emptyBlockType) return 0;
  const why = valTypeRejection(byte);
  if (why === undefined) return 1;
  if (why === 'malformed') reject('multi-value', 'a block type given by type index', at);
  return reject(why, `block type 0x${byte.toString(16)}`, at);
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
  const typeIndex = ctx.funcTypes[funcIndex]!;
  const type = ctx.types[typeIndex]!;
  const c = createCursor(ctx.bytes, range.start, range.end);
  const localCount = readLocals(c) + type.params.length;
  const locals = { start: range.start, end: c.pos };
  const codeStart = c.pos;

  const frames: Frame[] = [{ startHeight: 0, arity: type.results.length, isIf: false, unreachable: false }];
  let height = 0;
  let maxHeight = 0;
  const edits: BodyEdit[] = [];
  let entryGas: number | undefined;
  let runStart = codeStart;
  let runGas = 0;
  let runLive = true;
  let makesCalls = false;

  const top = (): Frame => frames[frames.length - 1]!;
  const pop = (n: number, at: number): void => {
    const f = top();
    if (height - n >= f.startHeight) height -= n;
    else if (f.unreachable) height = f.startHeight;
    else reject('invalid', 'operand stack underflow', at);
  };
  const push = (n: number): void => {
    height += n;
    if (height > maxHeight) maxHeight = height;
  };
  const label = (at: number): void => {
    if (readU32(c) >= frames.length) reject('invalid', 'branch to an unknown label', at);
  };
  const becomeUnreachable = (): void => {
    const f = top();
    height = f.startHeight;
    f.unreachable = true;
  };
  const endRun = (): void => {
    if (entryGas === undefined) entryGas = runGas;
    else if (runLive && runGas > 0) edits.push({ at: runStart, kind: 'charge', gas: runGas + ctx.schedule.meteredBlock });
    runStart = c.pos;
    runGas = 0;
    runLive = frames.length > 0 && !top().unreachable;
  };
  const callEffect = (t: FuncType, at: number): void => {
    pop(t.params.length, at);
    push(t.results.length);
  };

  while (frames.length > 0) {
    if (atEnd(c)) malformed('function body ends inside a block', c.pos);
    const at = c.pos;
    const op = readU8(c);
    const info = opInfo(op);
    if (info === undefined) {
      const sub = op === 0xfc && !atEnd(c) ? readU32(c) : undefined;
      const why = rejectionOf(op, sub);
      reject(why, `opcode 0x${op.toString(16)}${sub === undefined ? '' : ` ${sub}`} is not allowed`, at);
    }
    runGas += instructionGas(ctx.schedule, op);

    switch (info.immediate) {
      case 'blocktype': {
        const arity = readBlockType(c);
        if (op === Op.if) pop(1, at);
        if (frames.length > vmBlockDepthMax) reject('too-large', `blocks nested deeper than ${vmBlockDepthMax}`, at);
        frames.push({ startHeight: height, arity, isIf: op === Op.if, unreachable: false });
        if (op !== Op.block) endRun();
        continue;
      }
      case 'label':
        label(at);
        if (op === Op.br) becomeUnreachable();
        else pop(1, at);
        endRun();
        continue;
      case 'br_table': {
        const n = readU32(c);
        if (n > vmBrTableTargetsMax) reject('too-large', `br_table with ${n} targets`, at);
        for (let i = 0; i <= n; i++) label(at);
        pop(1, at);
        becomeUnreachable();
        endRun();
        continue;
      }
      case 'func': {
        makesCalls = true;
        const f = readU32(c);
        if (f >= ctx.funcTypes.length) reject('invalid', `call to unknown function ${f}`, at);
        callEffect(ctx.types[ctx.funcTypes[f]!]!, at);
        continue;
      }
      case 'call_indirect': {
        makesCalls = true;
        const t = readU32(c);
        const tableAt = c.pos;
        if (readU8(c) !== 0) reject('reference-types', 'call_indirect through a table other than 0', tableAt);
        if (t >= ctx.types.length) reject('invalid', `call_indirect with unknown type ${t}`, at);
        if (!ctx.hasTable) reject('invalid', 'call_indirect without a table', at);
        pop(1, at);
        callEffect(ctx.types[t]!, at);
        continue;
      }
      case 'local':
        if (readU32(c) >= localCount) reject('invalid', 'unknown local', at);
        break;
      case 'global':
        if (readU32(c) >= ctx.globalCount) reject('invalid', 'unknown global', at);
        break;
      case 'memarg': {
        const alignAt = c.pos;
        const align = readU32(c);
        if (align & 0x40) reject('multi-memory', 'a memory index in a memarg', alignAt);
        if (align > 3) reject('invalid', `alignment 2^${align}`, alignAt);
        readU32(c);
        break;
      }
      case 'memory_index':
        if (readU8(c) !== 0) reject('multi-memory', 'memory.size/grow on a memory other than 0', at);
        break;
      case 'i32':
        readSigned(c, 32);
        break;
      case 'i64':
        readSigned(c, 64);
        break;
      case 'none':
        break;
    }

    switch (op) {
      case Op.else: {
        const f = top();
        if (!f.isIf) reject('invalid', '`else` outside an `if`', at);
        frames[frames.length - 1] = { startHeight: f.startHeight, arity: f.arity, isIf: false, unreachable: false };
        height = f.startHeight;
        endRun();
        continue;
      }
      case Op.end: {
        const f = frames.pop()!;
        height = f.startHeight + f.arity;
        if (height > maxHeight) maxHeight = height;
        endRun();
        continue;
      }
      case Op.return:
        edits.push({ at, kind: 'return', depth: frames.length - 1 });
        becomeUnreachable();
        endRun();
        continue;
      case Op.unreachable:
        becomeUnreachable();
        continue;
    }
    pop(info.pops, at);
    push(info.pushes);
  }
  if (!atEnd(c)) malformed('bytes after the function body', c.pos);

  const frameSlots = frameBaseSlots + localCount + maxHeight;
  const entry = (entryGas ?? 0) + frameSlots * ctx.schedule.frameSlot + ctx.schedule.meteredBlock;
  // Offset order; where a run starts with `return`, its charge goes first (one charge at most per offset).
  edits.sort((a, b) => a.at - b.at || (a.kind === 'charge' ? -1 : 1));
  return { locals, code: { start: codeStart, end: range.end }, type, localCount, frameSlots, entryGas: entry, makesCalls, edits };
}

/** The block type of a body wrapped in a block: its function's one result, or empty. */
export const resultBlockType = (type: FuncType): number => (type.results.length === 0 ? emptyBlockType : type.results[0]!);
