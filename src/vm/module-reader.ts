/**
 * Reads and checks the sections of a contract module (WebAssembly core 1.0 §5.5) against prepare version 1's
 * module-level rules (docs/contracts.md "Feature set" and "Limits"): i32/i64 only, at most one result, imports only
 * from the host ABI, one fixed memory with a maximum under the cap, at most one funcref table, constant segment
 * offsets that fit, no start section, no DataCount, tag or unknown sections. Function bodies are left to
 * code-scan.ts; this returns where everything is so the instrumenter can copy unchanged sections byte for byte.
 */
import {
  vmExportsMax,
  vmFunctionBodyBytesMax,
  vmFunctionsMax,
  vmGlobalsMax,
  vmMemoryPagesMax,
  vmParamsMax,
  vmSegmentsMax,
  vmTableEntriesMax,
  vmTypesMax,
} from '../limits.ts';
import { PrepareError, type PrepareRejection } from './errors.ts';
import { hostAbi, hostModuleName, isHostFunctionName, reservedExportPrefix } from './host-abi.ts';
import { valTypeRejection } from './opcodes.ts';
import { atEnd, createCursor, malformed, readBytes, readName, readSigned, readU32, readU8, type WasmCursor } from './wasm-cursor.ts';

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

function reject(reason: PrepareRejection, message: string): never {
  throw new PrepareError(reason, message);
}

function count(c: WasmCursor, what: string, max: number): number {
  const n = readU32(c);
  if (n > max) reject('too-large', `${n} ${what}, at most ${max}`);
  return n;
}

function valType(c: WasmCursor, where: string): number {
  const at = c.pos;
  const byte = readU8(c);
  const why = valTypeRejection(byte);
  if (why === 'malformed') malformed(`unknown value type 0x${byte.toString(16)} in ${where}`, at);
  if (why) reject(why, `value type 0x${byte.toString(16)} in ${where}`);
  return byte;
}

/** A constant expression (§3.3.7.2) of one i32.const or i64.const and `end`; returns an i32 value as unsigned. */
function constExpr(c: WasmCursor, where: string): number {
  const op = readU8(c);
  if (op === 0x43 || op === 0x44) reject('float', `a float constant in ${where}`);
  if (op !== 0x41 && op !== 0x42) reject('invalid', `${where} is not an i32/i64 constant expression`);
  const value = readSigned(c, op === 0x41 ? 32 : 64);
  if (readU8(c) !== 0x0b) reject('invalid', `${where}: constant expression does not end after one constant`);
  return op === 0x41 ? value >>> 0 : value;
}

function limits(c: WasmCursor, what: 'memory' | 'table'): { min: number; max: number | undefined } {
  const at = c.pos;
  const flags = readU8(c);
  if (flags === 2 || flags === 3) reject('threads', `a shared ${what}`);
  if (flags > 3) malformed(`${what} limits flags 0x${flags.toString(16)}`, at);
  const min = readU32(c);
  const max = flags === 1 ? readU32(c) : undefined;
  if (max !== undefined && max < min) reject('invalid', `${what} maximum ${max} below its minimum ${min}`);
  return { min, max };
}

