// execute(): the gas semantics of the instrumentation on hand-built modules (exact per-block charges), each failure
// told apart (out of gas, trap, revert, stack exhaustion, missing entry, node fault), writes kept only on success,
// host calls charged before their work, and instrumented code computing what the original computes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { vmStackSlotsMax } from '../../../src/limits.ts';
import { VmFaultError } from '../../../src/vm/errors.ts';
import { execute, type CallResult } from '../../../src/vm/execute.ts';
import { callBaseGas } from '../../../src/vm/gas-schedule.ts';
import { memoryImport } from '../../../src/vm/host-abi.ts';
import { prepareModule, type PreparedContract } from '../../../src/vm/prepare.ts';
import { memoryStorage, type MemoryStorage } from '../../helpers/vm-contracts.ts';
import { I32, I64, runModule, s64, u32, wasmModule } from '../../helpers/wasm-module.ts';

const context = { caller: new Uint8Array(33).fill(1), self: new Uint8Array(33).fill(2), value: 0n, blockHeight: 7n, blockTimestamp: 1_700_000_000n };

function run(prepared: PreparedContract, options: { entry?: string; input?: Uint8Array; gasLimit?: bigint; storage?: MemoryStorage } = {}): CallResult {
  return execute({
    prepared,
    entry: options.entry ?? 'run',
    input: options.input ?? new Uint8Array(0),
    context,
    storage: options.storage ?? memoryStorage(),
    gasLimit: options.gasLimit ?? 10_000_000n,
  });
}

const baseOf = (p: PreparedContract): bigint => BigInt(callBaseGas(p.schedule, p.originalBytes, p.memoryPages));

// run(): n = input_len(); block { loop { if n == 0 break; n -= 1; continue } }
const countdown = prepareModule(
  wasmModule({
    types: [[[], []], [[], [I32]]],
    imports: [['env', 'input_len', 0, [1]]],
    funcs: [
      {
        type: 0,
        locals: [[1, I32]],
        code: [0x10, 0x00, 0x21, 0x00, 0x02, 0x40, 0x03, 0x40, 0x20, 0x00, 0x45, 0x0d, 0x01, 0x20, 0x00, 0x41, 0x01, 0x6b, 0x21, 0x00, 0x0c, 0x00, 0x0b, 0x0b],
      },
    ],
    exports: [['run', 0, 1]],
  }),
);

describe('metering', () => {
  it('charges an empty method the call base plus its entry block (8 frame slots + 2 for the charge)', () => {
    const prepared = prepareModule(runModule([]));
    expect(run(prepared)).toMatchObject({ status: 'ok', gasUsed: baseOf(prepared) + 10n });
  });

  it('charges a loop exactly per metered block: entry 20 + input_len 100 + 12 per iteration + 5 for the exit', () => {
    fc.assert(
      fc.property(fc.nat(300), (n) => {
        const result = run(countdown, { input: new Uint8Array(n) });
        expect(result).toMatchObject({ status: 'ok', gasUsed: baseOf(countdown) + 20n + 100n + 12n * BigInt(n) + 5n });
      }),
      { numRuns: 60 },
    );
  });

  it('never uses more than the limit: enough gas gives the same gas used, too little gives out_of_gas at exactly the limit', () => {
    const needed = run(countdown, { input: new Uint8Array(40) }).gasUsed;
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: needed * 2n }), (gasLimit) => {
        const result = run(countdown, { input: new Uint8Array(40), gasLimit });
        expect(result.gasUsed <= gasLimit).toBe(true);
        if (gasLimit >= needed) expect(result).toMatchObject({ status: 'ok', gasUsed: needed });
        else expect(result).toMatchObject({ status: 'out_of_gas', gasUsed: gasLimit });
      }),
      { numRuns: 200 },
    );
  });

  it('uses gas monotone in the work done', () => {
    fc.assert(
      fc.property(fc.nat(200), fc.nat(200), (a, b) => {
        const ga = run(countdown, { input: new Uint8Array(a) }).gasUsed;
        const gb = run(countdown, { input: new Uint8Array(b) }).gasUsed;
        expect(Math.sign(Number(ga - gb))).toBe(Math.sign(a - b));
      }),
      { numRuns: 40 },
    );
  });

  it('stops an infinite loop on gas', () => {
    const prepared = prepareModule(runModule([0x03, 0x40, 0x0c, 0x00, 0x0b]));
    expect(run(prepared, { gasLimit: 1_000_000n })).toEqual({ status: 'out_of_gas', gasUsed: 1_000_000n });
  });

  it('refuses to start a call whose limit does not cover the call base', () => {
    const prepared = prepareModule(runModule([]));
    expect(run(prepared, { gasLimit: baseOf(prepared) - 1n })).toEqual({ status: 'out_of_gas', gasUsed: baseOf(prepared) - 1n });
  });
});

