/**
 * The verification cache (Bitcoin Core's sigcache, issue 29 "verify once"): a signature the node verified once —
 * at mempool admission, or in a peer's earlier block — is not verified again when a block carries it. Only valid
 * answers are kept (an invalid signature costs its sender the refusal, and caching it would let a flood of junk
 * evict good entries for free).
 *
 * Key = BLAKE3(salt ‖ scheme ‖ message ‖ public key ‖ signature), first 16 bytes (a character each), with a salt
 * drawn at random per process: an adversary cannot aim collisions or evictions at a cache whose keys they cannot
 * compute. Bounded in entries; the oldest insertion goes first (util/bounded-set.ts: a plain Set evicting its first
 * member walked ~65,000 deleted slots an insert once full). Isomorphic: the salt comes from Web Crypto.
 */
import { createBoundedSet } from '../util/bounded-set.ts';
import { byteKey } from '../util/byte-key.ts';
import { blake3 } from './blake3.ts';
import type { WitnessCheck } from './witness-check.ts';
import type { SchnorrCheck } from './verifier.ts';

/** ~130 k entries ≈ 20 blocks of plain transfers, or 2.6 full mempools (mempoolTxCountMax 50 k); ~20 MB. */
const sigCacheEntriesDefault = 131_072;
const saltBytes = 32;
const keyBytes = 16;
const schemeTags: Readonly<Record<string, number>> = { 'bip340': 1, 'ecdsa-secp256k1': 2 };

export interface SigCacheStats {
  readonly entries: number;
  readonly hits: number;
  readonly misses: number;
  readonly inserted: number;
  readonly evicted: number;
}

export interface SigCache {
  /** The cache key of a check, or undefined for schemes the cache does not hold (ring signatures, range proofs). */
  keyOf(check: WitnessCheck | SchnorrCheck): string | undefined;
  /** Whether the check was verified valid before (counts a hit or a miss). */
  has(key: string): boolean;
  /** Records a check verified valid; evicts the oldest entry past the bound. */
  add(key: string): void;
  stats(): SigCacheStats;
  readonly capacity: number;
}

export function createSigCache(capacity: number = sigCacheEntriesDefault, salt?: Uint8Array): SigCache {
  if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`sig cache capacity: expected a positive integer, got ${capacity}`);
  const saltUsed = salt ?? globalThis.crypto.getRandomValues(new Uint8Array(saltBytes));
  const entries = createBoundedSet<string>(capacity);
  let hits = 0;
  let misses = 0;
  let inserted = 0;
  return {
    capacity,
    keyOf(check) {
      const scheme = 'scheme' in check ? check.scheme : 'bip340';
      const tag = schemeTags[scheme];
      if (tag === undefined) return undefined;
      const { signature, message, publicKey } = check as SchnorrCheck;
      if (!(signature instanceof Uint8Array) || !(message instanceof Uint8Array) || !(publicKey instanceof Uint8Array)) return undefined;
      // Lengths are written so that no two (message, key, signature) splits of the same bytes share a key.
      const input = new Uint8Array(saltUsed.length + 7 + message.length + publicKey.length + signature.length);
      input.set(saltUsed, 0);
      let at = saltUsed.length;
      input[at++] = tag;
      for (const part of [message, publicKey, signature]) {
        input[at++] = part.length >> 8;
        input[at++] = part.length & 0xff;
      }
      input.set(message, at);
      input.set(publicKey, at + message.length);
      input.set(signature, at + message.length + publicKey.length);
      return byteKey(blake3(input).subarray(0, keyBytes));
    },
    has(key) {
      const known = entries.has(key);
      if (known) hits++;
      else misses++;
      return known;
    },
    add(key) {
      if (entries.has(key)) return;
      entries.add(key);
      inserted++;
    },
    // Nothing is ever deleted but for room: every insert not held is an eviction.
    stats: () => ({ entries: entries.size, hits, misses, inserted, evicted: inserted - entries.size }),
  };
}
