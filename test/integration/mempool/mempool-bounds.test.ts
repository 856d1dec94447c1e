import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fastVerifier } from '../../../server/crypto/fast-verifier.ts';
import type { Transaction } from '../../../src/kinds/transaction-codec.ts';
import { WeftError } from '../../../src/errors.ts';
import { createMempool, type MempoolEvent } from '../../../src/mempool/mempool.ts';
import type { MempoolLimits } from '../../../src/mempool/mempool-limits.ts';
import { firstOverspend } from '../../../src/mempool/sender-queue.ts';
import { compareFeeRate } from '../../../src/mempool/entry.ts';
import { createManualClock } from '../../../src/util/clock.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { addressOfKey, createTestAccounts, signedTransfer, testChainId, testKey } from '../../helpers/mempool-fixtures.ts';

const keys = Array.from({ length: 8 }, (_, i) => testKey(i));
/** A standard transfer with an empty memo (docs/transactions.md). */
const txBytes = 162;

function setup(limits: Partial<MempoolLimits>) {
  const accounts = createTestAccounts();
  for (const key of keys) accounts.set(addressOfKey(key), { balance: 10_000_000n });
  const clock = createManualClock(0);
  const pool = createMempool({ params: { chainId: testChainId }, accounts, verifier: fastVerifier, clock, limits });
  const removed: string[] = [];
  pool.subscribe((e: MempoolEvent) => {
    if (e.type === 'removed') removed.push(`${e.reason}:${e.entry.spend.fee}`);
  });
  return { accounts, clock, pool, removed };
}

async function reasonOf(promise: Promise<unknown>): Promise<unknown> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WeftError);
  return ((error as WeftError).details as { reason?: unknown }).reason;
}

