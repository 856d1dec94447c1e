// The mempool journal (docs/mempool.md "Durability"): rows in admission order, read back in that order after a
// "restart" (a second journal over the same store), sequence numbers continuing past the stored ones, removal, and
// one row per transaction however often it is appended.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { blake3 } from '../../../src/crypto/blake3.ts';
import { createMempoolJournal } from '../../../src/mempool/journal.ts';
import { createMemoryStore } from '../../../src/storage/memory-store.ts';
import { toHex } from '../../../src/util/bytes.ts';

const tx = (n: number) => Uint8Array.of(0, n, n >> 8);

describe('mempool journal', () => {
  it('reads back what is journaled, oldest first, and continues the sequence after a restart', async () => {
    const store = createMemoryStore();
    const journal = createMempoolJournal(store);
    expect(journal.load(blake3)).toEqual([]);
    for (const n of [5, 1, 9]) await journal.append(blake3(tx(n)), tx(n));
    await journal.remove(blake3(tx(1)));
    const again = createMempoolJournal(store);
    expect(again.load(blake3).map((row) => row.bytes)).toEqual([tx(5), tx(9)]);
    await again.append(blake3(tx(2)), tx(2));
    expect(createMempoolJournal(store).load(blake3).map((row) => toHex(row.hash))).toEqual([tx(5), tx(9), tx(2)].map((b) => toHex(blake3(b))));
  });

  it('keeps one row per transaction, and durable() waits for its write', async () => {
    const store = createMemoryStore();
    const journal = createMempoolJournal(store);
    const first = journal.append(blake3(tx(3)), tx(3));
    expect(journal.append(blake3(tx(3)), tx(3))).toBe(first);
    await journal.durable(blake3(tx(3)));
    expect(createMempoolJournal(store).load(blake3)).toHaveLength(1);
    expect(journal.size).toBe(1);
    await journal.durable(blake3(tx(4))); // nothing pending: resolves at once
  });

  it('after any sequence of appends and removals, a restart reads exactly the live rows in append order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 20 })), { maxLength: 60 }), async (ops) => {
        const store = createMemoryStore();
        const journal = createMempoolJournal(store);
        const live: number[] = [];
        for (const [add, n] of ops) {
          if (add) {
            if (!live.includes(n)) live.push(n);
            await journal.append(blake3(tx(n)), tx(n));
          } else {
            if (live.includes(n)) live.splice(live.indexOf(n), 1);
            await journal.remove(blake3(tx(n)));
          }
        }
        expect(createMempoolJournal(store).load(blake3).map((row) => row.bytes)).toEqual(live.map(tx));
      }),
      { numRuns: 100 },
    );
  });
});