describe('failures are told apart', () => {
  it('a trap (unreachable, division by zero) is a trap, not out of gas, and pays what it used', () => {
    const unreachable = prepareModule(runModule([0x00]));
    expect(run(unreachable)).toMatchObject({ status: 'trap', gasUsed: baseOf(unreachable) + 11n });
    const divide = prepareModule(runModule([0x41, 0x01, 0x41, 0x00, 0x6d, 0x1a]));
    expect(run(divide)).toMatchObject({ status: 'trap' });
  });

  it('a missing, internal or constructor entry is no_entry and pays the call base', () => {
    const prepared = prepareModule(runModule([], { exports: [['run', 0, 0], ['init', 0, 0], ['__start', 0, 0]] }));
    for (const entry of ['nope', '__start', 'init']) {
      expect(run(prepared, { entry })).toMatchObject({ status: 'no_entry', gasUsed: baseOf(prepared) });
    }
    expect(execute({ prepared, entry: 'init', deploy: true, input: new Uint8Array(0), context, storage: memoryStorage(), gasLimit: 10n ** 6n }).status).toBe('ok');
  });

  it('unbounded recursion stops on the stack budget, before the engine stack, even with 256 locals per frame', () => {
    for (const locals of [0, 256]) {
      const prepared = prepareModule(runModule([0x10, 0x00], {}, locals ? [[locals, I64]] : []));
      expect(run(prepared, { gasLimit: 10n ** 12n }).status).toBe('stack_exhausted');
    }
  });

  it('the stack budget is exact: 16,384 slots hold run (9) and 1,488 frames of rec (11 slots each)', () => {
    // rec(n) { if (n) rec(n - 1) }, run() { rec(input_len()) }: rec(n) takes n + 1 frames.
    const prepared = prepareModule(
      wasmModule({
        types: [[[], []], [[], [I32]], [[I32], []]],
        imports: [['env', 'input_len', 0, [1]]],
        funcs: [
          { type: 0, code: [0x10, 0x00, 0x10, 0x02] },
          { type: 2, code: [0x20, 0x00, 0x04, 0x40, 0x20, 0x00, 0x41, 0x01, 0x6b, 0x10, 0x02, 0x0b] },
        ],
        exports: [['run', 0, 1]],
      }),
    );
    expect(9 + 1488 * 11).toBeLessThanOrEqual(vmStackSlotsMax);
    expect(9 + 1489 * 11).toBeGreaterThan(vmStackSlotsMax);
    expect(run(prepared, { input: new Uint8Array(1487), gasLimit: 10n ** 9n }).status).toBe('ok');
    expect(run(prepared, { input: new Uint8Array(1488), gasLimit: 10n ** 9n }).status).toBe('stack_exhausted');
  });

  it('an engine resource error is a node fault, thrown, never a result', () => {
    // A module that skipped instrumentation: it recurses until V8 throws RangeError.
    const raw = wasmModule({
      types: [[[I32], []]],
      funcs: [{ type: 0, code: [0x41, 0x00, 0x10, 0x00] }],
      globals: [[I64, 1, 0x42, 0x00, 0x0b], [I32, 1, 0x41, 0x00, 0x0b]],
      exports: [['__weft_call', 0, 0], ['__weft_gas', 3, 0], ['__weft_sp', 3, 1]],
    }) as Uint8Array<ArrayBuffer>;
    const fake: PreparedContract = { ...prepareModule(runModule([])), code: raw };
    expect(() => run(fake)).toThrow(VmFaultError);
  });
});

