// A deterministic state for snapshot tests that run across processes (the child that is killed and the test that
// resumes its import must hold the same state): `accounts` keys and 40-byte values from a seeded xorshift32.
import { createMemoryStore } from '../../src/storage/memory-store.ts';
import { createStateTrie, type StateTrie } from '../../src/state/trie.ts';
import { emptyStateRoot } from '../../src/state/trie-hash.ts';
import { toHex } from '../../src/util/bytes.ts';

export const snapshotTriePrefix = Uint8Array.of(0x54);

/** xorshift32: fills its argument with deterministic bytes (no Math.random); not for anything secret. */
export function seededBytes(seed: number): (out: Uint8Array) => Uint8Array {
  let x = seed | 0 || 1;
  return (out) => {
    for (let i = 0; i < out.length; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      out[i] = x & 0xff;
    }
    return out;
  };
}

export function seededSnapshotState(accounts: number, seed = 19): { trie: StateTrie; root: Uint8Array; model: Map<string, Uint8Array> } {
  const fill = seededBytes(seed);
  const model = new Map<string, Uint8Array>();
  for (let i = 0; i < accounts; i++) model.set(toHex(fill(new Uint8Array(32))), fill(new Uint8Array(40)));
  const store = createMemoryStore();
  const trie = createStateTrie({ store, prefix: snapshotTriePrefix });
  const { root, ops } = trie.applyUpdates(emptyStateRoot, model);
  void store.write(ops); // the memory store applies a batch before its promise settles
  return { trie, root, model };
}
