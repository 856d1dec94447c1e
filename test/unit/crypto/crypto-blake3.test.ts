import { describe, expect, it } from 'vitest';
import { blake3, blake3DeriveKey, blake3Keyed, Blake3ParamError } from '../../../src/crypto/blake3.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { readVectorJson } from '../../vectors.ts';

interface Blake3Vectors {
  key: string;
  context_string: string;
  cases: { input_len: number; hash: string; keyed_hash: string; derive_key: string }[];
}

const vectors = readVectorJson<Blake3Vectors>('blake3', 'test_vectors.json');
const key = new TextEncoder().encode(vectors.key);

/** The official input: the repeating sequence 0, 1, …, 250. */
function input(length: number): Uint8Array {
  return Uint8Array.from({ length }, (_, i) => i % 251);
}

describe('BLAKE3 official vectors', () => {
  it('has the official cases', () => {
    expect(vectors.cases.length).toBeGreaterThan(30);
  });

  for (const c of vectors.cases) {
    const extendedBytes = c.hash.length / 2;
    it(`hash, keyed_hash and derive_key of ${c.input_len} bytes`, () => {
      const data = input(c.input_len);
      expect(toHex(blake3(data))).toBe(c.hash.slice(0, 64));
      expect(toHex(blake3(data, extendedBytes))).toBe(c.hash);
      expect(toHex(blake3Keyed(key, data))).toBe(c.keyed_hash.slice(0, 64));
      expect(toHex(blake3Keyed(key, data, extendedBytes))).toBe(c.keyed_hash);
      expect(toHex(blake3DeriveKey(vectors.context_string, data))).toBe(c.derive_key.slice(0, 64));
      expect(toHex(blake3DeriveKey(vectors.context_string, data, extendedBytes))).toBe(c.derive_key);
    });
  }
});

describe('BLAKE3 parameters', () => {
  it('refuses a key that is not 32 bytes', () => {
    expect(() => blake3Keyed(new Uint8Array(31), new Uint8Array(0))).toThrow(Blake3ParamError);
  });

  it('refuses a negative or fractional output length', () => {
    expect(() => blake3(new Uint8Array(0), -1)).toThrow(Blake3ParamError);
    expect(() => blake3(new Uint8Array(0), 1.5)).toThrow(Blake3ParamError);
  });
});

describe('pluggable BLAKE3 implementation', () => {
  it('routes blake3() through an implementation that agrees with noble, and refuses one that does not', async () => {
    const { useBlake3Implementation, blake3: hash } = await import('../../../src/crypto/blake3.ts');
    const { blake3: noble } = await import('@noble/hashes/blake3.js');
    let calls = 0;
    useBlake3Implementation((data) => {
      calls++;
      return noble(data);
    });
    try {
      const before = calls;
      expect(hash(Uint8Array.of(1, 2, 3))).toEqual(noble(Uint8Array.of(1, 2, 3)));
      expect(calls).toBe(before + 1);
      expect(() => useBlake3Implementation((data) => noble(data.subarray(1)))).toThrow(/disagrees/);
    } finally {
      useBlake3Implementation(undefined);
    }
  });
});
