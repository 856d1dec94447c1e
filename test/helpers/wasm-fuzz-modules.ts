// Random integer-only Wasm modules for the VM's differential fuzz (test/integration/vm/vm-fuzz-differential.test.ts), translated
// from random bytes the way binaryen's own `-ttf` mode does, and built with binaryen's module builder.
//
// Why not `wasm-opt -ttf` itself: binaryen's JS API does not expose the fuzz translation, and the CLI's modules
// always use floats (no feature flag turns them off) and import its logging functions, which prepare refuses, so
// almost none would reach the comparison. This translator draws only what prepare version 1 accepts: i32/i64
// arithmetic with every trapping op (div/rem by zero, overflow), sign extension, loads and stores in and out of
// bounds, memory.size/grow, globals, nested blocks with br/br_if/br_table, returns from any depth, unreachable,
// bounded loops, select, and calls along a DAG (so the original engine never recurses without bound: with unlimited
// gas, the stack budget is the only thing the instrumented module adds that could stop it). A quarter of the modules
// then go through binaryen's optimizer, for shapes a hand translator would not write (it costs more than the rest).
import binaryen from 'binaryen';

type Expr = number;
const { i32, i64, none } = binaryen;

/** Reads choices from the input bytes; past the end every choice is 0, so every input translates. */
class ByteChoices {
  private pos = 0;
  constructor(private readonly bytes: Uint8Array) {}
  /** A number in [0, n). */
  pick(n: number): number {
    if (this.pos >= this.bytes.length) return 0;
    return this.bytes[this.pos++]! % n;
  }
  int32(): number {
    return (this.pick(256) | (this.pick(256) << 8) | (this.pick(256) << 16) | (this.pick(256) << 24)) | 0;
  }
  /** Small and edge values more often than others: they are where arithmetic traps and wraps. */
  interesting32(): number {
    const edge = [0, 1, -1, 2, 8, 31, 32, 0x7fffffff, -0x80000000, 65_535, 65_536, 0xff];
    return this.pick(3) === 0 ? this.int32() : edge[this.pick(edge.length)]!;
  }
  get exhausted(): boolean {
    return this.pos >= this.bytes.length;
  }
  get consumed(): number {
    return this.pos;
  }
}

const funcCountMax = 4;
const exprDepthMax = 5;
const loopTripsMax = 4;
const loopNestingMax = 2;
const callSitesMax = 2;

interface FuncScope {
  readonly index: number;
  /** Locals by type: params 0 (i32) and 1 (i64), then vars. */
  readonly i32Locals: readonly number[];
  readonly i64Locals: readonly number[];
  /** One reserved i32 counter per loop nesting level, never touched by generated code. */
  readonly loopCounters: readonly number[];
  /** Enclosing void labels that a statement may branch to. */
  labels: string[];
  loops: number;
  callSites: number;
  nextLabel: number;
}

class Translator {
  constructor(
    private readonly m: binaryen.Module,
    /** The choices of the function being built: each function reads its own share of the input. */
    public c: ByteChoices,
    private readonly funcCount: number,
  ) {}

  private const32 = (): Expr => this.m.i32.const(this.c.interesting32());
  private const64 = (): Expr => this.m.i64.const(this.c.pick(4) === 0 ? (BigInt(this.c.int32()) << 32n) | BigInt(this.c.int32() >>> 0) : BigInt(this.c.interesting32()));

  /** A pointer: mostly inside the one page, sometimes anywhere (a trap). */
  private pointer(f: FuncScope, depth: number): Expr {
    const raw = this.expr32(f, depth + 1);
    return this.c.pick(8) === 0 ? raw : this.m.i32.and(raw, this.m.i32.const(0xfff8));
  }

  /** At most callSitesMax calls per function and none in a loop, so a call chain's work stays small. */
  private callee(f: FuncScope): number | undefined {
    if (f.loops > 0 || f.callSites >= callSitesMax) return undefined;
    f.callSites++;
    const later = this.funcCount - f.index - 1;
    return later > 0 ? f.index + 1 + this.c.pick(later) : undefined;
  }