// Memory: "nope" at 0, "count" at 16, the value 0x2a at 32.
const storageData = [0x00, 0x41, 0x00, 0x0b, ...u32(33), ...new TextEncoder().encode('nope'), ...new Array(12).fill(0), ...new TextEncoder().encode('count'), ...new Array(11).fill(0), 0x2a];
const writeCount = [0x41, 16, 0x41, 5, 0x41, 0, 0x41, 0, 0x41, 32, 0x41, 1, 0x10, 0x01];
const storageModule = prepareModule(
  wasmModule({
    types: [[[], []], [[I32, I32], []], [[I32, I32, I32, I32, I32, I32], []]],
    imports: [
      ['env', 'revert', 0, [1]],
      ['env', 'storage_write', 0, [2]],
    ],
    funcs: [
      { type: 0, code: writeCount },
      { type: 0, code: [...writeCount, 0x41, 0, 0x41, 4, 0x10, 0x00] },
      { type: 0, code: [...writeCount, 0x00] },
    ],
    exports: [['write', 0, 2], ['write_then_revert', 0, 3], ['write_then_trap', 0, 4]],
    data: [storageData],
  }),
);

describe('storage', () => {
  it('a successful call hands back its writes for the caller to commit', () => {
    const storage = memoryStorage();
    const result = run(storageModule, { entry: 'write', storage });
    expect(result).toMatchObject({ status: 'ok', writes: [{ variable: 'count', key: new Uint8Array(0), value: Uint8Array.of(0x2a) }] });
  });

  it('a revert keeps its message and drops its writes; so does a trap; both still pay', () => {
    const reverted = run(storageModule, { entry: 'write_then_revert' });
    expect(reverted).toMatchObject({ status: 'revert', message: 'nope' });
    expect(reverted).not.toHaveProperty('writes');
    const trapped = run(storageModule, { entry: 'write_then_trap' });
    expect(trapped.status).toBe('trap');
    expect(trapped).not.toHaveProperty('writes');
    // Both paid the write they made: base + entry + 5,000 + 30·6 + 20,000 for a new entry, and more.
    for (const r of [reverted, trapped]) expect(r.gasUsed > baseOf(storageModule) + 25_180n).toBe(true);
  });

  it('host calls are charged before their work: out of gas in storage_write never reads the store', () => {
    const storage = memoryStorage();
    const full = run(storageModule, { entry: 'write', storage });
    storage.reads = 0;
    // Enough for the call base and the Wasm, not for the write's 5,000 + 30/byte.
    const result = run(storageModule, { entry: 'write', storage, gasLimit: full.gasUsed - 25_000n });
    expect(result).toEqual({ status: 'out_of_gas', gasUsed: full.gasUsed - 25_000n });
    expect(storage.reads).toBe(0);
  });
});

// Memory: 0x2a at 100 (a data segment). `scribble` overwrites it and writes 0xffffffff at 96, 104 and the last word;
// `look` copies the last word to 108 and returns memory[96, 112). `grow0` grows by 0 pages (which renews the JS
// buffer of the memory) before returning the same bytes through the host.
const i32 = (n: number): number[] => [0x41, ...s64(n)];
const i32Store = (at: number, value: number[]): number[] => [...i32(at), ...value, 0x36, 0x02, 0x00];
const minusOne = i32(-1);
const scribble = [...i32Store(96, minusOne), ...i32Store(104, minusOne), ...i32Store(65_532, minusOne), ...i32(100), ...i32(0x77), 0x3a, 0x00, 0x00];
const returnWindow = [...i32(96), ...i32(16), 0x10, 0x00];
const look = [...i32Store(108, [...i32(65_532), 0x28, 0x02, 0x00]), ...returnWindow];
const memoryModule = prepareModule(
  wasmModule({
    types: [[[], []], [[I32, I32], []]],
    imports: [['env', 'set_return', 0, [1]]],
    funcs: [
      { type: 0, code: look },
      { type: 0, code: [...scribble, ...look] },
      { type: 0, code: [...scribble, 0x00] },
      { type: 0, code: [0x41, 0x00, 0x40, 0x00, 0x1a, ...returnWindow] },
    ],
    exports: [['look', 0, 1], ['scribble', 0, 2], ['scribble_then_trap', 0, 3], ['grow0', 0, 4]],
    data: [[0x00, ...i32(100), 0x0b, 1, 0x2a]],
  }),
);