export function readModule(bytes: Uint8Array): ParsedModule {
  const c = createCursor(bytes);
  const magic = readBytes(c, 8);
  const expected = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  if (!expected.every((b, i) => magic[i] === b)) malformed('not a Wasm 1.0 binary (magic and version)', 0);

  const sections = new Map<number, ByteRange>();
  const types: FuncType[] = [];
  const funcTypes: number[] = [];
  let importedFuncs = 0;
  let definedFuncs: number | undefined;
  let tableEntries: number | undefined;
  let memoryPages: number | undefined;
  let globalCount = 0;
  let globalEntries: ByteRange | undefined;
  const exports: ModuleExport[] = [];
  let exportEntries: ByteRange | undefined;
  const bodies: ByteRange[] = [];
  let lastId = 0;

  while (!atEnd(c)) {
    const idAt = c.pos;
    const id = readU8(c);
    const size = readU32(c);
    if (size > c.end - c.pos) malformed(`section ${id} of ${size} bytes runs past the end`, idAt);
    const s = createCursor(bytes, c.pos, c.pos + size);
    c.pos += size;
    if (id === 0) {
      readName(s); // a custom section: checked for shape, then dropped (names, producers, `weft:abi` metadata)
      continue;
    }
    if (id === 8) reject('start', 'a start section (export the constructor as `init`, or __start, instead)');
    if (id === 12) reject('bulk-memory', 'a DataCount section');
    if (id === 13) reject('exceptions', 'a tag section');
    if (id > 11) malformed(`unknown section id ${id}`, idAt);
    if (id <= lastId) malformed(`section ${id} out of order or repeated`, idAt);
    lastId = id;
    sections.set(id, { start: s.pos, end: s.end });

    switch (id) {
      case 1: {
        const n = count(s, 'function types', vmTypesMax);
        for (let i = 0; i < n; i++) {
          const form = readU8(s);
          if (form !== 0x60) reject(form >= 0x4e && form <= 0x5f ? 'reference-types' : 'invalid', `type ${i} is not a function type`);
          const params = Array.from({ length: count(s, `params of type ${i}`, vmParamsMax) }, () => valType(s, `type ${i}`));
          const nResults = readU32(s);
          if (nResults > 1) reject('multi-value', `type ${i} has ${nResults} results`);
          const results = Array.from({ length: nResults }, () => valType(s, `type ${i}`));
          types.push({ params, results });
        }
        break;
      }
      case 2: {
        const n = count(s, 'imports', Object.keys(hostAbi).length * 2);
        for (let i = 0; i < n; i++) {
          const module = readName(s);
          const name = readName(s);
          const kind = readU8(s);
          if (kind === 4) reject('exceptions', `import ${module}.${name} is a tag`);
          if (kind !== 0) reject('import', `import ${module}.${name} is not a function (only host functions may be imported)`);
          const typeIndex = readU32(s);
          if (module !== hostModuleName || !isHostFunctionName(name)) reject('import', `${module}.${name} is not in the host ABI`);
          const type = types[typeIndex];
          const want = hostAbi[name];
          const same = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((v, k) => v === b[k]);
          if (!type || !same(type.params, want.params) || !same(type.results, want.results)) {
            reject('import', `${module}.${name} is imported with another type than the host ABI's`);
          }
          funcTypes.push(typeIndex);
          importedFuncs++;
        }
        break;
      }
      case 3: {
        const n = count(s, 'functions', vmFunctionsMax);
        definedFuncs = n;
        for (let i = 0; i < n; i++) {
          const t = readU32(s);
          if (t >= types.length) reject('invalid', `function ${i} has unknown type ${t}`);
          funcTypes.push(t);
        }
        break;
      }
      case 4: {
        const n = readU32(s);
        if (n > 1) reject('reference-types', `${n} tables`);
        if (n === 1) {
          const ref = readU8(s);
          if (ref !== 0x70) reject('reference-types', `a table of type 0x${ref.toString(16)}`);
          const { min } = limits(s, 'table');
          if (min > vmTableEntriesMax) reject('too-large', `a table of ${min} entries, at most ${vmTableEntriesMax}`);
          tableEntries = min;
        }
        break;
      }
      case 5: {
        const n = readU32(s);
        if (n > 1) reject('multi-memory', `${n} memories`);
        if (n === 1) {
          const { max } = limits(s, 'memory');
          if (max === undefined) reject('memory', 'the memory has no maximum');
          if (max > vmMemoryPagesMax) reject('memory', `a memory of up to ${max} pages, at most ${vmMemoryPagesMax}`);
          memoryPages = max;
        }
        break;
      }
      case 6: {
        const n = count(s, 'globals', vmGlobalsMax);
        globalEntries = { start: s.pos, end: s.end };
        for (let i = 0; i < n; i++) {
          valType(s, `global ${i}`);
          if (readU8(s) > 1) reject('invalid', `global ${i} has a bad mutability flag`);
          constExpr(s, `global ${i}'s initialiser`);
        }
        globalCount = n;
        break;
      }
      case 7: {
        const n = count(s, 'exports', vmExportsMax);
        exportEntries = { start: s.pos, end: s.end };
        for (let i = 0; i < n; i++) {
          const name = readName(s);
          const kind = readU8(s);
          if (kind === 4) reject('exceptions', `export ${name} is a tag`);
          if (kind > 3) malformed(`export ${name} of kind ${kind}`, s.pos - 1);
          if (name.startsWith(reservedExportPrefix)) reject('export', `export name ${name} is reserved by the VM`);
          const index = readU32(s);
          const bound = [funcTypes.length, tableEntries === undefined ? 0 : 1, memoryPages === undefined ? 0 : 1, globalCount][kind]!;
          if (index >= bound) reject('invalid', `export ${name} names an unknown item`);
          exports.push({ name, kind, index });
        }
        break;
      }
      case 9: {
        const n = count(s, 'element segments', vmSegmentsMax);
        for (let i = 0; i < n; i++) {
          const flags = readU32(s);
          if (flags !== 0) reject(flags % 2 === 1 ? 'bulk-memory' : 'reference-types', `element segment ${i} has flags ${flags}`);
          const offset = constExpr(s, `element segment ${i}'s offset`);
          const length = readU32(s);
          for (let k = 0; k < length; k++) {
            if (readU32(s) >= funcTypes.length) reject('invalid', `element segment ${i} names an unknown function`);
          }
          if (tableEntries === undefined || offset + length > tableEntries) {
            reject('invalid', `element segment ${i} does not fit the table`);
          }
        }
        break;
      }
      case 10: {
        const n = readU32(s);
        if (n !== (definedFuncs ?? 0)) malformed(`${n} function bodies for ${definedFuncs ?? 0} functions`, s.pos);
        for (let i = 0; i < n; i++) {
          const size = readU32(s);
          if (size > vmFunctionBodyBytesMax) reject('too-large', `function ${i}'s body is ${size} bytes`);
          const start = s.pos;
          readBytes(s, size);
          bodies.push({ start, end: s.pos });
        }
        break;
      }
      case 11: {
        const n = count(s, 'data segments', vmSegmentsMax);
        for (let i = 0; i < n; i++) {
          const flags = readU32(s);
          if (flags === 1) reject('bulk-memory', `data segment ${i} is passive`);
          if (flags !== 0) reject('multi-memory', `data segment ${i} names a memory`);
          const offset = constExpr(s, `data segment ${i}'s offset`);
          const length = readU32(s);
          readBytes(s, length);
          if (memoryPages === undefined || offset + length > memoryPages * 65_536) {
            reject('invalid', `data segment ${i} does not fit the memory`);
          }
        }
        break;
      }
    }
    if (!atEnd(s)) malformed(`section ${id} has ${s.end - s.pos} bytes past its contents`, s.pos);
  }

  if (definedFuncs !== undefined && !sections.has(10) && definedFuncs > 0) malformed('functions without a code section', bytes.length);
  if (memoryPages === undefined) reject('memory', 'the module defines no memory');
  return {
    bytes,
    sections,
    types,
    funcTypes,
    importedFuncs,
    tableEntries,
    memoryPages,
    globalCount,
    globalEntries,
    exports,
    exportEntries,
    bodies,
  };
}
