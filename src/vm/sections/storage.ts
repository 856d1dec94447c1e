/**
 * The sections that declare storage (WebAssembly core 1.0 §5.5.7 table, §5.5.8 memory, §5.5.9 global): at most one
 * funcref table under the entry cap, one memory with a maximum under the page cap, globals of i32/i64 with constant
 * initialisers.
 */
import { vmGlobalsMax, vmMemoryPagesMax, vmTableEntriesMax } from '../../limits.ts';
import { readU32, readU8, type WasmCursor } from '../wasm-cursor.ts';
import type { ModuleReaderState } from './reader-state.ts';
import { constExpr, count, limits, reject, valType } from './section-rules.ts';

/** Section 4. */
export function readTableSection(m: ModuleReaderState, s: WasmCursor): void {
  const n = readU32(s);
  if (n > 1) reject('reference-types', `${n} tables`);
  if (n === 1) {
    const ref = readU8(s);
    if (ref !== 0x70) reject('reference-types', `a table of type 0x${ref.toString(16)}`);
    const { min } = limits(s, 'table');
    if (min > vmTableEntriesMax) reject('too-large', `a table of ${min} entries, at most ${vmTableEntriesMax}`);
    m.tableEntries = min;
  }
}

/** Section 5. */
export function readMemorySection(m: ModuleReaderState, s: WasmCursor): void {
  const n = readU32(s);
  if (n > 1) reject('multi-memory', `${n} memories`);
  if (n === 1) {
    const { max } = limits(s, 'memory');
    if (max === undefined) reject('memory', 'the memory has no maximum');
    if (max > vmMemoryPagesMax) reject('memory', `a memory of up to ${max} pages, at most ${vmMemoryPagesMax}`);
    m.memoryPages = max;
  }
}

/** Section 6: the entries' range is kept, for the instrumenter to copy them after its own gas global. */
export function readGlobalSection(m: ModuleReaderState, s: WasmCursor): void {
  const n = count(s, 'globals', vmGlobalsMax);
  m.globalEntries = { start: s.pos, end: s.end };
  for (let i = 0; i < n; i++) {
    valType(s, `global ${i}`);
    if (readU8(s) > 1) reject('invalid', `global ${i} has a bad mutability flag`);
    constExpr(s, `global ${i}'s initialiser`);
  }
  m.globalCount = n;
}