describe('every call starts from a fresh memory', () => {
  const fresh = Uint8Array.of(0, 0, 0, 0, 0x2a, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  const ok = (entry: string): Extract<CallResult, { status: 'ok' }> => {
    const result = run(memoryModule, { entry });
    if (result.status !== 'ok') throw new Error(`${entry}: ${result.status}`);
    return result;
  };

  it('nothing a call wrote, returned or trapped after survives into the next (memories are reused, zeroed)', () => {
    const first = ok('look');
    expect(first.returnData).toEqual(fresh);
    expect(ok('scribble').returnData).toEqual(Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0x77, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff));
    expect(ok('look')).toEqual(first);
    expect(run(memoryModule, { entry: 'scribble_then_trap' }).status).toBe('trap');
    expect(ok('look')).toEqual(first);
  });

  it('a call nested in a host function gets a memory of its own, and the outer call carries on with its own', () => {
    let inner: CallResult | undefined;
    const storage = { get: () => ((inner = run(memoryModule, { entry: 'scribble' })), undefined) };
    const reader = prepareModule(
      wasmModule({
        types: [[[], []], [[I32, I32], []], [[I32, I32, I32, I32, I32, I32], [I32]]],
        imports: [['env', 'set_return', 0, [1]], ['env', 'storage_read', 0, [2]]],
        funcs: [{ type: 0, code: [...i32Store(96, minusOne), 0x41, 0, 0x41, 1, 0x41, 0, 0x41, 0, 0x41, 0, 0x41, 0, 0x10, 0x01, 0x1a, ...returnWindow] }],
        exports: [['run', 0, 2]],
        data: [[0x00, 0x41, 0, 0x0b, 1, 0x61]],
      }),
    );
    const outer = execute({ prepared: reader, entry: 'run', input: new Uint8Array(0), context, storage, gasLimit: 10_000_000n });
    expect(inner).toMatchObject({ status: 'ok' });
    expect(outer).toMatchObject({ status: 'ok', returnData: Uint8Array.of(0xff, 0xff, 0xff, 0xff, ...new Array(12).fill(0)) });
    expect(ok('look').returnData).toEqual(fresh);
  });

  it('the host still reads the memory after memory.grow by 0 renews its buffer', () => {
    expect(ok('grow0').returnData).toEqual(fresh);
  });
});

// Entry points in export order b, a, __start, plus `c` (i32) → (), not an entry point. Memory: "ab" at 0. `a` and `b`
// return their own letter, prefixed by what __start left at 8 (which a fresh memory only has if __start ran first).
const returnLetter = (at: number): number[] => [...i32(8), ...i32(at), 0x28, 0x00, 0x00, 0x3a, 0x00, 0x01, ...i32(8), ...i32(2), 0x10, 0x00];
const dispatchModule = prepareModule(
  wasmModule({
    types: [[[], []], [[I32, I32], []], [[I32], []]],
    imports: [['env', 'set_return', 0, [1]]],
    funcs: [
      { type: 0, code: returnLetter(1) },
      { type: 0, code: returnLetter(0) },
      { type: 2, code: [] },
      { type: 0, code: [...i32(8), ...i32(0x53), 0x3a, 0x00, 0x00] },
    ],
    exports: [['b', 0, 1], ['a', 0, 2], ['c', 0, 3], ['__start', 0, 4], ['b_again', 0, 1]],
    data: [[0x00, ...i32(0), 0x0b, 2, 0x61, 0x62]],
  }),
);

describe('entry points', () => {
  it('run through the one dispatcher export, by their sorted index, after __start', () => {
    expect(dispatchModule.entryPoints).toEqual(['__start', 'a', 'b', 'b_again']);
    for (const [entry, letter] of [['a', 'a'], ['b', 'b'], ['b_again', 'b']]) {
      expect(run(dispatchModule, { entry })).toMatchObject({ status: 'ok', returnData: new TextEncoder().encode(`S${letter}`) });
    }
    expect(run(dispatchModule, { entry: 'c' }).status).toBe('no_entry');
  });
});

// Variable names at 0 ("ok_Name9"), 16 ("bad-name") and 32 (0xe9, é in Latin-1), each checked with storage_has.
const namesData = [0x00, ...i32(0), 0x0b, 33, ...new TextEncoder().encode('ok_Name9'), ...new Array(8).fill(0), ...new TextEncoder().encode('bad-name'), ...new Array(8).fill(0), 0xe9];
const hasName = (ptr: number, len: number): number[] => [...i32(ptr), ...i32(len), ...i32(40), ...i32(1), 0x10, 0x00, 0x1a];
const namesModule = prepareModule(
  wasmModule({
    types: [[[], []], [[I32, I32, I32, I32], [I32]]],
    imports: [['env', 'storage_has', 0, [1]]],
    funcs: [hasName(0, 8), hasName(16, 8), hasName(32, 1), hasName(0, 65), hasName(0, 0)].map((code) => ({ type: 0, code })),
    exports: [['good', 0, 1], ['dash', 0, 2], ['latin1', 0, 3], ['long', 0, 4], ['empty', 0, 5]],
    data: [namesData],
  }),
);

