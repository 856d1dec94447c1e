/**
 * The sections that declare functions (WebAssembly core 1.0 §5.5.4 type, §5.5.5 import, §5.5.6 function): function
 * types of i32/i64 with at most one result, imports only of host ABI functions with the ABI's exact types.
 */
import { vmFunctionsMax, vmParamsMax, vmTypesMax } from '../../limits.ts';
import { hostAbi, hostModuleName, isHostFunctionName } from '../host-abi.ts';
import { readName, readU32, readU8, type WasmCursor } from '../wasm-cursor.ts';
import type { ModuleReaderState } from './reader-state.ts';
import { count, reject, valType } from './section-rules.ts';

/** Section 1. */
export function readTypeSection(m: ModuleReaderState, s: WasmCursor): void {
  const n = count(s, 'function types', vmTypesMax);
  for (let i = 0; i < n; i++) {
    const form = readU8(s);
    if (form !== 0x60) reject(form >= 0x4e && form <= 0x5f ? 'reference-types' : 'invalid', `type ${i} is not a function type`);
    const params = Array.from({ length: count(s, `params of type ${i}`, vmParamsMax) }, () => valType(s, `type ${i}`));
    const nResults = readU32(s);
    if (nResults > 1) reject('multi-value', `type ${i} has ${nResults} results`);
    const results = Array.from({ length: nResults }, () => valType(s, `type ${i}`));
    m.types.push({ params, results });
  }
}

const sameTypes = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((v, k) => v === b[k]);

/** Section 2. */
export function readImportSection(m: ModuleReaderState, s: WasmCursor): void {
  const n = count(s, 'imports', Object.keys(hostAbi).length * 2);
  for (let i = 0; i < n; i++) {
    const module = readName(s);
    const name = readName(s);
    const kind = readU8(s);
    if (kind === 4) reject('exceptions', `import ${module}.${name} is a tag`);
    if (kind !== 0) reject('import', `import ${module}.${name} is not a function (only host functions may be imported)`);
    const typeIndex = readU32(s);
    if (module !== hostModuleName || !isHostFunctionName(name)) reject('import', `${module}.${name} is not in the host ABI`);
    const type = m.types[typeIndex];
    const want = hostAbi[name];
    if (!type || !sameTypes(type.params, want.params) || !sameTypes(type.results, want.results)) {
      reject('import', `${module}.${name} is imported with another type than the host ABI's`);
    }
    m.funcTypes.push(typeIndex);
    m.importedFuncs++;
  }
}

/** Section 3. */
export function readFunctionSection(m: ModuleReaderState, s: WasmCursor): void {
  const n = count(s, 'functions', vmFunctionsMax);
  m.definedFuncs = n;
  for (let i = 0; i < n; i++) {
    const t = readU32(s);
    if (t >= m.types.length) reject('invalid', `function ${i} has unknown type ${t}`);
    m.funcTypes.push(t);
  }
}
