import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { KvStore } from '../../../src/storage/kv.ts';
import { createMemoryStore } from '../../../src/storage/memory-store.ts';
import { openLmdbStore } from '../../../server/storage/lmdb-store.ts';
import { compareBytes, toHex } from '../../../src/util/bytes.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function lmdb(): KvStore {
  const dir = mkdtempSync(join(tmpdir(), 'weft-kv-'));
  dirs.push(dir);
  return openLmdbStore(dir);
}

const backends: Array<[string, () => KvStore]> = [
  ['memory', createMemoryStore],
  ['lmdb', lmdb],
];

// Keys start with a non-zero byte: the KvStore contract (lmdb-js cannot walk a key of a lone 0x00 backwards).
const key = fc.tuple(fc.integer({ min: 1, max: 3 }), fc.uint8Array({ maxLength: 3, max: 3 })).map(([h, t]) => Uint8Array.of(h, ...t));
const value = fc.uint8Array({ minLength: 0, maxLength: 8 });
const op = fc.oneof(
  fc.record({ type: fc.constant('put' as const), key, value }),
  fc.record({ type: fc.constant('del' as const), key }),
);

describe.each(backends)('KvStore on %s', (_name, make) => {
  it('agrees with a sorted map model for any batches, ranges and directions', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(op, { maxLength: 8 }), { maxLength: 6 }), key, fc.boolean(), fc.nat(5), async (batches, prefix, reverse, limit) => {
        const store = make();
        const model = new Map<string, [Uint8Array, Uint8Array]>();
        for (const batch of batches) {
          await store.write(batch);
          for (const o of batch) {
            if (o.type === 'put') model.set(toHex(o.key), [o.key, o.value]);
            else model.delete(toHex(o.key));
          }
        }
        for (const [, [k, v]] of model) expect(store.get(k)).toEqual(v);
        const expected = [...model.values()]
          .filter(([k]) => compareBytes(k.subarray(0, prefix.length), prefix) === 0 && k.length >= prefix.length)
          .sort((a, b) => compareBytes(a[0], b[0]));
        if (reverse) expected.reverse();
        const got = [...store.entries({ prefix, reverse, limit: limit + 1 })].map(([k, v]) => [toHex(k), toHex(v)]);
        expect(got).toEqual(expected.slice(0, limit + 1).map(([k, v]) => [toHex(k), toHex(v)]));
        await store.close();
      }),
      { numRuns: 60 },
    );
  });

  it('respects exclusive end and inclusive start in both directions', async () => {
    const store = make();
    await store.write([1, 2, 3, 4].map((i) => ({ type: 'put' as const, key: Uint8Array.of(7, i), value: Uint8Array.of(i) })));
    const fwd = [...store.entries({ start: Uint8Array.of(7, 2), end: Uint8Array.of(7, 4) })].map(([, v]) => v[0]);
    const rev = [...store.entries({ start: Uint8Array.of(7, 2), end: Uint8Array.of(7, 4), reverse: true })].map(([, v]) => v[0]);
    expect(fwd).toEqual([2, 3]);
    expect(rev).toEqual([3, 2]);
    await store.close();
  });
});

describe('LMDB store', () => {
  it('keeps committed batches across close and reopen', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-kv-'));
    dirs.push(dir);
    const a = openLmdbStore(dir);
    await a.write([{ type: 'put', key: Uint8Array.of(1), value: Uint8Array.of(42) }]);
    await a.close();
    const b = openLmdbStore(dir);
    expect(b.get(Uint8Array.of(1))).toEqual(Uint8Array.of(42));
    await b.close();
  });
});
