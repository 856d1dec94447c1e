// Monero's deterministic test RNG (0.18 `crypto/random.c` as driven by `tests/crypto/main.cpp`): a 200-byte
// keccak-f[1600] state filled with 0x2a; each draw of n ≤ 136 bytes permutes the state and copies its first n bytes.
// The state carries across the whole of tests.txt in file order, so the random-dependent lines must run in order.
import { keccakP, keccak_256 } from '@noble/hashes/sha3.js';
import type { RandomBytes } from '../../src/crypto/monero/scalar.ts';

export function createMoneroTestRng(): RandomBytes {
  const bytes = new Uint8Array(200).fill(0x2a);
  const words = new Uint32Array(bytes.buffer);
  return (length: number) => {
    if (length > 136) throw new Error(`test RNG draws at most 136 bytes, asked ${length}`);
    keccakP(words, 24);
    return bytes.slice(0, length);
  };
}

/** A deterministic byte stream for property tests: keccak(seed ‖ counter) blocks. Not for production keys. */
export function createSeededRandom(seed: Uint8Array | number): RandomBytes {
  const seedBytes = typeof seed === 'number' ? new TextEncoder().encode(`seed:${seed}`) : seed;
  let counter = 0;
  return (length: number) => {
    const out = new Uint8Array(length);
    for (let off = 0; off < length; off += 32) {
      const block = keccak_256(new Uint8Array([...seedBytes, ...new TextEncoder().encode(`#${counter++}`)]));
      out.set(block.subarray(0, Math.min(32, length - off)), off);
    }
    return out;
  };
}
