/**
 * What the module reader (module-reader.ts) learns about a contract module: its function types, the function index
 * space, the sizes of its table, memory and globals, its exports, and where every section and body lies, so that
 * the instrumenter can copy unchanged parts byte for byte (WebAssembly core 1.0 §2.5, §5.5).
 */
export interface FuncType {
  readonly params: readonly number[];
  readonly results: readonly number[];
}

export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

export interface ModuleExport {
  readonly name: string;
  readonly kind: number;
  readonly index: number;
}

export interface ParsedModule {
  readonly bytes: Uint8Array;
  /** Content ranges of the sections present, by id (custom sections are dropped). */
  readonly sections: ReadonlyMap<number, ByteRange>;
  readonly types: readonly FuncType[];
  /** Type index of every function, imports first (the function index space). */
  readonly funcTypes: readonly number[];
  readonly importedFuncs: number;
  readonly tableEntries: number | undefined;
  readonly memoryPages: number;
  readonly globalCount: number;
  /** The global section's entries (after its count), copied as they are. */
  readonly globalEntries: ByteRange | undefined;
  readonly exports: readonly ModuleExport[];
  readonly exportEntries: ByteRange | undefined;
  /** Each function body's bytes (after its size). */
  readonly bodies: readonly ByteRange[];
}

export const ExportKind = { func: 0, table: 1, memory: 2, global: 3 } as const;
