/**
 * One instruction of a function body (WebAssembly core 1.0 §5.4): decoded against the whitelist (opcodes.ts), its
 * immediates bounds-checked, its gas added to the metered run, and its effect on the frames and operand height.
 */
import { instructionGas } from '../gas-schedule.ts';
import { opInfo, rejectionOf, type OpInfo } from '../opcodes.ts';
import { atEnd, malformed, readSigned, readU32, readU8 } from '../wasm-cursor.ts';
import { scanBlockEnd, scanBlockStart, scanBrTable, scanBranch, scanCall, scanCallIndirect } from './branches.ts';
import { pop, push, reject, type BodyScanState } from './scan-state.ts';

/** The immediates that only need bounds: locals, globals, memargs, memory indices and constants. */
function scanPlainImmediate(st: BodyScanState, info: OpInfo, at: number): void {
  const { c, ctx } = st;
  switch (info.immediate) {
    case 'local':
      if (readU32(c) >= st.localCount) reject('invalid', 'unknown local', at);
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
  }
}

/** Scans the instruction at the cursor; the body has ended when the last frame is closed. */
export function scanInstruction(st: BodyScanState): void {
  const { c } = st;
  if (atEnd(c)) malformed('function body ends inside a block', c.pos);
  const at = c.pos;
  const op = readU8(c);
  const info = opInfo(op);
  if (info === undefined) {
    const sub = op === 0xfc && !atEnd(c) ? readU32(c) : undefined;
    const why = rejectionOf(op, sub);
    reject(why, `opcode 0x${op.toString(16)}${sub === undefined ? '' : ` ${sub}`} is not allowed`, at);
  }
  st.runGas += instructionGas(st.ctx.schedule, op);
  switch (info.immediate) {
    case 'blocktype':
      return scanBlockStart(st, op, at);
    case 'label':
      return scanBranch(st, op, at);
    case 'br_table':
      return scanBrTable(st, at);
    case 'func':
      return scanCall(st, at);
    case 'call_indirect':
      return scanCallIndirect(st, at);
  }
  scanPlainImmediate(st, info, at);
  if (scanBlockEnd(st, op, at)) return;
  pop(st, info.pops, at);
  push(st, info.pushes);
}
