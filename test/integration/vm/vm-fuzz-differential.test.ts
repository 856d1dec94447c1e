// Differential fuzz of the instrumenter (issue 16): random integer-only modules (test/helpers/wasm-fuzz-modules.ts,
// built with binaryen) must compute exactly the same thing before and after prepare() with unlimited gas — the same
// return values, the same traps (V8's message names the trap kind), the same memory after every call — and the
// instrumented one must leave its stack budget at zero after every call that returns.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gasGlobalExport, memoryImport, stackGlobalExport } from '../../../src/vm/host-abi.ts';
import { prepareModule } from '../../../src/vm/prepare.ts';
import { translateToModule } from '../../helpers/wasm-fuzz-modules.ts';

type Outcome = { readonly value: bigint } | { readonly trap: string };

function outcome(run: () => unknown): Outcome {
  try {
    return { value: run() as bigint };
  } catch (error) {
    if (error instanceof WebAssembly.RuntimeError) return { trap: error.message };
    throw error; // a RangeError (engine stack) or anything else would be a bug in the translator or the VM
  }
}

const unlimitedGas = 1n << 61n;

/** The first index where two memories differ, or -1 (toEqual on 64 KiB arrays is slower than the whole run). */
function firstDifference(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

describe('instrumented modules compute what their originals compute (differential, binaryen-built)', () => {
  it('same results, traps and memory with unlimited gas', { timeout: 60_000 }, () => {
    let traps = 0;
    let values = 0;
    let runs = 0;
    fc.assert(
      fc.property(
        fc.noBias(fc.uint8Array({ minLength: 64, maxLength: 400 })), // unbiased: small bytes would mostly pick leaves
        fc.array(fc.tuple(fc.integer(), fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n })), { minLength: 1, maxLength: 3 }),
        (bytes, args) => {
          runs++;
          const { wasm, funcCount } = translateToModule(bytes);
          const prepared = prepareModule(wasm, undefined, { keepExports: true });
          const original = new WebAssembly.Instance(new WebAssembly.Module(wasm as Uint8Array<ArrayBuffer>)).exports;
          const memory = new WebAssembly.Memory({ initial: prepared.memoryPages, maximum: prepared.memoryPages });
          const metered = new WebAssembly.Instance(new WebAssembly.Module(prepared.code), { env: { [memoryImport]: memory } }).exports;
          const gas = metered[gasGlobalExport] as WebAssembly.Global;
          const sp = metered[stackGlobalExport] as WebAssembly.Global;
          gas.value = unlimitedGas;
          const originalMemory = (): Uint8Array => new Uint8Array((original.memory as WebAssembly.Memory).buffer);

          for (let k = 0; k < funcCount; k++) {
            for (const [a, b] of args) {
              const before = gas.value as bigint;
              const expected = outcome(() => (original[`f${k}`] as (a: number, b: bigint) => bigint)(a, b));
              const actual = outcome(() => (metered[`f${k}`] as (a: number, b: bigint) => bigint)(a, b));
              expect(actual).toEqual(expected);
              expect(firstDifference(new Uint8Array(memory.buffer), originalMemory())).toBe(-1);
              expect((gas.value as bigint) < before).toBe(true); // every call pays something
              if ('trap' in expected) {
                traps++;
                sp.value = 0; // a trap leaves the budget where it stopped; the next call starts afresh
              } else {
                values++;
                expect(sp.value).toBe(0);
              }
            }
          }
        },
      ),
      // Bounded in time on a loaded box; a quiet one runs all of them in a few seconds.
      { numRuns: 100, interruptAfterTimeLimit: 10_000, markInterruptAsFailure: false },
    );
    // The generator must exercise both ways out, or the comparison proves little.
    console.log(`differential fuzz: ${runs} modules, ${values} returns, ${traps} traps`);
    expect(traps).toBeGreaterThan(5);
    expect(values).toBeGreaterThan(20);
  });
});
