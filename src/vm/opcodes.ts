/**
 * The instruction whitelist of prepare version 1 (docs/contracts.md "Feature set"): WebAssembly 1.0 integer
 * instructions plus sign extension (0xc0–0xc4), each with its immediate kind and its operand-stack effect; and, for
 * every other opcode, the feature it belongs to, so a refusal names the rule it broke.
 *
 * Control instructions (block, loop, if, else, end, br*, return, call*) have effects that depend on their
 * immediates; code-scan.ts handles them, and their pops/pushes here are only the fixed part.
 */
import type { PrepareRejection } from './errors.ts';

type Immediate =
  | 'none'
  | 'blocktype'
  | 'label'
  | 'br_table'
  | 'func'
  | 'call_indirect'
  | 'local'
  | 'global'
  | 'memarg'
  | 'memory_index' // memory.size / memory.grow: a reserved 0x00 byte (another value is multi-memory)
  | 'i32'
  | 'i64';

export interface OpInfo {
  readonly name: string;
  readonly immediate: Immediate;
  readonly pops: number;
  readonly pushes: number;
}

export const Op = {
  unreachable: 0x00,
  nop: 0x01,
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  else: 0x05,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  brTable: 0x0e,
  return: 0x0f,
  call: 0x10,
  callIndirect: 0x11,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  globalGet: 0x23,
  globalSet: 0x24,
  i32Const: 0x41,
  i64Const: 0x42,
  i64LtS: 0x53,
  i32GtU: 0x4b,
  i32GtS: 0x4a,
  i32Or: 0x72,
  i64Add: 0x7c,
  i32Add: 0x6a,
  i32Sub: 0x6b,
  i64Sub: 0x7d,
} as const;

/** Value types (§5.3.1) and the empty block type. */
export const ValType = { i32: 0x7f, i64: 0x7e } as const;
export const emptyBlockType = 0x40;

/** Whitelisted single opcodes: [opcode, name, immediate, pops, pushes]. A pure table; `opInfo` reads it by opcode. */
const singleOps: readonly (readonly [number, string, Immediate, number, number])[] = [
  [0x00, 'unreachable', 'none', 0, 0],
  [0x01, 'nop', 'none', 0, 0],
  [0x02, 'block', 'blocktype', 0, 0],
  [0x03, 'loop', 'blocktype', 0, 0],
  [0x04, 'if', 'blocktype', 1, 0],
  [0x05, 'else', 'none', 0, 0],
  [0x0b, 'end', 'none', 0, 0],
  [0x0c, 'br', 'label', 0, 0],
  [0x0d, 'br_if', 'label', 1, 0],
  [0x0e, 'br_table', 'br_table', 1, 0],
  [0x0f, 'return', 'none', 0, 0],
  [0x10, 'call', 'func', 0, 0],
  [0x11, 'call_indirect', 'call_indirect', 1, 0],
  [0x1a, 'drop', 'none', 1, 0],
  [0x1b, 'select', 'none', 3, 1],
  [0x20, 'local.get', 'local', 0, 1],
  [0x21, 'local.set', 'local', 1, 0],
  [0x22, 'local.tee', 'local', 1, 1],
  [0x23, 'global.get', 'global', 0, 1],
  [0x24, 'global.set', 'global', 1, 0],
  [0x28, 'i32.load', 'memarg', 1, 1],
  [0x29, 'i64.load', 'memarg', 1, 1],
  [0x36, 'i32.store', 'memarg', 2, 0],
  [0x37, 'i64.store', 'memarg', 2, 0],
  [0x3f, 'memory.size', 'memory_index', 0, 1],
  [0x40, 'memory.grow', 'memory_index', 1, 1],
  [0x41, 'i32.const', 'i32', 0, 1],
  [0x42, 'i64.const', 'i64', 0, 1],
  [0x45, 'i32.eqz', 'none', 1, 1],
  [0x50, 'i64.eqz', 'none', 1, 1],
  [0xa7, 'i32.wrap_i64', 'none', 1, 1],
  [0xac, 'i64.extend_i32_s', 'none', 1, 1],
  [0xad, 'i64.extend_i32_u', 'none', 1, 1],
];