describe('variable names', () => {
  it('are 1–64 bytes of [A-Za-z0-9_]; anything else traps', () => {
    expect(run(namesModule, { entry: 'good' }).status).toBe('ok');
    expect(run(namesModule, { entry: 'dash' })).toMatchObject({ status: 'trap', detail: 'a variable name outside [A-Za-z0-9_]' });
    expect(run(namesModule, { entry: 'latin1' })).toMatchObject({ status: 'trap', detail: 'a variable name outside [A-Za-z0-9_]' });
    expect(run(namesModule, { entry: 'long' })).toMatchObject({ status: 'trap', detail: 'a variable name of 65 bytes' });
    expect(run(namesModule, { entry: 'empty' })).toMatchObject({ status: 'trap', detail: 'a variable name of 0 bytes' });
  });
});

// f(n): n % 3 == 0 → 7n; else sum n + (n-1) + … down to 0, returning early (sum - 1) once it passes 1000.
// fib(n): the doubly recursive Fibonacci. Returns at several depths, a br_table, if/else with a result, recursion.
const fBody = [
  0x02, 0x40, 0x02, 0x40, 0x20, 0x00, 0x41, 0x03, 0x70, 0x0e, 0x02, 0x00, 0x01, 0x01, 0x0b,
  0x20, 0x00, 0xad, 0x42, 0x07, 0x7e, 0x0f, 0x0b,
  0x42, 0x00, 0x21, 0x01, 0x03, 0x40, 0x20, 0x01, 0x20, 0x00, 0xad, 0x7c, 0x22, 0x01, 0x42, 0xe8, 0x07, 0x56,
  0x04, 0x40, 0x20, 0x01, 0x42, 0x01, 0x7d, 0x0f, 0x0b,
  0x20, 0x00, 0x45, 0x04, 0x7e, 0x20, 0x01, 0x05, 0x20, 0x00, 0x41, 0x01, 0x6b, 0x21, 0x00, 0x0c, 0x01, 0x0b, 0x0f, 0x0b,
  0x42, 0x7f,
];
const fibBody = [0x20, 0x00, 0x41, 0x02, 0x49, 0x04, 0x7e, 0x20, 0x00, 0xad, 0x05, 0x20, 0x00, 0x41, 0x01, 0x6b, 0x10, 0x01, 0x20, 0x00, 0x41, 0x02, 0x6b, 0x10, 0x01, 0x7c, 0x0b];
const computeModule = wasmModule({
  types: [[[I32], [I64]]],
  funcs: [
    { type: 0, locals: [[1, I64]], code: fBody },
    { type: 0, code: fibBody },
  ],
  exports: [['f', 0, 0], ['fib', 0, 1]],
});

describe('instrumented code computes what the original computes', () => {
  const original = new WebAssembly.Instance(new WebAssembly.Module(computeModule as Uint8Array<ArrayBuffer>)).exports;
  const prepared = prepareModule(computeModule, undefined, { keepExports: true });
  const memory = new WebAssembly.Memory({ initial: prepared.memoryPages, maximum: prepared.memoryPages });
  const instance = new WebAssembly.Instance(new WebAssembly.Module(prepared.code), { env: { [memoryImport]: memory } }).exports;
  (instance.__weft_gas as WebAssembly.Global).value = 1n << 62n;
  const call = (exports: WebAssembly.Exports, name: string, n: number): bigint => (exports[name] as (n: number) => bigint)(n);

  it('with unlimited gas, on every path (returns at each depth, br_table, loops, recursion)', () => {
    fc.assert(
      fc.property(fc.nat(5_000), (n) => {
        expect(call(instance, 'f', n)).toBe(call(original, 'f', n));
      }),
      { numRuns: 300 },
    );
    for (let n = 0; n <= 20; n++) expect(call(instance, 'fib', n)).toBe(call(original, 'fib', n));
    expect(call(instance, 'fib', 20)).toBe(6765n);
    // Every normal exit ran its epilogue: the stack budget is back to zero.
    expect((instance.__weft_sp as WebAssembly.Global).value).toBe(0);
  });
});
