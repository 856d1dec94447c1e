// The trie's node cache (src/state/trie-node-cache.ts): two generations, at most 2 × maxNodes held; a node read in
// each generation stays, one not read for a whole generation goes.
import { describe, expect, it } from 'vitest';
import type { TrieNode } from '../../../src/state/trie-node.ts';
import { createTrieNodeCache } from '../../../src/state/trie-node-cache.ts';

const hash = (n: number) => Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? n : i === 30 ? n >> 8 : 0));
const leaf = (n: number): TrieNode => ({ kind: 'leaf', key: hash(n), value: Uint8Array.of(n) });

describe('the trie node cache', () => {
  it('keeps what is read each generation, drops what is not, and never holds more than two generations', () => {
    const cache = createTrieNodeCache(4);
    for (let n = 0; n < 4; n++) cache.set(hash(n), leaf(n));
    expect(cache.get(hash(2))).toEqual(leaf(2));
    // The young generation turns old at the fifth insert; node 2, read again from the old one, moves back to young.
    for (let n = 4; n < 8; n++) cache.set(hash(n), leaf(n));
    expect(cache.get(hash(2))).toEqual(leaf(2));
    for (let n = 8; n < 12; n++) cache.set(hash(n), leaf(n));
    expect(cache.get(hash(0))).toBeUndefined();
    expect(cache.get(hash(2))).toEqual(leaf(2));
    expect(cache.size()).toBeLessThanOrEqual(8);
    expect(cache.stats).toEqual({ hits: 3, misses: 1 });
  });

  it('tells hashes apart by every byte', () => {
    const cache = createTrieNodeCache(16);
    const a = hash(1);
    const b = a.slice();
    b[0] = 0x80;
    cache.set(a, leaf(1));
    expect(cache.get(b)).toBeUndefined();
    expect(cache.get(a)).toEqual(leaf(1));
  });
});
