// Rebroadcast of the node's own transactions (docs/mempool.md "Durability"): announced again once per interval while
// pooled, never before, and forgotten once they leave the pool.
import { describe, expect, it } from 'vitest';
import { fastVerifier } from '../../../server/crypto/fast-verifier.ts';
import { createMempool } from '../../../src/mempool/mempool.ts';
import { createRebroadcaster } from '../../../src/mempool/rebroadcast.ts';
import { createManualClock } from '../../../src/util/clock.ts';
import { addressOfKey, createTestAccounts, signedTransfer, testChainId, testKey } from '../../helpers/mempool-fixtures.ts';

describe('rebroadcast of own transactions', () => {
  it('announces each own pooled transaction once per interval and forgets those that left the pool', async () => {
    const clock = createManualClock(1_000_000);
    const accounts = createTestAccounts();
    const key = testKey(1);
    accounts.set(addressOfKey(key), { balance: 10n ** 12n });
    const pool = createMempool({ params: { chainId: testChainId }, accounts, verifier: fastVerifier, clock });
    const rebroadcast = createRebroadcaster({ pool, clock, intervalMs: 30_000, trackedMax: 100 });
    const announced: string[] = [];
    rebroadcast.onRebroadcast((entry) => announced.push(entry.id));

    const mine = await pool.add(signedTransfer({ key, nonce: 0n }));
    const theirs = await pool.add(signedTransfer({ key, nonce: 1n }));
    rebroadcast.track(mine);
    clock.advance(29_999);
    rebroadcast.tick();
    expect(announced).toEqual([]);
    clock.advance(1);
    rebroadcast.tick();
    expect(announced).toEqual([mine.id]);
    rebroadcast.tick();
    expect(announced).toEqual([mine.id]);
    clock.advance(30_000);
    rebroadcast.tick();
    expect(announced).toEqual([mine.id, mine.id]);
    expect(announced).not.toContain(theirs.id);

    pool.removeAccepted([mine.hash]);
    clock.advance(60_000);
    rebroadcast.tick();
    expect(announced).toHaveLength(2);
    expect(rebroadcast.size).toBe(0);
  });
});
