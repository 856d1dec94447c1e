/**
 * Reads and checks the sections of a contract module (WebAssembly core 1.0 §5.5) against prepare version 1's
 * module-level rules (docs/contracts.md "Feature set" and "Limits"): i32/i64 only, at most one result, imports only
 * from the host ABI, one fixed memory with a maximum under the cap, at most one funcref table, constant segment
 * offsets that fit, no start section, no DataCount, tag or unknown sections. Function bodies are left to
 * code-scan.ts; this returns where everything is so the instrumenter can copy unchanged sections byte for byte.
 *
 * Like a Wasm decoder, one reader per section kind (sections/: declarations.ts, storage.ts, exports.ts, segments.ts,
 * code.ts) fills the reader's state (sections/reader-state.ts); this file frames the sections and puts them in order.
 */
import type { ParsedModule } from './wasm-module.ts';
import { atEnd, createCursor, malformed, readBytes, readName, readU32, readU8, type WasmCursor } from './wasm-cursor.ts';
import { readCodeSection } from './sections/code.ts';
import { readFunctionSection, readImportSection, readTypeSection } from './sections/declarations.ts';
import { readExportSection } from './sections/exports.ts';
import { createModuleReaderState, type ModuleReaderState, type SectionReader } from './sections/reader-state.ts';
import { reject } from './sections/section-rules.ts';
import { readDataSection, readElementSection } from './sections/segments.ts';
import { readGlobalSection, readMemorySection, readTableSection } from './sections/storage.ts';

/** The readers of the sections prepare version 1 allows, by section id (§5.5.2). */
const sectionReaders: Readonly<Record<number, SectionReader>> = {
  1: readTypeSection,
  2: readImportSection,
  3: readFunctionSection,
  4: readTableSection,
  5: readMemorySection,
  6: readGlobalSection,
  7: readExportSection,
  9: readElementSection,
  10: readCodeSection,
  11: readDataSection,
};

const wasmHeader = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];

/**
 * Frames the next section (§5.5.2) and checks its id: a custom section is checked for shape and skipped (undefined);
 * the refused kinds, unknown ids and sections out of order fail here, before their contents are read.
 */
function nextSection(c: WasmCursor, lastId: number): { readonly id: number; readonly s: WasmCursor } | undefined {
  const idAt = c.pos;
  const id = readU8(c);
  const size = readU32(c);
  if (size > c.end - c.pos) malformed(`section ${id} of ${size} bytes runs past the end`, idAt);
  const s = createCursor(c.bytes, c.pos, c.pos + size);
  c.pos += size;
  if (id === 0) {
    readName(s); // a custom section: checked for shape, then dropped (names, producers, `weft:abi` metadata)
    return undefined;
  }
  if (id === 8) reject('start', 'a start section (export the constructor as `init`, or __start, instead)');
  if (id === 12) reject('bulk-memory', 'a DataCount section');
  if (id === 13) reject('exceptions', 'a tag section');
  if (id > 11) malformed(`unknown section id ${id}`, idAt);
  if (id <= lastId) malformed(`section ${id} out of order or repeated`, idAt);
  return { id, s };
}

/** The checks that need every section read, and the result. */
function finishModule(bytes: Uint8Array, m: ModuleReaderState): ParsedModule {
  if (m.definedFuncs !== undefined && !m.sections.has(10) && m.definedFuncs > 0) malformed('functions without a code section', bytes.length);
  if (m.memoryPages === undefined) reject('memory', 'the module defines no memory');
  const { sections, types, funcTypes, importedFuncs, tableEntries, memoryPages, globalCount, globalEntries, exports, exportEntries, bodies } = m;
  return { bytes, sections, types, funcTypes, importedFuncs, tableEntries, memoryPages, globalCount, globalEntries, exports, exportEntries, bodies };
}

export function readModule(bytes: Uint8Array): ParsedModule {
  const c = createCursor(bytes);
  const magic = readBytes(c, 8);
  if (!wasmHeader.every((b, i) => magic[i] === b)) malformed('not a Wasm 1.0 binary (magic and version)', 0);
  const m = createModuleReaderState();
  let lastId = 0;
  while (!atEnd(c)) {
    const section = nextSection(c, lastId);
    if (section === undefined) continue;
    const { id, s } = section;
    lastId = id;
    m.sections.set(id, { start: s.pos, end: s.end });
    sectionReaders[id]!(m, s);
    if (!atEnd(s)) malformed(`section ${id} has ${s.end - s.pos} bytes past its contents`, s.pos);
  }
  return finishModule(bytes, m);
}