  private call(f: FuncScope, depth: number): Expr | undefined {
    const target = this.callee(f);
    if (target === undefined) return undefined;
    return this.m.call(`f${target}`, [this.expr32(f, depth + 1), this.expr64(f, depth + 1)], i64);
  }

  expr32(f: FuncScope, depth: number): Expr {
    const m = this.m;
    if (depth >= exprDepthMax || this.c.exhausted) return this.c.pick(2) ? this.const32() : m.local.get(f.i32Locals[this.c.pick(f.i32Locals.length)]!, i32);
    const a = (): Expr => this.expr32(f, depth + 1);
    const b64 = (): Expr => this.expr64(f, depth + 1);
    const binary = [m.i32.add, m.i32.sub, m.i32.mul, m.i32.div_s, m.i32.div_u, m.i32.rem_s, m.i32.rem_u, m.i32.and, m.i32.or, m.i32.xor, m.i32.shl, m.i32.shr_s, m.i32.shr_u, m.i32.rotl, m.i32.rotr, m.i32.eq, m.i32.ne, m.i32.lt_s, m.i32.lt_u, m.i32.gt_s, m.i32.ge_u, m.i32.le_s];
    const unary = [m.i32.clz, m.i32.ctz, m.i32.popcnt, m.i32.eqz, m.i32.extend8_s, m.i32.extend16_s];
    switch (this.c.pick(16)) {
      case 0: return this.const32();
      case 1: return m.local.get(f.i32Locals[this.c.pick(f.i32Locals.length)]!, i32);
      case 2: return m.global.get('g32', i32);
      case 3: case 4: case 5: return binary[this.c.pick(binary.length)]!(a(), a());
      case 6: return unary[this.c.pick(unary.length)]!(a());
      case 7: return this.c.pick(2) ? m.i32.wrap(b64()) : [m.i64.eq, m.i64.lt_s, m.i64.gt_u, m.i64.ne][this.c.pick(4)]!(b64(), b64());
      case 8: {
        const ptr = this.pointer(f, depth);
        const offset = this.c.pick(4) * 4;
        return [() => m.i32.load(offset, 4, ptr), () => m.i32.load8_s(offset, 1, ptr), () => m.i32.load16_u(offset, 2, ptr)][this.c.pick(3)]!();
      }
      case 9: return m.local.tee(f.i32Locals[this.c.pick(f.i32Locals.length)]!, a(), i32);
      case 10: return m.select(a(), a(), a());
      case 11: return m.if(a(), a(), a());
      case 12: {
        const call = this.call(f, depth);
        return call === undefined ? m.memory.size() : m.i32.wrap(call);
      }
      case 13: return this.c.pick(2) ? m.memory.size() : m.memory.grow(m.i32.const(this.c.pick(3)));
      case 14: return this.valueBlock(f, depth, i32);
      default: return m.i32.add(a(), this.const32());
    }
  }

  expr64(f: FuncScope, depth: number): Expr {
    const m = this.m;
    if (depth >= exprDepthMax || this.c.exhausted) return this.c.pick(2) ? this.const64() : m.local.get(f.i64Locals[this.c.pick(f.i64Locals.length)]!, i64);
    const a = (): Expr => this.expr64(f, depth + 1);
    const binary = [m.i64.add, m.i64.sub, m.i64.mul, m.i64.div_s, m.i64.div_u, m.i64.rem_s, m.i64.rem_u, m.i64.and, m.i64.or, m.i64.xor, m.i64.shl, m.i64.shr_s, m.i64.shr_u, m.i64.rotl, m.i64.rotr];
    const unary = [m.i64.clz, m.i64.ctz, m.i64.popcnt, m.i64.extend8_s, m.i64.extend16_s, m.i64.extend32_s];
    switch (this.c.pick(15)) {
      case 0: return this.const64();
      case 1: return m.local.get(f.i64Locals[this.c.pick(f.i64Locals.length)]!, i64);
      case 2: return m.global.get('g64', i64);
      case 3: case 4: case 5: return binary[this.c.pick(binary.length)]!(a(), a());
      case 6: return unary[this.c.pick(unary.length)]!(a());
      case 7: return this.c.pick(2) ? m.i64.extend_s(this.expr32(f, depth + 1)) : m.i64.extend_u(this.expr32(f, depth + 1));
      case 8: {
        const ptr = this.pointer(f, depth);
        return this.c.pick(2) ? m.i64.load(this.c.pick(4) * 8, 8, ptr) : m.i64.load32_s(0, 4, ptr);
      }
      case 9: return m.local.tee(f.i64Locals[this.c.pick(f.i64Locals.length)]!, a(), i64);
      case 10: return m.select(this.expr32(f, depth + 1), a(), a());
      case 11: return this.call(f, depth) ?? this.const64();
      case 12: return this.valueBlock(f, depth, i64);
      case 13: return m.if(this.expr32(f, depth + 1), this.call(f, depth) ?? a(), a());
      default: return m.if(this.expr32(f, depth + 1), a(), a());
    }
  }

