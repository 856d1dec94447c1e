/**
 * How trie nodes are stored: each under `prefix || nodeHash` (content-addressed, immutable), so every root ever
 * computed stays readable and rolling state back is just using an older root. The stored bytes are not the hash
 * preimage (trie-hash.ts): a leaf stores its value (so a read needs no second lookup) and hashes its value's hash.
 *
 *   leaf      0x00 || key(32) || value(0..stateValueBytesMax)
 *   internal  0x01 || left(32) || right(32)          (an empty child is 32 zero bytes)
 *
 * An internal node's hash preimage is its stored bytes minus the tag, so encoding and hashing share one buffer.
 */
import { StateError } from './state-errors.ts';
import { stateHashBytes, stateKeyBytes, stateValueBytesMax } from './trie-hash.ts';
import { toHex } from '../util/bytes.ts';

const leafNodeTag = 0x00;
const internalNodeTag = 0x01;
/** Stored size of an internal node. */
const internalNodeBytes = 1 + 2 * stateHashBytes;

export type TrieNode =
  | { readonly kind: 'leaf'; readonly key: Uint8Array; readonly value: Uint8Array }
  | { readonly kind: 'internal'; readonly left: Uint8Array; readonly right: Uint8Array };

export function encodeLeafNode(key: Uint8Array, value: Uint8Array): Uint8Array {
  const out = new Uint8Array(1 + stateKeyBytes + value.length);
  out[0] = leafNodeTag;
  out.set(key, 1);
  out.set(value, 1 + stateKeyBytes);
  return out;
}

export function encodeInternalNode(left: Uint8Array, right: Uint8Array): Uint8Array {
  const out = new Uint8Array(internalNodeBytes);
  out[0] = internalNodeTag;
  out.set(left, 1);
  out.set(right, 1 + stateHashBytes);
  return out;
}

/** The bytes an internal node hashes: its stored form without the tag (a view, no copy). */
export function internalNodePreimage(encoded: Uint8Array): Uint8Array {
  return encoded.subarray(1);
}

/** Decodes a stored node; the result's fields are views into `bytes`. Throws StateError 'node-corrupt'. */
export function decodeTrieNode(bytes: Uint8Array, hash: Uint8Array): TrieNode {
  const tag = bytes[0];
  if (tag === internalNodeTag && bytes.length === internalNodeBytes) {
    return {
      kind: 'internal',
      left: bytes.subarray(1, 1 + stateHashBytes),
      right: bytes.subarray(1 + stateHashBytes),
    };
  }
  const valueBytes = bytes.length - 1 - stateKeyBytes;
  if (tag === leafNodeTag && valueBytes >= 0 && valueBytes <= stateValueBytesMax) {
    return { kind: 'leaf', key: bytes.subarray(1, 1 + stateKeyBytes), value: bytes.subarray(1 + stateKeyBytes) };
  }
  throw new StateError(
    'node-corrupt',
    `stored state node ${toHex(hash)} does not decode: got tag ${tag ?? 'none'} and ${bytes.length} bytes, ` +
      `expected an internal node (tag 1, ${internalNodeBytes} bytes) or a leaf (tag 0, ` +
      `${1 + stateKeyBytes}..${1 + stateKeyBytes + stateValueBytesMax} bytes)`,
  );
}
