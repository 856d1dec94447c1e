/**
 * Hashing rules of Weft's state trie: a compact binary sparse Merkle tree over 256-bit keys (the Diem/Aptos shape:
 * a subtree holding one leaf is that leaf, a subtree holding none is the empty hash, and only subtrees holding two
 * or more leaves get an internal node). Shared by the trie, the prover and the light-client verifier, so it imports
 * nothing but BLAKE3 and byte helpers. docs/state-trie.md gives the byte layouts.
 *
 *   empty     = 32 zero bytes                                   (no preimage: nothing hashes to it)
 *   value     = BLAKE3(0x01 || value)
 *   leaf      = BLAKE3(0x00 || key(32) || valueHash(32))        (65-byte preimage)
 *   internal  = BLAKE3(left(32) || right(32))                   (64-byte preimage)
 *
 * Node kinds are told apart by preimage length: leaves are the only 65-byte preimages and internal nodes the only
 * 64-byte ones, so confusing one for the other takes a BLAKE3 collision. Internal nodes carry no tag byte because a
 * 65th byte costs a second compression: 5.7 µs instead of 3.3 µs per call with @noble/hashes on the dev machine,
 * and internal nodes are ~70% of the hashes of a batch.
 */
// The routed BLAKE3 (src/crypto/blake3.ts): the Wasm kernel's once the node or the tab installed it, ~9x noble on
// the 64- and 65-byte preimages that are nearly every hash of a state update.
import { blake3 } from '../crypto/blake3.ts';

/** A 32-byte hash function over bytes; BLAKE3 unless a faster backend of the same function is plugged in. */
export type StateHash = (data: Uint8Array) => Uint8Array;

/** Keys are 32 bytes: callers hash what they key by (BLAKE3(tag || id), src/state/namespaces.ts). */
export const stateKeyBytes = 32;
/** Every node hash, and the root, is 32 bytes. */
export const stateHashBytes = 32;
/** One key bit per level: leaves sit at most this deep, and a proof has at most this many siblings. */
export const stateDepthMax = stateKeyBytes * 8;
/**
 * A stored value: account records, escrows, agent accounts and contract storage slots are small; bulk data (contract
 * code) is stored by hash elsewhere. Bounds a proof's size for light clients.
 */
export const stateValueBytesMax = 4096;

/** Tag byte of a leaf preimage. */
const leafHashTag = 0x00;
/** Tag byte of a value preimage. */
const valueHashTag = 0x01;

/** The hash of an empty subtree, and so the root of the empty state (32 zero bytes; never mutate it). */
export const emptyStateRoot: Uint8Array = new Uint8Array(stateHashBytes);

export const defaultStateHash: StateHash = (data) => blake3(data);

export function isEmptyHash(hash: Uint8Array): boolean {
  for (let i = 0; i < hash.length; i++) if (hash[i] !== 0) return false;
  return true;
}

/** Bit `depth` of `key`, most significant bit of byte 0 first: 0 goes left, 1 goes right. */
export function keyBit(key: Uint8Array, depth: number): number {
  return (key[depth >>> 3]! >>> (7 - (depth & 7))) & 1;
}

/** True when `a` and `b` agree on their first `bits` bits. */
export function sharePrefix(a: Uint8Array, b: Uint8Array, bits: number): boolean {
  const whole = bits >>> 3;
  for (let i = 0; i < whole; i++) if (a[i] !== b[i]) return false;
  const rest = bits & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return ((a[whole]! ^ b[whole]!) & mask) === 0;
}

export function hashValue(hash: StateHash, value: Uint8Array): Uint8Array {
  const preimage = new Uint8Array(1 + value.length);
  preimage[0] = valueHashTag;
  preimage.set(value, 1);
  return hash(preimage);
}

export function hashLeaf(hash: StateHash, key: Uint8Array, valueHash: Uint8Array): Uint8Array {
  const preimage = new Uint8Array(1 + stateKeyBytes + stateHashBytes);
  preimage[0] = leafHashTag;
  preimage.set(key, 1);
  preimage.set(valueHash, 1 + stateKeyBytes);
  return hash(preimage);
}

export function hashInternal(hash: StateHash, left: Uint8Array, right: Uint8Array): Uint8Array {
  const preimage = new Uint8Array(2 * stateHashBytes);
  preimage.set(left, 0);
  preimage.set(right, stateHashBytes);
  return hash(preimage);
}