  /**
   * The fixed frame of every body, so that calls and returns from inside blocks are common rather than rare (left
   * to chance, a function that calls and returns from depth appeared in about one module of sixty):
   *   statement; drop(call f_j(...)); block { block { statement; if (c) return v } }; statement; value
   */
  body(f: FuncScope): Expr {
    const m = this.m;
    const call = this.call(f, 1);
    // Named, or binaryen's writer would leave the blocks out.
    const nestedReturn = m.block(`r${f.nextLabel++}`, [m.block(`r${f.nextLabel++}`, [this.statement(f, 2), m.if(this.expr32(f, 2), m.return(this.expr64(f, 2)))], none)], none);
    return m.block(null, [this.statement(f, 0), call === undefined ? m.nop() : m.drop(call), nestedReturn, this.statement(f, 0), this.expr64(f, 0)], i64);
  }

  /** block (result T) { statements; drop(br_if $l value cond); value }: a value leaving early or at the end. */
  private valueBlock(f: FuncScope, depth: number, type: binaryen.Type): Expr {
    const label = `v${f.nextLabel++}`;
    const value = (): Expr => (type === i32 ? this.expr32(f, depth + 1) : this.expr64(f, depth + 1));
    const early = this.m.drop(this.m.br(label, this.expr32(f, depth + 1), value()));
    return this.m.block(label, [this.statement(f, depth + 1), early, value()], type);
  }

  statement(f: FuncScope, depth: number): Expr {
    const m = this.m;
    if (depth >= exprDepthMax || this.c.exhausted) return m.local.set(f.i32Locals[this.c.pick(f.i32Locals.length)]!, this.const32());
    switch (this.c.pick(13)) {
      case 0: return m.local.set(f.i32Locals[this.c.pick(f.i32Locals.length)]!, this.expr32(f, depth + 1));
      case 1: return m.local.set(f.i64Locals[this.c.pick(f.i64Locals.length)]!, this.expr64(f, depth + 1));
      case 2: return this.c.pick(2) ? m.global.set('g32', this.expr32(f, depth + 1)) : m.global.set('g64', this.expr64(f, depth + 1));
      case 3: {
        const ptr = this.pointer(f, depth);
        const kind = this.c.pick(4);
        if (kind === 0) return m.i32.store(0, 4, ptr, this.expr32(f, depth + 1));
        if (kind === 1) return m.i32.store8(this.c.pick(8), 1, ptr, this.expr32(f, depth + 1));
        if (kind === 2) return m.i64.store16(2, 2, ptr, this.expr64(f, depth + 1));
        return m.i64.store(8, 8, ptr, this.expr64(f, depth + 1));
      }
      case 4: return m.if(this.expr32(f, depth + 1), this.statements(f, depth + 1), this.c.pick(2) ? this.statements(f, depth + 1) : undefined);
      case 5: return this.loop(f, depth);
      case 6: case 7: return this.branchBlock(f, depth);
      case 8: return m.drop(this.c.pick(2) ? this.expr32(f, depth + 1) : this.expr64(f, depth + 1));
      case 9: return m.return(this.expr64(f, depth + 1));
      case 10: return this.c.pick(6) === 0 ? m.unreachable() : m.nop();
      case 11: {
        if (f.labels.length === 0) return m.nop();
        const target = (): string => f.labels[this.c.pick(f.labels.length)]!;
        return this.c.pick(2) ? m.br(target(), this.expr32(f, depth + 1)) : m.switch([target(), target(), target()], target(), this.expr32(f, depth + 1));
      }
      default: return this.statements(f, depth + 1);
    }
  }

