import { afterAll, describe, expect, it } from 'vitest';
import { fastVerifier } from '../../../../server/crypto/fast-verifier.ts';
import { createVerifyPool } from '../../../../server/crypto/verify-pool.ts';
import { createMempoolPort } from '../../../../server/mempool/mempool-port.ts';
import { decodeTransaction, signingHash, txHash, type Transaction } from '../../../../src/kinds/transaction-codec.ts';
import type { SchnorrWitnessCheck } from '../../../../src/crypto/witness-check.ts';
import { ErrorCode, WeftError } from '../../../../src/errors.ts';
import { parseTransaction } from '../../../../src/mempool/entry.ts';
import { createMempool, type MempoolEvent, type MempoolOptions } from '../../../../src/mempool/mempool.ts';
import { nobleVerifier } from '../../../../src/crypto/verifier.ts';
import { createManualClock } from '../../../../src/util/clock.ts';
import { toHex } from '../../../../src/util/bytes.ts';
import { addressOfKey, createTestAccounts, signedTransfer, testChainId, testKey } from '../../../helpers/mempool-fixtures.ts';

const alice = testKey(1);
const bob = testKey(2);

function setup(overrides: Partial<MempoolOptions> = {}) {
  const accounts = createTestAccounts();
  accounts.set(addressOfKey(alice), { balance: 1_000_000n });
  accounts.set(addressOfKey(bob), { balance: 1_000_000n });
  const clock = createManualClock(1_700_000_000_000);
  const pool = createMempool({ params: { chainId: testChainId }, accounts, verifier: fastVerifier, clock, ...overrides });
  const events: MempoolEvent[] = [];
  pool.subscribe((e) => events.push(e));
  return { accounts, clock, pool, events };
}

async function rejection(promise: Promise<unknown>): Promise<{ code: number; reason: unknown }> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(WeftError);
    const e = error as WeftError;
    return { code: e.code, reason: (e.details as { reason?: unknown } | undefined)?.reason };
  }
  throw new Error('expected a rejection');
}

const selectAll = { maxBytes: 1_000_000, maxCount: 10_000 };
const nonces = (entries: readonly { spend: { nonce: bigint } }[]) => entries.map((e) => e.spend.nonce);

