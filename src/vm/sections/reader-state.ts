/**
 * The module reader's state while it walks the sections (module-reader.ts): what the sections read so far declare,
 * which the later sections are checked against (an export or a segment names a function, table, memory or global
 * that must exist). One section reader per section kind fills it, in section order.
 */
import type { ByteRange, FuncType, ModuleExport } from '../wasm-module.ts';
import type { WasmCursor } from '../wasm-cursor.ts';

export interface ModuleReaderState {
  /** Content ranges of the sections present, by id (custom sections are dropped). */
  readonly sections: Map<number, ByteRange>;
  readonly types: FuncType[];
  /** Type index of every function, imports first (the function index space). */
  readonly funcTypes: number[];
  importedFuncs: number;
  /** The function section's count; undefined while there is none. */
  definedFuncs: number | undefined;
  tableEntries: number | undefined;
  memoryPages: number | undefined;
  globalCount: number;
  globalEntries: ByteRange | undefined;
  readonly exports: ModuleExport[];
  exportEntries: ByteRange | undefined;
  readonly bodies: ByteRange[];
}

/** Reads one section's contents from `s` (a cursor over exactly that section) into the state. */
export type SectionReader = (m: ModuleReaderState, s: WasmCursor) => void;

export function createModuleReaderState(): ModuleReaderState {
  return {
    sections: new Map(),
    types: [],
    funcTypes: [],
    importedFuncs: 0,
    definedFuncs: undefined,
    tableEntries: undefined,
    memoryPages: undefined,
    globalCount: 0,
    globalEntries: undefined,
    exports: [],
    exportEntries: undefined,
    bodies: [],
  };
}
