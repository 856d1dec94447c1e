/**
 * Decoded state-trie nodes kept in memory, by node hash (docs/state-trie.md "Node cache"). Nodes are content-addressed
 * and immutable, so a cached node is never stale: whatever root reads it, the bytes under that hash are these. What
 * the cache saves is the store read (an LMDB lookup and a buffer allocation per level of every walk) and the decode:
 * an account read walks ~log2(accounts) nodes, and the mempool, templates and acceptance read thousands of accounts a
 * block.
 *
 * Bounded by two generations (a cheap LRU): hits and inserts land in the young map; when it is full the old map is
 * dropped and the young one becomes old. A node read at least once per generation stays; memory is at most
 * 2 × `maxNodes` nodes.
 */
import { byteKey as nodeKey } from '../util/byte-key.ts';
import type { TrieNode } from './trie-node.ts';


export interface TrieNodeCache {
  get(hash: Uint8Array): TrieNode | undefined;
  set(hash: Uint8Array, node: TrieNode): void;
  /** Nodes held now (both generations). */
  size(): number;
  /** Lookups that found their node, and those that did not, since the cache was made. */
  readonly stats: { hits: number; misses: number };
}

export function createTrieNodeCache(maxNodes: number): TrieNodeCache {
  let young = new Map<string, TrieNode>();
  let old = new Map<string, TrieNode>();
  const stats = { hits: 0, misses: 0 };
  const put = (key: string, node: TrieNode): void => {
    if (young.size >= maxNodes) {
      old = young;
      young = new Map();
    }
    young.set(key, node);
  };
  return {
    get(hash) {
      const key = nodeKey(hash);
      const fresh = young.get(key);
      if (fresh !== undefined) {
        stats.hits++;
        return fresh;
      }
      const aged = old.get(key);
      if (aged === undefined) {
        stats.misses++;
        return undefined;
      }
      stats.hits++;
      old.delete(key);
      put(key, aged);
      return aged;
    },
    set(hash, node) {
      put(nodeKey(hash), node);
    },
    size: () => young.size + old.size,
    stats,
  };
}
