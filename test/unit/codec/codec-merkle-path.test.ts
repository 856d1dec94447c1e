// Merkle audit paths (src/codec/merkle.ts): for every tree size and every leaf, the path folds back to the root
// merkleRoot gives; any change to the leaf, the index or any sibling gives another root or a coded
// refusal — never the same root.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { merklePath, merkleRoot, merkleRootFromPath, MerklePathError } from '../../../src/codec/merkle.ts';
import { toHex } from '../../../src/util/bytes.ts';

const leaf = (i: number): Uint8Array => Uint8Array.from({ length: 32 }, (_, j) => (i * 31 + j * 7) & 0xff);
// Distinct leaves: with two equal leaves, either index is a true answer.
const leavesArb = fc.uniqueArray(fc.uint8Array({ minLength: 32, maxLength: 32 }), { minLength: 1, maxLength: 70, selector: (l) => toHex(l) });

/** The root from a possibly altered path, or null where the path is refused. */
function rootOrRefused(l: Uint8Array, index: number, count: number, siblings: Uint8Array[]): string | null {
  try {
    return toHex(merkleRootFromPath(l, index, count, siblings));
  } catch (error) {
    if (error instanceof MerklePathError) return null;
    throw error;
  }
}

describe('merkle audit paths', () => {
  it('every leaf of every tree from 1 to 40 leaves folds back to the root', () => {
    for (let n = 1; n <= 40; n++) {
      const leaves = Array.from({ length: n }, (_, i) => leaf(i));
      const root = toHex(merkleRoot(leaves));
      for (let i = 0; i < n; i++) {
        expect(toHex(merkleRootFromPath(leaves[i]!, i, n, merklePath(leaves, i))), `n = ${n}, i = ${i}`).toBe(root);
      }
    }
  });

  it('a path is at most ceil(log2 n) siblings long', () => {
    const leaves = Array.from({ length: 1_000 }, (_, i) => leaf(i));
    for (const i of [0, 511, 512, 999]) expect(merklePath(leaves, i).length).toBeLessThanOrEqual(10);
  });

  // The leaf count is not committed by the root (a 5-leaf path for leaf 0 is also a 6-leaf one): what a path proves
  // is that the leaf is in the tree, which is all a light client asks.
  it('any altered leaf, index or sibling never yields the root', () => {
    fc.assert(fc.property(leavesArb, fc.nat(), fc.nat(), (leaves, pick, bit) => {
      const n = leaves.length;
      const i = pick % n;
      const root = toHex(merkleRoot(leaves));
      const path = merklePath(leaves, i);
      const flipped = leaves[i]!.slice();
      flipped[bit % 32]! ^= 1 << (bit % 8);
      expect(rootOrRefused(flipped, i, n, path)).not.toBe(root);
      if (n > 1) expect(rootOrRefused(leaves[i]!, (i + 1 + (pick % (n - 1))) % n, n, path)).not.toBe(root);
      if (path.length > 0) {
        const s = bit % path.length;
        const changed = path.map((p, k) => (k === s ? Uint8Array.from(p, (b, j) => (j === 0 ? b ^ 1 : b)) : p));
        expect(rootOrRefused(leaves[i]!, i, n, changed)).not.toBe(root);
        expect(rootOrRefused(leaves[i]!, i, n, path.slice(0, -1))).toBeNull();
      }
      expect(rootOrRefused(leaves[i]!, i, n, [...path, leaves[0]!])).toBeNull();
    }), { numRuns: 300 });
  });

  it('refuses indexes and counts that name no leaf', () => {
    const leaves = [leaf(0), leaf(1), leaf(2)];
    expect(() => merklePath(leaves, 3)).toThrow(MerklePathError);
    expect(() => merklePath(leaves, -1)).toThrow(MerklePathError);
    expect(() => merkleRootFromPath(leaf(0), 0, 0, [])).toThrow(MerklePathError);
    expect(() => merkleRootFromPath(leaf(0), 3, 3, [])).toThrow(MerklePathError);
    expect(() => merkleRootFromPath(new Uint8Array(31), 0, 1, [])).toThrow(MerklePathError);
  });
});
