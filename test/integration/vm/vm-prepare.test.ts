// prepare(): every rejection class on a hand-built module that breaks exactly that rule, the accepted shape of the
// output, byte-for-byte determinism, and that junk input only ever yields the typed PrepareError.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blake3 } from '../../../src/crypto/blake3.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { PrepareError, type PrepareRejection } from '../../../src/vm/errors.ts';
import { prepare, prepareModule } from '../../../src/vm/prepare.ts';
import { contractBytes } from '../../helpers/vm-contracts.ts';
import { F32, F64, I32, I64, V128, name, runModule, u32, wasmModule } from '../../helpers/wasm-module.ts';

function rejection(bytes: Uint8Array, version = 1): PrepareRejection | 'accepted' {
  try {
    prepareModule(bytes, version);
    return 'accepted';
  } catch (error) {
    if (error instanceof PrepareError) return error.reason;
    throw error;
  }
}

const inputLenImport: [string, string, number, number[]] = ['env', 'input_len', 0, [1]];

const cases: [string, Uint8Array, PrepareRejection][] = [
  ['an unknown prepare version', runModule([]), 'version'],
  ['bad magic', Uint8Array.of(0x00, 0x61, 0x73, 0x6e, 1, 0, 0, 0), 'malformed'],
  ['a truncated section', runModule([]).subarray(0, 20), 'malformed'],
  ['an overlong LEB128', Uint8Array.of(0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00), 'malformed'],
  ['sections out of order', wasmModule({ types: [[[], []]], extra: [[1, [0]]] }), 'malformed'],
  ['a module over the size limit', wasmModule({ extra: [[0, [...name('pad'), ...new Array(70_000).fill(0)]]] }), 'too-large'],
  ['257 locals', runModule([], {}, [[257, I32]]), 'too-large'],
  ['a type with 17 params', wasmModule({ types: [[new Array(17).fill(I32), []]] }), 'too-large'],
  ['an f32 parameter', wasmModule({ types: [[[F32], []]] }), 'float'],
  ['an f64 local', runModule([], {}, [[1, F64]]), 'float'],
  ['f64.add', runModule([0x44, 0, 0, 0, 0, 0, 0, 0, 0, 0x44, 0, 0, 0, 0, 0, 0, 0, 0, 0xa0, 0x1a]), 'float'],
  ['i32.trunc_f32_s', runModule([0xa8]), 'float'],
  ['a saturating truncation (0xfc 0)', runModule([0xfc, 0x00]), 'float'],
  ['an f32 global', runModule([], { globals: [[F32, 0, 0x43, 0, 0, 0, 0, 0x0b]] }), 'float'],
  ['a v128 local', runModule([], {}, [[1, V128]]), 'simd'],
  ['a SIMD instruction', runModule([0xfd, 0x0c, ...new Array(16).fill(0), 0x1a]), 'simd'],
  ['an atomic instruction', runModule([0x41, 0, 0xfe, 0x10, 2, 0, 0x1a]), 'threads'],
  ['a shared memory', runModule([], { memory: [0x03, 1, 1] }), 'threads'],
  ['memory.copy', runModule([0x41, 0, 0x41, 0, 0x41, 0, 0xfc, 0x0a, 0, 0]), 'bulk-memory'],
  ['memory.fill', runModule([0x41, 0, 0x41, 0, 0x41, 0, 0xfc, 0x0b, 0]), 'bulk-memory'],
  ['a DataCount section', runModule([], { extra: [[12, [0]]] }), 'bulk-memory'],
  ['a passive data segment', runModule([], { data: [[0x01, 1, 0x2a]] }), 'bulk-memory'],
  ['ref.null', runModule([0xd0, 0x70, 0x1a]), 'reference-types'],
  ['an externref table', runModule([], { table: [0x6f, 0x00, 1] }), 'reference-types'],
  ['a typed select', runModule([0x41, 1, 0x41, 2, 0x41, 0, 0x1c, 1, I32, 0x1a]), 'reference-types'],
  ['try', runModule([0x06, 0x40, 0x0b]), 'exceptions'],
  ['a tag section', runModule([], { extra: [[13, [0]]] }), 'exceptions'],
  ['return_call', runModule([0x12, 0x00]), 'tail-calls'],
  ['two results', wasmModule({ types: [[[], [I32, I32]]] }), 'multi-value'],
  ['a block type by type index', runModule([0x02, 0x00, 0x0b]), 'multi-value'],
  ['two memories', twoMemories(), 'multi-memory'],
  ['memory.size of memory 1', runModule([0x3f, 0x01, 0x1a]), 'multi-memory'],
  ['a load with a memory index', runModule([0x41, 0, 0x28, 0x40, 1, 0, 0x1a]), 'multi-memory'],
  ['an import outside the ABI', wasmModule({ types: [[[], []]], imports: [['env', 'now', 0, [0]]] }), 'import'],
  ['an ABI name from another module', wasmModule({ types: [[[], [I32]]], imports: [['wasi', 'input_len', 0, [0]]] }), 'import'],
  ['an ABI function with the wrong type', wasmModule({ types: [[[], [I64]]], imports: [['env', 'input_len', 0, [0]]] }), 'import'],
  ['an imported memory', wasmModule({ imports: [['env', 'memory', 2, [0x01, 1, 1]]], memory: null }), 'import'],
  ['an imported global', wasmModule({ imports: [['env', 'g', 3, [I32, 0]]] }), 'import'],
  ['a start section', runModule([], { start: 0 }), 'start'],
  ['no memory', runModule([], { memory: null }), 'memory'],
  ['a memory without a maximum', runModule([], { memory: [0x00, 1] }), 'memory'],
  ['a memory above the cap', runModule([], { memory: [0x01, 1, 17] }), 'memory'],
  ['an export the VM reserves', runModule([], { exports: [['__weft_gas', 0, 0]] }), 'export'],
  ['an operand stack underflow', runModule([0x6a]), 'invalid'],
  ['a type error the engine finds', runModule([0x42, 1, 0x41, 1, 0x6a, 0x1a]), 'invalid'],
  ['a branch to an unknown label', runModule([0x0c, 0x05]), 'invalid'],
  ['a call to an unknown function', runModule([0x10, 0x07]), 'invalid'],
  ['a data segment past the fixed memory', runModule([], { data: [[0x00, 0x41, ...u32(65_535), 0x0b, 2, 1, 2]] }), 'invalid'],
];

