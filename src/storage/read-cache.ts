/**
 * A bounded read cache for store rows (rusty-kaspa's `CachedDbAccess` role): at most `capacity` entries, evicting the
 * least recently used generation. Two generations instead of a linked list: a hit in the young map costs one Map
 * lookup; a hit in the old map moves the entry to the young one; when the young map holds half the capacity it
 * becomes the old one and the previous old one is dropped, so the cache never holds more than `capacity` entries and
 * keeps everything used in the last `capacity / 2` distinct lookups.
 */
export interface ReadCacheStats {
  readonly name: string;
  readonly entries: number;
  readonly capacity: number;
  readonly hits: number;
  readonly misses: number;
}

export interface ReadCache<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): void;
  delete(key: K): void;
  stats(): ReadCacheStats;
}

export function createReadCache<K, V>(name: string, capacity: number): ReadCache<K, V> {
  const half = Math.max(1, Math.floor(capacity / 2));
  let young = new Map<K, V>();
  let old = new Map<K, V>();
  let hits = 0;
  let misses = 0;
  const set = (key: K, value: V): void => {
    young.set(key, value);
    if (young.size >= half) {
      old = young;
      young = new Map();
    }
  };
  return {
    get(key) {
      const fresh = young.get(key);
      if (fresh !== undefined) {
        hits++;
        return fresh;
      }
      const aged = old.get(key);
      if (aged !== undefined) {
        hits++;
        old.delete(key);
        set(key, aged);
        return aged;
      }
      misses++;
      return undefined;
    },
    set(key, value) {
      old.delete(key);
      set(key, value);
    },
    delete(key) {
      young.delete(key);
      old.delete(key);
    },
    stats: () => ({ name, entries: young.size + old.size, capacity, hits, misses }),
  };
}
