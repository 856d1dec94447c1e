// A tiny Wasm assembler for VM tests: builds modules section by section from opcode bytes, so each prepare rule
// can be hit with exactly the construct it refuses (no external toolchain, no text format).
export const I32 = 0x7f;
export const I64 = 0x7e;
export const F32 = 0x7d;
export const F64 = 0x7c;
export const V128 = 0x7b;
export const FUNCREF = 0x70;

export function u32(n: number): number[] {
  const out: number[] = [];
  let v = n >>> 0;
  do {
    const b = v & 0x7f;
    v >>>= 7;
    out.push(v === 0 ? b : b | 0x80);
  } while (v !== 0);
  return out;
}

export function s64(n: bigint | number): number[] {
  let v = BigInt(n);
  const out: number[] = [];
  for (;;) {
    const b = Number(v & 0x7fn);
    v >>= 7n;
    const done = (v === 0n && (b & 0x40) === 0) || (v === -1n && (b & 0x40) !== 0);
    out.push(done ? b : b | 0x80);
    if (done) return out;
  }
}

const utf8 = new TextEncoder();
export const name = (s: string): number[] => {
  const b = [...utf8.encode(s)];
  return [...u32(b.length), ...b];
};
const vec = (items: number[][]): number[] => [...u32(items.length), ...items.flat()];
const section = (id: number, content: number[]): number[] => [id, ...u32(content.length), ...content];

export interface FuncSpec {
  type: number;
  locals?: [count: number, type: number][];
  code: number[]; // instructions, without the final `end`
}

export interface ModuleSpec {
  types?: [params: number[], results: number[]][];
  imports?: [module: string, field: string, kind: number, desc: number[]][];
  funcs?: FuncSpec[];
  table?: number[] | null; // raw table entry
  memory?: number[] | null; // raw limits, default [0x01, 1, 1]; null: no memory section
  globals?: number[][]; // raw entries
  exports?: [name: string, kind: number, index: number][];
  start?: number;
  elements?: number[][];
  data?: number[][];
  /** Extra raw sections inserted before the code section: [id, content]. */
  extra?: [number, number[]][];
}

/** Builds a module; defaults: one memory of 1 page with a maximum of 1, nothing else. */
export function wasmModule(spec: ModuleSpec): Uint8Array {
  const out = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  const types = spec.types ?? [];
  if (types.length) out.push(...section(1, vec(types.map(([p, r]) => [0x60, ...u32(p.length), ...p, ...u32(r.length), ...r]))));
  if (spec.imports?.length) out.push(...section(2, vec(spec.imports.map(([m, f, k, d]) => [...name(m), ...name(f), k, ...d]))));
  const funcs = spec.funcs ?? [];
  if (funcs.length) out.push(...section(3, vec(funcs.map((f) => u32(f.type)))));
  if (spec.table) out.push(...section(4, vec([spec.table])));
  if (spec.memory !== null) out.push(...section(5, vec([spec.memory ?? [0x01, 1, 1]])));
  if (spec.globals?.length) out.push(...section(6, vec(spec.globals)));
  if (spec.exports?.length) out.push(...section(7, vec(spec.exports.map(([n, k, i]) => [...name(n), k, ...u32(i)]))));
  if (spec.start !== undefined) out.push(...section(8, u32(spec.start)));
  if (spec.elements?.length) out.push(...section(9, vec(spec.elements)));
  for (const [id, content] of spec.extra ?? []) out.push(...section(id, content));
  if (funcs.length) {
    const bodies = funcs.map((f) => {
      const body = [...vec((f.locals ?? []).map(([n, t]) => [...u32(n), t])), ...f.code, 0x0b];
      return [...u32(body.length), ...body];
    });
    out.push(...section(10, vec(bodies)));
  }
  if (spec.data?.length) out.push(...section(11, vec(spec.data)));
  return Uint8Array.from(out);
}

/** A module with one exported `() -> ()` function `run` whose body is `code` (and optional locals). */
export function runModule(code: number[], extra: Partial<ModuleSpec> = {}, locals: FuncSpec['locals'] = []): Uint8Array {
  return wasmModule({
    types: [[[], []]],
    funcs: [{ type: 0, locals, code }],
    exports: [['run', 0, 0]],
    ...extra,
  });
}
