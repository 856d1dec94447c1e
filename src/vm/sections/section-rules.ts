/**
 * The checks every section reader shares (WebAssembly core 1.0 §5.3–§5.5 under prepare version 1's rules,
 * docs/contracts.md "Feature set"): counts under their limit, value types, constant expressions and limits.
 */
import { PrepareError, type PrepareRejection } from '../errors.ts';
import { valTypeRejection } from '../opcodes.ts';
import { malformed, readSigned, readU32, readU8, type WasmCursor } from '../wasm-cursor.ts';

/** A module-level rule broken: the deploy is refused with `reason` (docs/contracts.md "Feature set"). */
export function reject(reason: PrepareRejection, message: string): never {
  throw new PrepareError(reason, message);
}

/** A vector's length (§5.1.3), refused as too large above `max` before anything is read for it. */
export function count(c: WasmCursor, what: string, max: number): number {
  const n = readU32(c);
  if (n > max) reject('too-large', `${n} ${what}, at most ${max}`);
  return n;
}

/** A value type (§5.3.1): i32 or i64 only; the others are refused by the feature that owns them. */
export function valType(c: WasmCursor, where: string): number {
  const at = c.pos;
  const byte = readU8(c);
  const why = valTypeRejection(byte);
  if (why === 'malformed') malformed(`unknown value type 0x${byte.toString(16)} in ${where}`, at);
  if (why) reject(why, `value type 0x${byte.toString(16)} in ${where}`);
  return byte;
}

/** A constant expression (§3.3.7.2) of one i32.const or i64.const and `end`; returns an i32 value as unsigned. */
export function constExpr(c: WasmCursor, where: string): number {
  const op = readU8(c);
  if (op === 0x43 || op === 0x44) reject('float', `a float constant in ${where}`);
  if (op !== 0x41 && op !== 0x42) reject('invalid', `${where} is not an i32/i64 constant expression`);
  const value = readSigned(c, op === 0x41 ? 32 : 64);
  if (readU8(c) !== 0x0b) reject('invalid', `${where}: constant expression does not end after one constant`);
  return op === 0x41 ? value >>> 0 : value;
}

/** Table or memory limits (§5.3.4): unshared, and the maximum not below the minimum. */
export function limits(c: WasmCursor, what: 'memory' | 'table'): { min: number; max: number | undefined } {
  const at = c.pos;
  const flags = readU8(c);
  if (flags === 2 || flags === 3) reject('threads', `a shared ${what}`);
  if (flags > 3) malformed(`${what} limits flags 0x${flags.toString(16)}`, at);
  const min = readU32(c);
  const max = flags === 1 ? readU32(c) : undefined;
  if (max !== undefined && max < min) reject('invalid', `${what} maximum ${max} below its minimum ${min}`);
  return { min, max };
}
