/**
 * BLAKE3 (https://github.com/BLAKE3-team/BLAKE3-specs) on @noble/hashes: the one hash of Weft's consensus (PoW,
 * block and transaction ids, merkle roots, the state trie). The Wasm and WGSL PoW kernels are ports of this and are
 * tested against it; this module is the reference.
 *
 * Three modes of the spec: plain hash, keyed hash (MAC with a 32-byte key) and derive_key (KDF with a context
 * string). Each takes an output length for BLAKE3's extendable output; the default is the 32-byte digest.
 */
import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
import { WeftError } from '../errors.ts';

/** The default (and hash-id) output length. */
const blake3HashBytes = 32;
/** keyed_hash takes exactly a 32-byte key (spec §2.3). */
const blake3KeyBytes = 32;

const textEncoder = new TextEncoder();

export class Blake3ParamError extends WeftError {
  constructor(message: string) {
    super('invalid_params', message);
  }
}

function checkOutBytes(outBytes: number): void {
  if (!Number.isSafeInteger(outBytes) || outBytes < 0) {
    throw new Blake3ParamError(`BLAKE3 output length must be a non-negative safe integer, got ${outBytes}`);
  }
}

/** A BLAKE3 hash-mode function with a 32-byte output, e.g. the Wasm kernel's `hash`. */
export type Blake3Implementation = (data: Uint8Array) => Uint8Array;

let fastHash: Blake3Implementation | undefined;

// Lengths around BLAKE3's block (64) and chunk (1024) edges: an implementation that agrees on these agrees on the tree.
const agreementLengths = [0, 1, 63, 64, 65, 1023, 1024, 1025, 2048, 3073];

/**
 * Routes `blake3()`'s 32-byte hashes through a faster implementation (the node and the tab install the Wasm
 * kernel's, ~9× noble at 64 bytes). It must agree with noble bit for bit: it is checked against noble here before it
 * is used, and refused otherwise. `undefined` goes back to noble.
 */
export function useBlake3Implementation(impl: Blake3Implementation | undefined): void {
  if (impl) {
    for (const length of agreementLengths) {
      const input = Uint8Array.from({ length }, (_, i) => (i * 31 + length) & 0xff);
      const got = impl(input);
      const want = nobleBlake3(input);
      if (got.length !== want.length || got.some((b, i) => b !== want[i])) {
        throw new Blake3ParamError(`BLAKE3 implementation disagrees with the reference on a ${length}-byte input`);
      }
    }
  }
  fastHash = impl;
}

/** BLAKE3 hash of `data`: 32 bytes, or `outBytes` of extended output (the first 32 are the same digest). */
export function blake3(data: Uint8Array, outBytes: number = blake3HashBytes): Uint8Array {
  if (outBytes === blake3HashBytes) return fastHash ? fastHash(data) : nobleBlake3(data);
  checkOutBytes(outBytes);
  return nobleBlake3(data, { dkLen: outBytes });
}

/** keyed_hash mode: a MAC under a 32-byte key. */
export function blake3Keyed(key: Uint8Array, data: Uint8Array, outBytes: number = blake3HashBytes): Uint8Array {
  if (key.length !== blake3KeyBytes) {
    throw new Blake3ParamError(`BLAKE3 key must be ${blake3KeyBytes} bytes, got ${key.length}`);
  }
  checkOutBytes(outBytes);
  return nobleBlake3(data, { key, dkLen: outBytes });
}

/**
 * derive_key mode: key material from `keyMaterial` under a hard-coded, globally unique context string
 * (spec §6.2 recommends "[application] [commit timestamp] [purpose]"). The context is UTF-8 encoded here.
 */
export function blake3DeriveKey(
  context: string,
  keyMaterial: Uint8Array,
  outBytes: number = blake3HashBytes,
): Uint8Array {
  checkOutBytes(outBytes);
  return nobleBlake3(keyMaterial, { context: textEncoder.encode(context), dkLen: outBytes });
}
