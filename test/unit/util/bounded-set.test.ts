// The bounded set and map (src/util/bounded-set.ts) against a plain model: the oldest member goes first, a re-add
// or a set refreshes, a delete is forgotten by the order too, and the map reports each eviction.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createBoundedMap, createBoundedSet } from '../../../src/util/bounded-set.ts';

type Op = { readonly kind: 'add' | 'delete'; readonly key: number };
const op = fc.record({ kind: fc.constantFrom<'add' | 'delete'>('add', 'add', 'add', 'delete'), key: fc.integer({ min: 0, max: 40 }) });

/** The model: an array in insertion order, newest last. */
function model(capacity: number, ops: readonly Op[]): { members: number[]; evicted: number[] } {
  let members: number[] = [];
  const evicted: number[] = [];
  for (const { kind, key } of ops) {
    members = members.filter((m) => m !== key);
    if (kind === 'add') members.push(key);
    while (members.length > capacity) evicted.push(members.shift()!);
  }
  return { members, evicted };
}

describe('createBoundedSet', () => {
  it('holds exactly what the model holds, after any sequence of adds and deletes', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 12 }), fc.array(op, { maxLength: 400 }), (capacity, ops) => {
      const set = createBoundedSet<number>(capacity);
      for (const { kind, key } of ops) kind === 'add' ? set.add(key) : set.delete(key);
      const { members } = model(capacity, ops);
      expect(set.size).toBe(members.length);
      for (let key = 0; key <= 40; key++) expect(set.has(key)).toBe(members.includes(key));
    }), { numRuns: 300 });
  });

  it('keeps a refreshed member over older ones, through many evictions', () => {
    const set = createBoundedSet<number>(3);
    for (let i = 0; i < 5_000; i++) {
      set.add(-1); // refreshed every round: never the oldest
      set.add(i);
    }
    expect(set.has(-1)).toBe(true);
    expect([4_997, 4_998, 4_999].map((k) => set.has(k))).toEqual([false, true, true]);
    expect(set.size).toBe(3);
  });
});

describe('createBoundedMap', () => {
  it('holds the model\'s members with their latest values, and reports evictions oldest first', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 12 }), fc.array(op, { maxLength: 400 }), (capacity, ops) => {
      const evicted: number[] = [];
      const map = createBoundedMap<number, string>(capacity, (key, value) => {
        expect(value).toBe(`v${key}`);
        evicted.push(key);
      });
      for (const { kind, key } of ops) kind === 'add' ? map.set(key, `v${key}`) : map.delete(key);
      const expected = model(capacity, ops);
      expect(evicted).toEqual(expected.evicted);
      expect(map.size).toBe(expected.members.length);
      for (const key of expected.members) expect(map.get(key)).toBe(`v${key}`);
      for (let key = 0; key <= 40; key++) expect(map.has(key)).toBe(expected.members.includes(key));
    }), { numRuns: 300 });
  });
});
