import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { blake3 } from '@noble/hashes/blake3.js';
import { createMemoryStore } from '../../../src/storage/memory-store.ts';
import { createStateTrie } from '../../../src/state/trie.ts';
import {
  decodeProof,
  encodeProof,
  proofFromJson,
  proofToJson,
  stateProofBytesMax,
  type StateProof,
} from '../../../src/state/proof.ts';
import { verifyProof } from '../../../src/state/proof-verify.ts';
import { StateError } from '../../../src/state/state-errors.ts';
import { emptyStateRoot, hashValue, stateDepthMax, stateValueBytesMax } from '../../../src/state/trie-hash.ts';
import { toHex } from '../../../src/util/bytes.ts';

const base = new Uint8Array(32).fill(0x5a);
/** Unrelated keys and keys one bit away from a base key: proofs from shallow to 256 siblings deep. */
const keyArb = fc.oneof(
  fc.uint8Array({ minLength: 32, maxLength: 32 }),
  fc.integer({ min: 0, max: 255 }).map((bit) => {
    const key = base.slice();
    key[bit >>> 3]! ^= 0x80 >>> (bit & 7);
    return key;
  }),
  fc.constant(base),
);
const mapArb = fc
  .array(fc.tuple(keyArb, fc.uint8Array({ maxLength: 40 })), { maxLength: 30 })
  .map((rows) => new Map(rows.map(([k, v]) => [toHex(k), v])));

function buildTrie(model: Map<string, Uint8Array>) {
  const store = createMemoryStore();
  const trie = createStateTrie({ store, prefix: Uint8Array.of(0x10), overlay: new Map() });
  const { root } = trie.applyUpdates(emptyStateRoot, model);
  return { trie, root };
}

const fromKeyHex = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex, 'hex'));

function u32le(n: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n, true);
  return out;
}

function flipBit(bytes: Uint8Array, bit: number): Uint8Array {
  const out = bytes.slice();
  out[bit >>> 3]! ^= 1 << (bit & 7);
  return out;
}

/** decode + verify; a StateError is the coded failure, anything else is a bug. */
function check(root: Uint8Array, key: Uint8Array, bytes: Uint8Array) {
  try {
    return verifyProof(root, key, decodeProof(bytes));
  } catch (error) {
    if (error instanceof StateError) return error;
    throw error;
  }
}