describe('mempool admission', () => {
  it('admits a valid transfer, names it by its tx hash and signs over the signing hash', async () => {
    const { pool, events } = setup();
    const bytes = signedTransfer({ key: alice, memo: new Uint8Array([1, 2, 3]) });
    const entry = await pool.add(bytes);
    const tx = decodeTransaction(bytes);
    expect(entry.hash).toEqual(txHash(tx));
    expect((parseTransaction(bytes).checks![0]! as SchnorrWitnessCheck).message).toEqual(signingHash(tx));
    expect(pool.size).toBe(1);
    expect(pool.bytes).toBe(bytes.length);
    expect(pool.status(entry.hash)).toEqual({ status: 'pending', entry });
    expect(events).toEqual([{ type: 'added', entry }]);
  });

  it('refuses each broken rule with its code and reason, and changes nothing', async () => {
    const { pool, accounts } = setup({ limits: { txBytesMax: 200 } });
    accounts.set(addressOfKey(alice), { balance: 1_000_000n, nonce: 5n });
    const good = signedTransfer({ key: alice, nonce: 5n });
    const flipped = good.slice();
    flipped[flipped.length - 1]! ^= 1;
    const badType = good.slice();
    badType[38] = 9;
    const cases: [Uint8Array, number, unknown][] = [
      [signedTransfer({ key: alice, nonce: 5n, chainId: 1 }), ErrorCode.TransactionRejected, 'wrong_chain'],
      [flipped, ErrorCode.TransactionRejected, 'bad_signature'],
      [signedTransfer({ key: alice, nonce: 5n, fee: 100n }), ErrorCode.TransactionRejected, 'fee_rate_too_low'],
      [signedTransfer({ key: alice, nonce: 5n, memo: new Uint8Array(100) }), ErrorCode.TransactionRejected, 'too_large'],
      [signedTransfer({ key: alice, nonce: 4n }), ErrorCode.TransactionRejected, 'nonce_too_low'],
      [signedTransfer({ key: alice, nonce: 70n }), ErrorCode.TransactionRejected, 'nonce_too_high'],
      [signedTransfer({ key: alice, nonce: 5n, amount: 999_000n }), ErrorCode.InsufficientBalance, undefined],
      [good.subarray(0, 100), ErrorCode.InvalidParams, undefined],
      [badType, ErrorCode.InvalidAddress, 'unknown_type'],
    ];
    for (const [bytes, code, reason] of cases) expect(await rejection(pool.add(bytes))).toEqual({ code, reason });
    expect(pool.size).toBe(0);
    await pool.add(good);
    expect(await rejection(pool.add(good))).toEqual({ code: ErrorCode.TransactionRejected, reason: 'already_known' });
  });

  it('counts every pending spend of the sender against its balance', async () => {
    const { pool } = setup();
    await pool.add(signedTransfer({ key: alice, nonce: 0n, amount: 600_000n }));
    const second = signedTransfer({ key: alice, nonce: 1n, amount: 390_000n, fee: 10_001n });
    expect((await rejection(pool.add(second))).code).toBe(ErrorCode.InsufficientBalance);
    await pool.add(signedTransfer({ key: alice, nonce: 1n, amount: 380_000n }));
    expect(pool.size).toBe(2);
  });

  it('takes the fee from energy when use_energy is set, and refuses when the energy left cannot pay it', async () => {
    const { pool, accounts } = setup();
    // Energy never exceeds a thousandth of the balance (src/state/energy.ts): 20,000 needs at least 20,000,000 coins.
    accounts.set(addressOfKey(alice), { balance: 100_000_000n, energy: 20_000n });
    await pool.add(signedTransfer({ key: alice, nonce: 0n, amount: 100_000n, useEnergy: true }));
    await pool.add(signedTransfer({ key: alice, nonce: 1n, amount: 0n, useEnergy: true }));
    // The energy is spent; the ledger never falls back to the balance for a use_energy fee, nor does the pool.
    const third = signedTransfer({ key: alice, nonce: 2n, amount: 0n, useEnergy: true });
    expect((await rejection(pool.add(third))).code).toBe(ErrorCode.InsufficientBalance);
    // Bob has coins but no energy: a use_energy fee is not taken from his balance instead.
    const bobs = signedTransfer({ key: bob, amount: 0n, useEnergy: true });
    expect((await rejection(pool.add(bobs))).code).toBe(ErrorCode.InsufficientBalance);
  });

  it('keeps a nonce gap waiting and makes the run executable once the gap fills', async () => {
    const { pool } = setup();
    await pool.add(signedTransfer({ key: alice, nonce: 2n }));
    await pool.add(signedTransfer({ key: alice, nonce: 1n }));
    expect(pool.selectForBlock(selectAll).transactions).toEqual([]);
    expect(pool.nextNonce(addressOfKey(alice))).toBe(0n);
    await pool.add(signedTransfer({ key: alice, nonce: 0n }));
    expect(nonces(pool.selectForBlock(selectAll).transactions)).toEqual([0n, 1n, 2n]);
    expect(pool.nextNonce(addressOfKey(alice))).toBe(3n);
  });

  it('replaces at the same nonce only for a fee at least 10% higher', async () => {
    const { pool, events } = setup();
    const original = await pool.add(signedTransfer({ key: alice, fee: 10_000n }));
    const low = signedTransfer({ key: alice, fee: 10_999n });
    expect(await rejection(pool.add(low))).toEqual({ code: ErrorCode.TransactionRejected, reason: 'replacement_underpriced' });
    const better = await pool.add(signedTransfer({ key: alice, fee: 11_000n }));
    expect(pool.size).toBe(1);
    expect(pool.get(original.hash)).toBeUndefined();
    expect(pool.status(original.hash)).toEqual({ status: 'dropped', reason: 'replaced', entry: original });
    expect(events.map((e) => e.type + (e.type === 'removed' ? `:${e.reason}` : ''))).toEqual(['added', 'removed:replaced', 'added']);
    expect(pool.pending()).toEqual([better]);
  });

  it('expires transactions after txAgeMaxMs', async () => {
    const { pool, clock } = setup({ limits: { txAgeMaxMs: 60_000 } });
    const first = await pool.add(signedTransfer({ key: alice }));
    clock.advance(30_000);
    const second = await pool.add(signedTransfer({ key: bob }));
    clock.advance(30_000);
    expect(pool.expire()).toBe(1);
    expect(pool.status(first.hash)).toEqual({ status: 'dropped', reason: 'expired', entry: first });
    expect(pool.status(second.hash)?.status).toBe('pending');
  });

  it('removes accepted transactions and invalidates what the new state makes impossible', async () => {
    const { pool, accounts, events } = setup();
    const a0 = await pool.add(signedTransfer({ key: alice, nonce: 0n }));
    const a1 = await pool.add(signedTransfer({ key: alice, nonce: 1n, amount: 500_000n }));
    // The block accepted a0; another transfer of alice's also drained most of her balance.
    accounts.set(addressOfKey(alice), { nonce: 1n, balance: 100_000n });
    expect(pool.removeAccepted([a0.hash])).toEqual([a0]);
    expect(pool.size).toBe(0);
    expect(pool.status(a0.hash)).toBeUndefined();
    expect(pool.status(a1.hash)).toEqual({ status: 'dropped', reason: 'invalidated', entry: a1 });
    expect(events.filter((e) => e.type === 'removed').map((e) => e.type === 'removed' && e.reason)).toEqual(['accepted', 'invalidated']);
  });

  it('re-admits the transactions of blocks that left the selected chain', async () => {
    const { pool, accounts } = setup();
    const bytes = [0n, 1n].map((nonce) => signedTransfer({ key: alice, nonce }));
    const entries = await Promise.all(bytes.map((b) => pool.add(b)));
    accounts.set(addressOfKey(alice), { nonce: 2n, balance: 950_000n });
    pool.removeAccepted(entries.map((e) => e.hash));
    expect(pool.size).toBe(0);
    // Reorg: the accepting block left the selected chain; the state rolls back and its transactions come back.
    accounts.set(addressOfKey(alice), { nonce: 0n, balance: 1_000_000n });
    const results = await pool.readmit(bytes);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(nonces(pool.selectForBlock(selectAll).transactions)).toEqual([0n, 1n]);
  });

  it('verifies through an async worker pool with the same answers', async () => {
    const verifyPool = createVerifyPool({ workers: 2 });
    afterAll(() => verifyPool.close());
    const { pool, accounts } = setup({ verifier: verifyPool });
    const keys = Array.from({ length: 80 }, (_, i) => testKey(100 + i));
    keys.forEach((key, i) => accounts.set(addressOfKey(key), { balance: i === 7 ? 0n : 50_000n }));
    const items = keys.map((key) => signedTransfer({ key }));
    const flipped = items[5]!.slice();
    flipped[flipped.length - 2]! ^= 0x10;
    items[5] = flipped;
    const results = await pool.addBatch(items);
    const outcome = (r: (typeof results)[number]) =>
      r.ok ? 'ok' : ((r.error.details as { reason?: string } | undefined)?.reason ?? r.error.code);
    expect(results.map(outcome)).toEqual(
      items.map((_, i) => (i === 5 ? 'bad_signature' : i === 7 ? ErrorCode.InsufficientBalance : 'ok')),
    );
    expect(pool.size).toBe(78);
  });

  it('agrees with the @noble reference verifier', async () => {
    const { pool } = setup({ verifier: nobleVerifier });
    await pool.add(signedTransfer({ key: bob }));
    expect(toHex((pool.pending()[0]!.tx as Transaction).from)).toBe(toHex(addressOfKey(bob)));
  });

  it('serves the RPC mempool port: submit, lookups with statuses, pending per address, admission events', async () => {
    const { pool } = setup();
    const port = createMempoolPort(pool);
    const admitted: string[] = [];
    port.onAdmitted((r) => admitted.push(toHex(r.hash)));
    const first = decodeTransaction(signedTransfer({ key: alice, fee: 10_000n }));
    const { hash } = await port.submit(first);
    expect(port.get(hash)?.status).toBe('pending');
    expect(port.pending(addressOfKey(alice)).map((r) => r.hash)).toEqual([hash]);
    expect(port.pending(addressOfKey(bob))).toEqual([]);
    await port.submit(decodeTransaction(signedTransfer({ key: alice, fee: 20_000n })));
    expect(port.get(hash)?.status).toBe('dropped');
    expect(port.size()).toBe(1);
    expect(admitted).toHaveLength(2);
    expect(admitted[0]).toBe(toHex(hash));
  });
});
