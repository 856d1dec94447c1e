/**
 * The segment sections (WebAssembly core 1.0 §5.5.12 element, §5.5.14 data): active segments of table or memory 0
 * only, at constant offsets where they fit, naming known functions.
 */
import { vmSegmentsMax } from '../../limits.ts';
import { readBytes, readU32, type WasmCursor } from '../wasm-cursor.ts';
import type { ModuleReaderState } from './reader-state.ts';
import { constExpr, count, reject } from './section-rules.ts';

/** Section 9. */
export function readElementSection(m: ModuleReaderState, s: WasmCursor): void {
  const n = count(s, 'element segments', vmSegmentsMax);
  for (let i = 0; i < n; i++) {
    const flags = readU32(s);
    if (flags !== 0) reject(flags % 2 === 1 ? 'bulk-memory' : 'reference-types', `element segment ${i} has flags ${flags}`);
    const offset = constExpr(s, `element segment ${i}'s offset`);
    const length = readU32(s);
    for (let k = 0; k < length; k++) {
      if (readU32(s) >= m.funcTypes.length) reject('invalid', `element segment ${i} names an unknown function`);
    }
    if (m.tableEntries === undefined || offset + length > m.tableEntries) {
      reject('invalid', `element segment ${i} does not fit the table`);
    }
  }
}

/** Section 11. */
export function readDataSection(m: ModuleReaderState, s: WasmCursor): void {
  const n = count(s, 'data segments', vmSegmentsMax);
  for (let i = 0; i < n; i++) {
    const flags = readU32(s);
    if (flags === 1) reject('bulk-memory', `data segment ${i} is passive`);
    if (flags !== 0) reject('multi-memory', `data segment ${i} names a memory`);
    const offset = constExpr(s, `data segment ${i}'s offset`);
    const length = readU32(s);
    readBytes(s, length);
    if (m.memoryPages === undefined || offset + length > m.memoryPages * 65_536) {
      reject('invalid', `data segment ${i} does not fit the memory`);
    }
  }
}
