/**
 * The transaction Merkle tree headers commit to (docs/consensus.md "Merkle root"): RFC 6962 §2.1 with BLAKE3 —
 * leaf = BLAKE3(0x00 || leafHash), node = BLAKE3(0x01 || left || right), and an odd node at the end of a level is
 * promoted unchanged (never paired with itself), which gives RFC 6962's unbalanced tree. The prefixes keep a leaf
 * from posing as a node, and the promotion keeps [a, b, c] and [a, b, c, c] apart (the Bitcoin duplication flaw,
 * CVE-2012-2459).
 *
 * Audit paths let a light client check that one transaction is in a block whose header it verified, without the
 * other transactions: the siblings from the leaf up, one per level where the node has a sibling (a promoted node
 * has none). The leaf count fixes where promotions happen, so it is part of what the verifier is told.
 */
import { blake3 } from '../crypto/blake3.ts';
import { EncodeError } from './bytes-writer.ts';

const leafPrefix = 0x00;
const nodePrefix = 0x01;
const merkleHashBytes = 32;

/** The root of an empty list: BLAKE3 of the empty string, as RFC 6962 defines MTH({}) = HASH(). */
export const emptyMerkleRoot: Uint8Array = blake3(new Uint8Array(0));

export class MerklePathError extends Error {
  override readonly name = 'MerklePathError';
}

function hashLeaf(leaf: Uint8Array): Uint8Array {
  const input = new Uint8Array(1 + merkleHashBytes);
  input[0] = leafPrefix;
  input.set(leaf, 1);
  return blake3(input);
}

function hashNode(left: Uint8Array, right: Uint8Array): Uint8Array {
  const input = new Uint8Array(1 + 2 * merkleHashBytes);
  input[0] = nodePrefix;
  input.set(left, 1);
  input.set(right, 1 + merkleHashBytes);
  return blake3(input);
}

function leafLevel(leaves: readonly Uint8Array[]): Uint8Array[] {
  return leaves.map((leaf, i) => {
    if (leaf.length !== merkleHashBytes) throw new EncodeError(`merkle leaf ${i}: expected ${merkleHashBytes} bytes, got ${leaf.length}`);
    return hashLeaf(leaf);
  });
}

function nextLevel(level: readonly Uint8Array[]): Uint8Array[] {
  const next: Uint8Array[] = [];
  for (let i = 0; i + 1 < level.length; i += 2) next.push(hashNode(level[i]!, level[i + 1]!));
  // An odd last node moves up unchanged: the same tree as RFC 6962's split at the largest power of two.
  if (level.length % 2 === 1) next.push(level[level.length - 1]!);
  return next;
}

/** Merkle root over 32-byte leaf hashes. */
export function merkleRoot(leaves: readonly Uint8Array[]): Uint8Array {
  if (leaves.length === 0) return emptyMerkleRoot.slice();
  let level = leafLevel(leaves);
  while (level.length > 1) level = nextLevel(level);
  return level[0]!;
}

/** The audit path of leaf `index`: its siblings from the bottom up, skipping levels where it is promoted. */
export function merklePath(leaves: readonly Uint8Array[], index: number): Uint8Array[] {
  if (!Number.isInteger(index) || index < 0 || index >= leaves.length) throw new MerklePathError(`leaf index ${index} is outside 0..${leaves.length - 1}`);
  const siblings: Uint8Array[] = [];
  let level = leafLevel(leaves);
  let at = index;
  while (level.length > 1) {
    const sibling = at ^ 1;
    if (sibling < level.length) siblings.push(level[sibling]!);
    level = nextLevel(level);
    at >>>= 1;
  }
  return siblings;
}

/**
 * The root that `leaf` at `index` of `leafCount` leaves hashes up to along `siblings`. Throws MerklePathError when
 * the path has the wrong number of siblings for that position — a caller then compares the root with a header's.
 */
export function merkleRootFromPath(leaf: Uint8Array, index: number, leafCount: number, siblings: readonly Uint8Array[]): Uint8Array {
  if (!Number.isSafeInteger(leafCount) || leafCount < 1) throw new MerklePathError(`leaf count ${leafCount} is not a positive integer`);
  if (!Number.isInteger(index) || index < 0 || index >= leafCount) throw new MerklePathError(`leaf index ${index} is outside 0..${leafCount - 1}`);
  if (leaf.length !== merkleHashBytes) throw new MerklePathError(`leaf is ${leaf.length} bytes, expected ${merkleHashBytes}`);
  let node = hashLeaf(leaf);
  let at = index;
  let width = leafCount;
  let used = 0;
  while (width > 1) {
    const sibling = at ^ 1;
    if (sibling < width) {
      const next = siblings[used++];
      if (next === undefined) throw new MerklePathError(`the path ends after ${used - 1} siblings; leaf ${index} of ${leafCount} needs more`);
      if (next.length !== merkleHashBytes) throw new MerklePathError(`sibling ${used - 1} is ${next.length} bytes, expected ${merkleHashBytes}`);
      node = (at & 1) === 0 ? hashNode(node, next) : hashNode(next, node);
    }
    at >>>= 1;
    width = (width + 1) >>> 1;
  }
  if (used !== siblings.length) throw new MerklePathError(`the path has ${siblings.length} siblings; leaf ${index} of ${leafCount} needs ${used}`);
  return node;
}