function twoMemories(): Uint8Array {
  const one = runModule([]);
  // Patch the memory section (id 5, "1 memory") to declare two.
  const bytes = [...one];
  const at = bytes.findIndex((b, i) => b === 5 && bytes[i + 1] === 4 && bytes[i + 2] === 1);
  bytes.splice(at, 6, 5, 7, 2, 0x01, 1, 1, 0x01, 1, 1);
  return Uint8Array.from(bytes);
}

describe('prepare refuses', () => {
  it.each(cases)('%s', (_what, bytes, reason) => {
    expect(rejection(bytes, reason === 'version' ? 2 : 1)).toBe(reason);
  });

  it('with a -40007 smart contract error that names the rule', () => {
    try {
      prepareModule(runModule([0xa8]));
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(PrepareError);
      expect((error as PrepareError).code).toBe(-40007);
      expect((error as PrepareError).details).toMatchObject({ reason: 'float' });
      expect((error as PrepareError).message).toContain('0xa8');
    }
  });
});

describe('prepare accepts', () => {
  it('the integer MVP with sign extension, host imports and a funcref table', () => {
    const bytes = wasmModule({
      types: [[[], []], [[], [I32]], [[I32], [I32]]],
      imports: [inputLenImport],
      funcs: [
        { type: 0, code: [0x10, 0x00, 0x41, 0x00, 0x11, 0x02, 0x00, 0xc0, 0x1a] },
        { type: 2, code: [0x20, 0x00, 0xc1] },
      ],
      table: [0x70, 0x00, 1],
      elements: [[0x00, 0x41, 0x00, 0x0b, 1, 2]],
      exports: [['run', 0, 1]],
    });
    const prepared = prepareModule(bytes);
    expect(prepared.entryPoints).toEqual(['run']);
    expect(WebAssembly.validate(prepared.code)).toBe(true);
  });

  it('and fixes the memory at its declared maximum, imported from the host, exporting only the dispatcher, gas and stack', () => {
    const prepared = prepareModule(runModule([], { memory: [0x01, 1, 3] }));
    const module = new WebAssembly.Module(prepared.code);
    expect(WebAssembly.Module.exports(module).map((e) => `${e.name}:${e.kind}`)).toEqual(['__weft_call:function', '__weft_gas:global', '__weft_sp:global']);
    expect(WebAssembly.Module.imports(module)).toEqual([{ module: 'env', name: '__weft_memory', kind: 'memory' }]);
    expect(prepared.memoryPages).toBe(3);
    const instantiate = (memory: WebAssembly.Memory): WebAssembly.Instance => new WebAssembly.Instance(module, { env: { __weft_memory: memory } });
    const memory = new WebAssembly.Memory({ initial: 3, maximum: 3 });
    expect(() => instantiate(memory)).not.toThrow();
    expect(memory.grow(0)).toBe(3);
    expect(() => memory.grow(1)).toThrow(RangeError);
    // Only a memory of exactly that fixed size fits the import: none that could grow, none smaller or larger.
    for (const limits of [{ initial: 3 }, { initial: 3, maximum: 4 }, { initial: 2, maximum: 3 }, { initial: 4, maximum: 4 }]) {
      expect(() => instantiate(new WebAssembly.Memory(limits))).toThrow(WebAssembly.LinkError);
    }
  });

  it('and imports the memory after the host functions, so no function index moves', () => {
    const prepared = prepareModule(wasmModule({ types: [[[], []], [[], [I32]]], imports: [inputLenImport], funcs: [{ type: 0, code: [0x10, 0x00, 0x1a] }], exports: [['run', 0, 1]] }));
    expect(WebAssembly.Module.imports(new WebAssembly.Module(prepared.code)).map((i) => `${i.module}.${i.name}:${i.kind}`)).toEqual([
      'env.input_len:function',
      'env.__weft_memory:memory',
    ]);
  });

  it('the example contracts as asc builds them', () => {
    for (const name of ['counter', 'token', 'faulty', 'escrow'] as const) expect(() => prepareModule(contractBytes(name))).not.toThrow();
  });
});