  private statements(f: FuncScope, depth: number): Expr {
    const n = 1 + this.c.pick(3);
    const list: Expr[] = [];
    for (let i = 0; i < n; i++) list.push(this.statement(f, depth + 1));
    return this.m.block(null, list, none);
  }

  /** block $b { statements that may br/br_if/br_table to $b or any enclosing block } */
  private branchBlock(f: FuncScope, depth: number): Expr {
    const label = `b${f.nextLabel++}`;
    f.labels.push(label);
    // A conditional return from inside the block: the instrumenter rewrites returns by their depth.
    const leave = this.m.if(this.expr32(f, depth + 1), this.m.return(this.expr64(f, depth + 1)));
    const body = [this.statements(f, depth + 1), this.m.br(label, this.expr32(f, depth + 1)), leave, this.statements(f, depth + 1)];
    f.labels.pop();
    return this.m.block(label, body, none);
  }

  /** counter = trips; loop $l { body; counter -= 1; br_if $l (counter != 0) }: at most loopTripsMax per entry. */
  private loop(f: FuncScope, depth: number): Expr {
    const m = this.m;
    if (f.loops >= loopNestingMax) return m.nop();
    const counter = f.loopCounters[f.loops]!;
    const label = `l${f.nextLabel++}`;
    f.loops++;
    const body = this.statements(f, depth + 1);
    f.loops--;
    const step = m.local.set(counter, m.i32.sub(m.local.get(counter, i32), m.i32.const(1)));
    return m.block(null, [
      m.local.set(counter, m.i32.const(1 + this.c.pick(loopTripsMax))),
      m.loop(label, m.block(null, [body, step, m.br(label, m.local.get(counter, i32))], none)),
    ], none);
  }
}

/** The module's bytes (one memory of one page with a data segment, two globals, `funcCount` exported functions
 * `f<k>: (i32, i64) → i64`), and how many functions it exports. */
export function translateToModule(bytes: Uint8Array): { readonly wasm: Uint8Array; readonly funcCount: number } {
  const c = new ByteChoices(bytes);
  const m = new binaryen.Module();
  try {
    m.setFeatures(binaryen.Features.MVP | binaryen.Features.SignExt);
    const funcCount = 2 + c.pick(funcCountMax - 1);
    const data = new Uint8Array(16).map(() => c.pick(256));
    m.setMemory(1, 1, 'memory', [{ offset: m.i32.const(c.pick(4) * 16), data, passive: false }]);
    m.addGlobal('g32', i32, true, m.i32.const(c.interesting32()));
    m.addGlobal('g64', i64, true, m.i64.const(BigInt(c.interesting32())));
    const t = new Translator(m, c, funcCount);
    // Each function reads its own slice of the rest of the input: one shared stream would leave the functions built
    // last (the callers) with nothing but leaves.
    const rest = bytes.subarray(c.consumed);
    const share = Math.ceil(rest.length / funcCount);
    // Build the last function first so every call names a function that already exists.
    for (let index = funcCount - 1; index >= 0; index--) {
      t.c = new ByteChoices(rest.subarray(index * share, (index + 1) * share));
      // Locals: 0 i32 param, 1 i64 param, vars 2 i32, 3 i64, 4 i32, 5.. loop counters (i32).
      const scope: FuncScope = { index, i32Locals: [0, 2, 4], i64Locals: [1, 3], loopCounters: [5, 6], labels: [], loops: 0, callSites: 0, nextLabel: 0 };
      m.addFunction(`f${index}`, binaryen.createType([i32, i64]), i64, [i32, i64, i32, i32, i32], t.body(scope));
      m.addFunctionExport(`f${index}`, `f${index}`);
    }
    if (!m.validate()) throw new Error('the translator built an invalid module');
    if (bytes[0]! % 4 === 0) {
      binaryen.setOptimizeLevel(2);
      binaryen.setShrinkLevel(0);
      m.optimize();
    }
    return { wasm: m.emitBinary(), funcCount };
  } finally {
    m.dispose();
  }
}