/** Whitelisted opcode ranges of one shape: [first, last, name, immediate, pops, pushes]. */
const opRanges: readonly (readonly [number, number, string, Immediate, number, number])[] = [
  [0x2c, 0x35, 'load', 'memarg', 1, 1], // i32.load8_s … i64.load32_u
  [0x3a, 0x3e, 'store', 'memarg', 2, 0], // i32.store8 … i64.store32
  [0x46, 0x4f, 'i32.compare', 'none', 2, 1],
  [0x51, 0x5a, 'i64.compare', 'none', 2, 1],
  [0x67, 0x69, 'i32.unary', 'none', 1, 1], // clz ctz popcnt
  [0x6a, 0x78, 'i32.binary', 'none', 2, 1],
  [0x79, 0x7b, 'i64.unary', 'none', 1, 1],
  [0x7c, 0x8a, 'i64.binary', 'none', 2, 1],
  [0xc0, 0xc4, 'sign_extend', 'none', 1, 1], // i32.extend8_s … i64.extend32_s
];

/** The whitelist indexed by opcode, built from the two tables (no registry is filled by side effect). */
const table: readonly (OpInfo | undefined)[] = (() => {
  const byOp: (OpInfo | undefined)[] = new Array(256).fill(undefined);
  for (const [op, name, immediate, pops, pushes] of singleOps) byOp[op] = { name, immediate, pops, pushes };
  for (const [from, to, name, immediate, pops, pushes] of opRanges) {
    for (let op = from; op <= to; op++) byOp[op] = { name: `${name}.0x${op.toString(16)}`, immediate, pops, pushes };
  }
  return byOp;
})();

/** The whitelisted instruction with this opcode, or undefined. */
export function opInfo(op: number): OpInfo | undefined {
  return table[op];
}

/** Why an opcode outside the whitelist is refused (the feature it belongs to); 'invalid' when no feature has it. */
export function rejectionOf(op: number, sub?: number): PrepareRejection {
  if (op === 0x2a || op === 0x2b || op === 0x38 || op === 0x39 || op === 0x43 || op === 0x44) return 'float';
  if ((op >= 0x5b && op <= 0x66) || (op >= 0x8b && op <= 0xa6) || (op >= 0xa8 && op <= 0xab) || (op >= 0xae && op <= 0xbf)) {
    return 'float';
  }
  if (op === 0xfd) return 'simd';
  if (op === 0xfe) return 'threads';
  if (op === 0xfc) {
    // 0–7 saturating float→int truncation; 8–11 memory.init/data.drop/copy/fill; 12–17 table.init… table.fill.
    if (sub !== undefined && sub <= 7) return 'float';
    if (sub !== undefined && sub <= 11) return 'bulk-memory';
    return 'reference-types';
  }
  if (op === 0x06 || op === 0x07 || op === 0x08 || op === 0x09 || op === 0x18 || op === 0x19 || op === 0x0a || op === 0x1f) {
    return 'exceptions';
  }
  if (op === 0x12 || op === 0x13 || op === 0x15) return 'tail-calls';
  if (op === 0x1c || op === 0x25 || op === 0x26 || op === 0x14 || (op >= 0xd0 && op <= 0xd6)) return 'reference-types';
  return 'invalid';
}

/** Why a value-type byte is refused, or undefined when it is i32 or i64. */
export function valTypeRejection(byte: number): PrepareRejection | undefined {
  if (byte === ValType.i32 || byte === ValType.i64) return undefined;
  if (byte === 0x7d || byte === 0x7c) return 'float';
  if (byte === 0x7b) return 'simd';
  if (byte === 0x70 || byte === 0x6f || byte === 0x64 || byte === 0x63) return 'reference-types';
  return 'malformed';
}
