/** The export section (WebAssembly core 1.0 §5.5.10): known items only, no tags, no name the VM reserves. */
import { vmExportsMax } from '../../limits.ts';
import { reservedExportPrefix } from '../host-abi.ts';
import { malformed, readName, readU32, readU8, type WasmCursor } from '../wasm-cursor.ts';
import type { ModuleReaderState } from './reader-state.ts';
import { count, reject } from './section-rules.ts';

/** Section 7: the entries' range is kept, for the instrumenter to copy them beside its own exports. */
export function readExportSection(m: ModuleReaderState, s: WasmCursor): void {
  const n = count(s, 'exports', vmExportsMax);
  m.exportEntries = { start: s.pos, end: s.end };
  for (let i = 0; i < n; i++) {
    const name = readName(s);
    const kind = readU8(s);
    if (kind === 4) reject('exceptions', `export ${name} is a tag`);
    if (kind > 3) malformed(`export ${name} of kind ${kind}`, s.pos - 1);
    if (name.startsWith(reservedExportPrefix)) reject('export', `export name ${name} is reserved by the VM`);
    const index = readU32(s);
    const bound = [m.funcTypes.length, m.tableEntries === undefined ? 0 : 1, m.memoryPages === undefined ? 0 : 1, m.globalCount][kind]!;
    if (index >= bound) reject('invalid', `export ${name} names an unknown item`);
    m.exports.push({ name, kind, index });
  }
}
