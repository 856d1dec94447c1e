/** A binary heap: `pop` returns the item that `before` puts first. For template selection over sender heads. */
export interface Heap<T> {
  push(item: T): void;
  pop(): T | undefined;
  readonly size: number;
}

export function createHeap<T>(before: (a: T, b: T) => boolean): Heap<T> {
  const items: T[] = [];
  const swap = (i: number, j: number) => {
    const t = items[i]!;
    items[i] = items[j]!;
    items[j] = t;
  };
  return {
    push(item) {
      items.push(item);
      let i = items.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!before(items[i]!, items[parent]!)) break;
        swap(i, parent);
        i = parent;
      }
    },
    pop() {
      if (items.length === 0) return undefined;
      const top = items[0];
      const last = items.pop()!;
      if (items.length > 0) {
        items[0] = last;
        let i = 0;
        for (;;) {
          const l = 2 * i + 1;
          const r = l + 1;
          let best = i;
          if (l < items.length && before(items[l]!, items[best]!)) best = l;
          if (r < items.length && before(items[r]!, items[best]!)) best = r;
          if (best === i) break;
          swap(i, best);
          i = best;
        }
      }
      return top;
    },
    get size() {
      return items.length;
    },
  };
}
