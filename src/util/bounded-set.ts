/**
 * A set and a map that forget their oldest member once they hold `capacity` (insertion order; re-adding refreshes),
 * each operation O(1) amortized.
 *
 * Why not a plain Set or Map evicting `keys().next()`: V8 marks a deleted entry as a hole and rehashes only when the
 * table fills, and every new iterator walks the holes at the front. A FIFO that deletes its oldest on each insert keeps
 * about `capacity / 2` holes there, so each eviction walked thousands: 6 µs an insert at 10,000 members and 22 µs at
 * 50,000, against ~0.7 µs for a plain insert (400,000 inserts, docs/performance.md). Relay's known sets, its
 * transaction cache and the signature cache insert once per transaction per peer.
 *
 * Here the eviction order is an array of keys with a moving head; each key's latest position is its sequence number
 * in the index map, so a refreshed or deleted key's older positions are skipped when they reach the head.
 */
export interface BoundedSet<T> {
  add(value: T): void;
  has(value: T): boolean;
  delete(value: T): boolean;
  readonly size: number;
}

export interface BoundedMap<K, V> {
  get(key: K): V | undefined;
  has(key: K): boolean;
  /** Sets and refreshes: the key becomes the newest. */
  set(key: K, value: V): void;
  delete(key: K): boolean;
  /** The values, in no promised order. */
  values(): IterableIterator<V>;
  readonly size: number;
}

/** Insertion order with O(1) eviction of the oldest: keys in order, and each live key's position (its sequence). */
interface Order<K> {
  readonly position: Map<K, number>;
  keys: K[];
  /** Index in `keys` of the oldest position not yet passed. */
  head: number;
  /** The sequence number of `keys[0]`. */
  base: number;
}

function touch<K>(order: Order<K>, key: K): void {
  order.position.set(key, order.base + order.keys.length);
  order.keys.push(key);
  // Refreshes and deletes leave stale positions behind; past twice the live count they are swept out.
  if (order.keys.length - order.head > 2 * order.position.size + 64) rebuild(order);
}

/** Pops the oldest live key, or undefined when none is left. */
function popOldest<K>(order: Order<K>): K | undefined {
  while (order.head < order.keys.length) {
    const key = order.keys[order.head]!;
    const at = order.base + order.head++;
    if (order.head > 1024 && 2 * order.head > order.keys.length) {
      order.keys = order.keys.slice(order.head);
      order.base += order.head;
      order.head = 0;
    }
    if (order.position.get(key) === at) {
      order.position.delete(key);
      return key;
    }
  }
  return undefined;
}

/** Keeps only live positions, oldest first, renumbered from 0. */
function rebuild<K>(order: Order<K>): void {
  const live = [...order.position].sort((a, b) => a[1] - b[1]).map(([key]) => key);
  order.keys = live;
  order.head = 0;
  order.base = 0;
  live.forEach((key, i) => order.position.set(key, i));
}

function createOrder<K>(): Order<K> {
  return { position: new Map(), keys: [], head: 0, base: 0 };
}

export function createBoundedSet<T>(capacity: number): BoundedSet<T> {
  const order = createOrder<T>();
  return {
    add(value) {
      touch(order, value);
      while (order.position.size > capacity) popOldest(order);
    },
    has: (value) => order.position.has(value),
    delete: (value) => order.position.delete(value),
    get size() {
      return order.position.size;
    },
  };
}

/** `onEvict` hears of each entry forgotten for room (not of deletes). */
export function createBoundedMap<K, V>(capacity: number, onEvict?: (key: K, value: V) => void): BoundedMap<K, V> {
  const order = createOrder<K>();
  const values = new Map<K, V>();
  return {
    get: (key) => values.get(key),
    has: (key) => values.has(key),
    set(key, value) {
      values.set(key, value);
      touch(order, key);
      while (order.position.size > capacity) {
        const oldest = popOldest(order)!;
        const evicted = values.get(oldest) as V;
        values.delete(oldest);
        onEvict?.(oldest, evicted);
      }
    },
    delete(key) {
      order.position.delete(key);
      return values.delete(key);
    },
    values: () => values.values(),
    get size() {
      return values.size;
    },
  };
}