describe('state proofs: inclusion and absence verify', () => {
  it('every present key proves its value and absent keys prove absence, through bytes and JSON', () => {
    fc.assert(
      fc.property(mapArb, fc.array(keyArb, { maxLength: 8 }), (model, probes) => {
        const { trie, root } = buildTrie(model);
        const keys = [...model.keys()].map(fromKeyHex).concat(probes);
        for (const key of keys) {
          const proof = trie.prove(root, key);
          const expected = model.get(toHex(key));
          expect(proof.kind === 'inclusion').toBe(expected !== undefined);
          const viaBytes = verifyProof(root, key, decodeProof(encodeProof(proof)));
          const viaJson = verifyProof(root, key, proofFromJson(JSON.parse(JSON.stringify(proofToJson(proof)))));
          for (const result of [viaBytes, viaJson]) {
            expect(result.exists).toBe(expected !== undefined);
            if (result.exists) expect(toHex(result.value)).toBe(toHex(expected!));
          }
          expect(encodeProof(decodeProof(encodeProof(proof)))).toEqual(encodeProof(proof));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('the empty state proves every key absent with no siblings', () => {
    const { trie } = buildTrie(new Map());
    const proof = trie.prove(emptyStateRoot, base);
    expect(proof).toEqual({ kind: 'absence-empty', siblings: [] });
    expect(toHex(encodeProof(proof))).toBe('000000');
    expect(verifyProof(emptyStateRoot, base, proof)).toEqual({ exists: false });
  });

  it('keys that differ only in their last bit give 256-sibling proofs that stay small on the wire', () => {
    const other = base.slice();
    other[31]! ^= 1;
    const { trie, root } = buildTrie(new Map([[toHex(base), Uint8Array.of(1)], [toHex(other), Uint8Array.of(2)]]));
    const proof = trie.prove(root, other);
    expect(proof.siblings).toHaveLength(stateDepthMax);
    const bytes = encodeProof(proof);
    expect(bytes.length).toBe(3 + 32 + 32 + 4 + 1); // header, bitmap, one non-empty sibling, value length, value
    expect(verifyProof(root, other, decodeProof(bytes))).toEqual({ exists: true, value: Uint8Array.of(2) });
  });

  it('proofs verify with the same injected hash the trie used', () => {
    const hash = (data: Uint8Array): Uint8Array => blake3(data, { key: new Uint8Array(32).fill(9) });
    const store = createMemoryStore();
    const trie = createStateTrie({ store, prefix: Uint8Array.of(0x10), hash, overlay: new Map() });
    const { root } = trie.applyUpdates(emptyStateRoot, new Map([[toHex(base), Uint8Array.of(4)], ['00'.repeat(32), Uint8Array.of(5)]]));
    const proof = trie.prove(root, base);
    expect(verifyProof(root, base, proof, hash)).toEqual({ exists: true, value: Uint8Array.of(4) });
    expect(() => verifyProof(root, base, proof)).toThrow(expect.objectContaining({ reason: 'proof-invalid' }));
  });
});

describe('state proofs: tampering fails, never a wrong answer', () => {
  it('any single flipped bit of an encoded proof fails verification', () => {
    fc.assert(
      fc.property(mapArb, keyArb, fc.nat(), (model, probe, bitSeed) => {
        const { trie, root } = buildTrie(model);
        for (const key of [probe, ...[...model.keys()].slice(0, 2).map(fromKeyHex)]) {
          const bytes = encodeProof(trie.prove(root, key));
          const result = check(root, key, flipBit(bytes, bitSeed % (bytes.length * 8)));
          expect(result).toBeInstanceOf(StateError);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('every bit of a few full proofs, flipped one at a time, fails', () => {
    const model = new Map([
      [toHex(base), Uint8Array.of(1, 2, 3)],
      ['00'.repeat(32), Uint8Array.of(4)],
      ['ff'.repeat(32), Uint8Array.of(5)],
      [`5b${'5a'.repeat(31)}`, Uint8Array.of(6)],
    ]);
    const { trie, root } = buildTrie(model);
    const absentEmpty = new Uint8Array(32).fill(0x7f);
    const absentLeaf = base.slice();
    absentLeaf[31]! ^= 1;
    const proofs: [Uint8Array, StateProof['kind']][] = [
      [base, 'inclusion'],
      [absentEmpty, 'absence-empty'],
      [absentLeaf, 'absence-leaf'],
    ];
    for (const [key, kind] of proofs) {
      const bytes = encodeProof(trie.prove(root, key));
      expect(decodeProof(bytes).kind).toBe(kind);
      for (let bit = 0; bit < bytes.length * 8; bit++) {
        expect(check(root, key, flipBit(bytes, bit))).toBeInstanceOf(StateError);
      }
    }
  });

  it('a flipped bit in the root, or in the value of an inclusion proof, fails', () => {
    fc.assert(
      fc.property(mapArb, keyArb, fc.nat(255), fc.nat(), (model, probe, rootBit, valueBit) => {
        const { trie, root } = buildTrie(model);
        const key = model.size > 0 ? fromKeyHex([...model.keys()][0]!) : probe;
        const proof = trie.prove(root, key);
        expect(() => verifyProof(flipBit(root, rootBit), key, proof)).toThrow(StateError);
        if (proof.kind === 'inclusion' && proof.value.length > 0) {
          const value = flipBit(proof.value, valueBit % (proof.value.length * 8));
          expect(() => verifyProof(root, key, { ...proof, value })).toThrow(StateError);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('a flipped bit in the key fails an inclusion proof; an absence proof never answers falsely', () => {
    fc.assert(
      fc.property(mapArb, keyArb, fc.nat(255), (model, probe, keyBit) => {
        const { trie, root } = buildTrie(model);
        for (const key of [probe, ...[...model.keys()].slice(0, 3).map(fromKeyHex)]) {
          const proof = trie.prove(root, key);
          const flipped = flipBit(key, keyBit);
          const result = check(root, flipped, encodeProof(proof));
          if (proof.kind === 'inclusion') expect(result).toBeInstanceOf(StateError);
          // A key that differs below the proven empty subtree or foreign leaf is absent too: that answer is true.
          else if (!(result instanceof StateError)) expect(model.has(toHex(flipped))).toBe(false);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('refuses an absence proof built from the key’s own leaf (it would hash to the root)', () => {
    const { trie, root } = buildTrie(new Map([[toHex(base), Uint8Array.of(8)], ['00'.repeat(32), Uint8Array.of(9)]]));
    const inclusion = trie.prove(root, base);
    if (inclusion.kind !== 'inclusion') throw new Error('expected an inclusion proof');
    const forged: StateProof = {
      kind: 'absence-leaf',
      siblings: inclusion.siblings,
      leafKey: base,
      leafValueHash: hashValue((d) => blake3(d), inclusion.value),
    };
    expect(() => verifyProof(root, base, forged)).toThrow(expect.objectContaining({ reason: 'proof-invalid' }));
  });

  it('refuses an absence proof whose leaf is off the key’s path', () => {
    const { trie, root } = buildTrie(new Map([[toHex(base), Uint8Array.of(8)], ['00'.repeat(32), Uint8Array.of(9)]]));
    const absent = base.slice();
    absent[31]! ^= 1;
    const proof = trie.prove(root, absent);
    if (proof.kind !== 'absence-leaf') throw new Error('expected an absence-leaf proof');
    const offPath = new Uint8Array(32).fill(0xff);
    expect(() => verifyProof(root, offPath, proof)).toThrow(expect.objectContaining({ reason: 'proof-invalid' }));
  });
});

describe('state proofs: the binary and JSON forms are bounded and canonical', () => {
  const { trie, root } = buildTrie(
    new Map([[toHex(base), Uint8Array.of(1, 2)], ['00'.repeat(32), Uint8Array.of(3)], [`5b${'5a'.repeat(31)}`, Uint8Array.of(4)]]),
  );
  const good = encodeProof(trie.prove(root, base));

  const malformed: [string, Uint8Array][] = [
    ['an empty input', new Uint8Array(0)],
    ['a truncated proof', good.subarray(0, good.length - 1)],
    ['trailing bytes', Uint8Array.from([...good, 0])],
    ['kind 3', Uint8Array.of(3, 0, 0)],
    ['depth 257', Uint8Array.of(0, 1, 1, ...new Uint8Array(33))],
    ['spare bitmap bits set', Uint8Array.of(0, 1, 0, 0x02)],
    ['an empty sibling marked present', Uint8Array.of(0, 1, 0, 0x01, ...new Uint8Array(32))],
    ['a value length over the bound', Uint8Array.of(2, 0, 0, ...u32le(stateValueBytesMax + 1))],
    ['more than the largest proof', new Uint8Array(stateProofBytesMax + 1)],
  ];
  for (const [what, bytes] of malformed) {
    it(`refuses ${what} as proof-malformed`, () => {
      expect(() => decodeProof(bytes)).toThrow(expect.objectContaining({ reason: 'proof-malformed' }));
    });
  }

  it('refuses malformed JSON: wrong kind, uppercase or unprefixed hex, short siblings, missing fields', () => {
    const json = proofToJson(trie.prove(root, base));
    const bad: unknown[] = [
      null,
      { ...json, kind: 'maybe' },
      { ...json, siblings: 'nope' },
      { ...json, siblings: json.siblings.map((s) => s.toUpperCase().replace('0X', '0x')).concat(['0xAB']) },
      { ...json, siblings: json.siblings.map((s) => s.slice(2)) },
      { ...json, siblings: ['0x00'] },
      { kind: 'inclusion', siblings: [] },
      { kind: 'absence-leaf', siblings: [], leafKey: `0x${'00'.repeat(32)}` },
    ];
    for (const value of bad) {
      expect(() => proofFromJson(value)).toThrow(expect.objectContaining({ reason: 'proof-malformed' }));
    }
  });

  it('the JSON form spells byte strings as 0x-hex', () => {
    const json = proofToJson(trie.prove(root, base));
    expect(json.kind).toBe('inclusion');
    expect(json.value).toBe('0x0102');
    for (const sibling of json.siblings) expect(sibling).toMatch(/^0x[0-9a-f]{64}$/);
  });
});
