// A call's buffered writes (src/vm/pending-writes.ts) behave as a map by (variable, key) whether they are few
// (found by scanning) or many (indexed), across the switch from one to the other.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StorageWrite } from '../../../src/vm/host-functions.ts';
import { PendingWrites } from '../../../src/vm/pending-writes.ts';
import { toHex } from '../../../src/util/bytes.ts';

describe('PendingWrites', () => {
  it('agrees with a map by (variable, key) for any sequence of writes and removals', () => {
    const write = fc.record({
      variable: fc.constantFrom('a', 'b', 'ab', 'balances'),
      key: fc.uint8Array({ maxLength: 3 }),
      value: fc.option(fc.uint8Array({ maxLength: 2 }), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(write, { maxLength: 80 }), fc.array(fc.tuple(fc.constantFrom('a', 'b', 'ab', 'balances'), fc.uint8Array({ maxLength: 3 })), { maxLength: 20 }), (writes, probes) => {
        const pending = new PendingWrites();
        const reference = new Map<string, StorageWrite>();
        const id = (variable: string, key: Uint8Array): string => `${variable}/${toHex(key)}`;
        for (const w of writes) {
          pending.set(w);
          reference.set(id(w.variable, w.key), w);
          expect(pending.get(w.variable, Uint8Array.from(w.key))).toBe(w);
        }
        expect(pending.size).toBe(reference.size);
        expect(new Set(pending.values())).toEqual(new Set(reference.values()));
        for (const [variable, key] of [...probes, ...writes.map((w) => [w.variable, w.key] as const)]) {
          expect(pending.get(variable, key)).toBe(reference.get(id(variable, key)));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the first write position when an entry is written again, in both modes', () => {
    for (const count of [3, 40]) {
      const pending = new PendingWrites();
      for (let i = 0; i < count; i++) pending.set({ variable: 'v', key: Uint8Array.of(i), value: Uint8Array.of(1) });
      pending.set({ variable: 'v', key: Uint8Array.of(0), value: undefined });
      expect(pending.size).toBe(count);
      expect(pending.values()[0]).toEqual({ variable: 'v', key: Uint8Array.of(0), value: undefined });
      expect(pending.get('v', Uint8Array.of(count - 1))?.value).toEqual(Uint8Array.of(1));
      expect(pending.get('w', Uint8Array.of(0))).toBeUndefined();
    }
  });
});