describe('prepare is deterministic', () => {
  it('gives identical bytes for the same module, and caches by (code hash, version)', () => {
    for (const name of ['counter', 'token', 'faulty', 'escrow'] as const) {
      const bytes = contractBytes(name);
      const a = prepareModule(bytes);
      const b = prepareModule(Uint8Array.from(bytes));
      expect(toHex(a.code)).toBe(toHex(b.code));
      expect(a.codeHash).toEqual(blake3(bytes));
      expect(prepare(bytes)).toBe(prepare(Uint8Array.from(bytes)));
    }
  });

  it('pins the prepared bytes of a hand-built module (a change to instrumentation must keep every gas and result)', () => {
    const prepared = prepareModule(runModule([0x03, 0x40, 0x41, 0x01, 0x0d, 0x00, 0x0b, 0x0f]));
    expect(toHex(prepared.code)).toBe(PINNED_LOOP_MODULE);
  });

  it('refuses random bytes with PrepareError only', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), (junk) => {
        const withHeader = Uint8Array.of(0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, ...junk);
        for (const bytes of [junk, withHeader]) {
          try {
            prepareModule(bytes);
          } catch (error) {
            expect(error).toBeInstanceOf(PrepareError);
          }
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('refuses or accepts mutated contracts, never anything else, and what it accepts validates', () => {
    const token = contractBytes('token');
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(token.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }), (flips) => {
        const bytes = Uint8Array.from(token);
        for (const [at, value] of flips) bytes[at] = value;
        try {
          expect(WebAssembly.validate(prepareModule(bytes).code)).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(PrepareError);
        }
      }),
      { numRuns: 300 },
    );
  });
});

// loop { i32.const 1; br_if 0 } return — decoded: type 1 (i32) → () added; the memory imported as env.__weft_memory
// (1 page, fixed); the gas and stack globals and __weft_call (function 1, type 1) the only exports; in `run`, two
// temporaries appended to the locals (sp0 i32, gas-left i64);
// entry: one test for the stack budget (sp0 > 16384 − 9, the frame being 8 fixed + 1 operand) or-ed with the entry
// charge of 11 (the loop marker 0 + 9 frame slots + 2), the cold path restoring gas and raising sp when the budget
// tripped; a leaf, so sp is not raised and nothing is wrapped; loop; charge 4 (i32.const, br_if, + 2); after br_if:
// charge 3 (end 0, return 1, + 2); `return` kept; end. Then __weft_call: two blocks, br_table [0] default 1, after
// the inner block `call 0; return`, after the outer one `unreachable`.
const PINNED_LOOP_MODULE =
  '0061736d0100000001080260000060017f0002170103656e760d5f5f776566745f6d656d6f7279020101010303020001060b027e0142000b7f0141000b0728030b5f5f776566745f63616c6c00010a5f5f776566745f6761730300095f5f776566745f737003010a7b026602017f017e2301220041f7ff004a2300420b7d220124002001420053720440200041f7ff004a04402001420b7c2400200041096a24010b000b0340230042047d2201240020014200530440000b41010d000b230042037d2201240020014200530440000b0f0b12000240024020000e0100010b10000f0b000b';
