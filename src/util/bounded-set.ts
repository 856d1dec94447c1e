/** A set that forgets its oldest member once it holds `capacity` (insertion order; re-adding refreshes). */
export interface BoundedSet<T> {
  add(value: T): void;
  has(value: T): boolean;
  delete(value: T): boolean;
  readonly size: number;
}

export function createBoundedSet<T>(capacity: number): BoundedSet<T> {
  const members = new Set<T>();
  return {
    add(value) {
      members.delete(value);
      members.add(value);
      if (members.size > capacity) members.delete(members.values().next().value as T);
    },
    has: (value) => members.has(value),
    delete: (value) => members.delete(value),
    get size() {
      return members.size;
    },
  };
}