describe('mempool bounds', () => {
  it('evicts the cheapest under the byte bound and never to admit a cheaper transaction', async () => {
    const { pool, removed } = setup({ bytesMax: 4 * txBytes });
    for (const [i, fee] of [1_000n, 2_000n, 3_000n, 4_000n].entries()) await pool.add(signedTransfer({ key: keys[i]!, fee }));
    expect(pool.bytes).toBe(4 * txBytes);
    expect(await reasonOf(pool.add(signedTransfer({ key: keys[4]!, fee: 1_000n })))).toBe('pool_full');
    await pool.add(signedTransfer({ key: keys[4]!, fee: 5_000n }));
    expect(removed).toEqual(['evicted:1000']);
    expect(pool.bytes).toBeLessThanOrEqual(4 * txBytes);
    expect(pool.pending().map((e) => e.spend.fee)).toEqual([5_000n, 4_000n, 3_000n, 2_000n]);
  });

  it('evicts only a sender\'s last nonce, so no queue is left with a hole', async () => {
    const { pool, removed } = setup({ txCountMax: 3 });
    // Sender 0's nonce 0 is the cheapest entry, but nonce 1 (its tail) must go first.
    await pool.add(signedTransfer({ key: keys[0]!, nonce: 0n, fee: 1_000n }));
    await pool.add(signedTransfer({ key: keys[0]!, nonce: 1n, fee: 1_500n }));
    await pool.add(signedTransfer({ key: keys[1]!, fee: 4_000n }));
    await pool.add(signedTransfer({ key: keys[2]!, fee: 3_000n }));
    expect(removed).toEqual(['evicted:1500']);
    expect(pool.pendingFor(addressOfKey(keys[0]!)).map((e) => e.spend.nonce)).toEqual([0n]);
  });

  it('bounds one sender\'s queue', async () => {
    const { pool } = setup({ txPerAddressMax: 2 });
    await pool.add(signedTransfer({ key: keys[0]!, nonce: 0n }));
    await pool.add(signedTransfer({ key: keys[0]!, nonce: 1n }));
    expect(await reasonOf(pool.add(signedTransfer({ key: keys[0]!, nonce: 2n })))).toBe('sender_queue_full');
  });

  it('selects by fee rate, in nonce order per sender, within the byte and count budgets and the balances', async () => {
    const { pool, accounts } = setup({});
    await pool.add(signedTransfer({ key: keys[0]!, nonce: 0n, fee: 1_000n }));
    await pool.add(signedTransfer({ key: keys[0]!, nonce: 1n, fee: 9_000n }));
    await pool.add(signedTransfer({ key: keys[1]!, nonce: 0n, fee: 5_000n }));
    await pool.add(signedTransfer({ key: keys[2]!, nonce: 0n, fee: 3_000n, amount: 5_000_000n }));
    await pool.add(signedTransfer({ key: keys[2]!, nonce: 1n, fee: 8_000n, amount: 4_000_000n }));
    const order = (s: { transactions: readonly { spend: { fee: bigint } }[] }) => s.transactions.map((e) => e.spend.fee);
    expect(order(pool.selectForBlock({ maxBytes: 1_000_000, maxCount: 100 }))).toEqual([5_000n, 3_000n, 8_000n, 1_000n, 9_000n]);
    expect(order(pool.selectForBlock({ maxBytes: 1_000_000, maxCount: 2 }))).toEqual([5_000n, 3_000n]);
    expect(order(pool.selectForBlock({ maxBytes: 3 * (txBytes + 2) + 1, maxCount: 100 }))).toEqual([5_000n, 3_000n, 8_000n]);
    // Sender 2's balance drops under the state: once the pool is told (a block does that), only what it can still
    // pay, in nonce order, is selected.
    accounts.set(addressOfKey(keys[2]!), { balance: 6_000_000n });
    pool.revalidate([addressOfKey(keys[2]!)]);
    const selection = pool.selectForBlock({ maxBytes: 1_000_000, maxCount: 100 });
    expect(order(selection)).toEqual([5_000n, 3_000n, 1_000n, 9_000n]);
    expect(selection.fees).toBe(18_000n);
    expect(selection.bytes).toBe(4 * (txBytes + 2)); // each with its 2-byte length prefix, as the block codec writes it
  });

  it('keeps its invariants under any sequence of admissions and state changes (fast-check)', async () => {
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('add' as const),
        sender: fc.nat(keys.length - 1),
        nonce: fc.nat(6),
        amount: fc.bigInt(0n, 4_000_000n),
        fee: fc.bigInt(200n, 50_000n),
        energy: fc.boolean(),
      }),
      fc.record({ kind: fc.constant('state' as const), sender: fc.nat(keys.length - 1), nonce: fc.nat(3), balance: fc.bigInt(0n, 10_000_000n) }),
      fc.record({ kind: fc.constant('expire' as const), ms: fc.nat(40_000) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 40 }), async (ops) => {
        const limits = { bytesMax: 10 * txBytes, txCountMax: 12, txAgeMaxMs: 60_000 };
        const { pool, accounts, clock } = setup(limits);
        for (const o of ops) {
          if (o.kind === 'add') {
            const bytes = signedTransfer({ key: keys[o.sender]!, nonce: BigInt(o.nonce), amount: o.amount, fee: o.fee, useEnergy: o.energy });
            await pool.add(bytes).catch((e: unknown) => expect(e).toBeInstanceOf(WeftError));
          } else if (o.kind === 'state') {
            const address = addressOfKey(keys[o.sender]!);
            accounts.set(address, { nonce: BigInt(o.nonce), balance: o.balance, energy: 20_000n });
            pool.revalidate([address]);
          } else {
            clock.advance(o.ms);
            pool.expire();
          }
          checkInvariants(pool, accounts, limits);
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('fee-rate order', () => {
  it('decides by the float rates only where they give the exact order (fast-check)', () => {
    const exact = (a: { fee: bigint; mass: number }, b: { fee: bigint; mass: number }) => {
      const l = a.fee * BigInt(b.mass);
      const r = b.fee * BigInt(a.mass);
      return l < r ? -1 : l > r ? 1 : 0;
    };
    const side = fc.record({ fee: fc.bigInt(0n, (1n << 64n) - 1n), mass: fc.integer({ min: 1, max: 2_000_000 }) });
    // Near-equal pairs: the same rate scaled, and one unit apart.
    const near = fc.tuple(fc.bigInt(1n, 1n << 40n), fc.integer({ min: 1, max: 1_000 }), fc.integer({ min: 1, max: 1_000 }), fc.bigInt(-1n, 1n)).map(
      ([fee, m1, m2, bump]) => [{ fee: fee * BigInt(m1), mass: m1 }, { fee: fee * BigInt(m2) + bump, mass: m2 }] as const,
    );
    fc.assert(
      fc.property(fc.oneof(fc.tuple(side, side), near), ([a, b]) => {
        const wrap = (x: { fee: bigint; mass: number }) => ({ spend: { fee: x.fee } as never, mass: x.mass, rate: Number(x.fee) / x.mass });
        expect(compareFeeRate(wrap(a), wrap(b))).toBe(exact(a, b));
      }),
      { numRuns: 2_000 },
    );
  });
});

function checkInvariants(
  pool: ReturnType<typeof createMempool>,
  accounts: ReturnType<typeof createTestAccounts>,
  limits: { bytesMax: number; txCountMax: number },
): void {
  const pending = pool.pending();
  expect(pool.bytes).toBe(pending.reduce((sum, e) => sum + e.size, 0));
  expect(pool.bytes).toBeLessThanOrEqual(limits.bytesMax);
  expect(pool.size).toBeLessThanOrEqual(limits.txCountMax);
  for (const key of keys) {
    const address = addressOfKey(key);
    const queue = pool.pendingFor(address);
    expect(firstOverspend(queue, accounts.get(address))).toBeUndefined();
  }
  // A template never overspends an account and takes each sender's nonces contiguously from the account's.
  const selection = pool.selectForBlock({ maxBytes: 6 * txBytes, maxCount: 8 });
  expect(selection.bytes).toBeLessThanOrEqual(6 * txBytes);
  const spent = new Map<string, { next: bigint; balance: bigint; energy: bigint }>();
  for (const entry of selection.transactions) {
    const tx = entry.tx as Transaction;
    const id = toHex(tx.from);
    const account = accounts.get(tx.from);
    const state = spent.get(id) ?? { next: account.nonce, balance: account.balance, energy: account.energy };
    expect(tx.nonce).toBe(state.next);
    state.balance -= tx.amount + (tx.useEnergy ? 0n : tx.fee);
    if (tx.useEnergy) state.energy -= tx.fee;
    expect(state.balance).toBeGreaterThanOrEqual(0n);
    expect(state.energy).toBeGreaterThanOrEqual(0n);
    state.next += 1n;
    spent.set(id, state);
  }
}
