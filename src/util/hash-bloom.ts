/**
 * A Bloom filter over 32-byte cryptographic hashes. The hashes are already uniform, so the probe positions are read
 * straight from their bytes (seven 32-bit words) instead of hashing again. Sized at ten bits per expected member:
 * about 1% false positives, which for its one user (the state pruner's "written by a retained block" test) only
 * means a garbage node is kept one round longer.
 */
const probes = 7;
const bitsPerMember = 10;

export interface HashBloom {
  add(hash: Uint8Array): void;
  /** False means certainly absent; true means present or a false positive. */
  has(hash: Uint8Array): boolean;
}

export function createHashBloom(expectedMembers: number): HashBloom {
  const bits = Math.max(1024, Math.ceil(expectedMembers * bitsPerMember));
  const words = new Uint32Array(Math.ceil(bits / 32));
  const size = words.length * 32;
  const position = (hash: Uint8Array, i: number): number => {
    const at = i * 4;
    return ((hash[at]! | (hash[at + 1]! << 8) | (hash[at + 2]! << 16) | (hash[at + 3]! << 24)) >>> 0) % size;
  };
  return {
    add(hash) {
      for (let i = 0; i < probes; i++) {
        const p = position(hash, i);
        words[p >>> 5]! |= 1 << (p & 31);
      }
    },
    has(hash) {
      for (let i = 0; i < probes; i++) {
        const p = position(hash, i);
        if ((words[p >>> 5]! & (1 << (p & 31))) === 0) return false;
      }
      return true;
    },
  };
}
