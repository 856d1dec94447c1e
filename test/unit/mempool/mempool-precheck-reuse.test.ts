// Admission checks a transaction's state before its proofs and again after (src/mempool/pool/admit.ts). The second
// check takes the first as it was only when neither the sender's queue nor the state's version moved while the proofs
// were verified: a block that lands meanwhile (a new version) or another admission from the same sender (a new
// queue) makes it check anew. Driven through the real pool with a verifier that answers when the test lets it.
import { describe, expect, it } from 'vitest';
import { fastVerifier } from '../../../server/crypto/fast-verifier.ts';
import { regtestParams } from '../../../src/consensus/params.ts';
import type { SchnorrCheck } from '../../../src/crypto/verifier.ts';
import { WeftError } from '../../../src/errors.ts';
import { TransactionRejectedError } from '../../../src/mempool/errors.ts';
import { createMempool } from '../../../src/mempool/mempool.ts';
import type { Account } from '../../../src/state/account.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { createManualClock } from '../../../src/util/clock.ts';
import { transfer, wallet } from '../../helpers/ledger-fixtures.ts';

const alice = wallet(1);
const bob = wallet(2);

/** A pool over a mutable account map, whose verifier holds every batch until `release()`. */
function setup(withVersion: boolean) {
  const accounts = new Map<string, Account>([[toHex(alice.address), { balance: 100_000n, nonce: 0n, energy: 0n }]]);
  let version = 1;
  const held: (() => void)[] = [];
  const pool = createMempool({
    params: { chainId: regtestParams.chainId },
    accounts: { account: (address) => accounts.get(toHex(address)) ?? { balance: 0n, nonce: 0n, energy: 0n } },
    ...(withVersion ? { stateVersion: () => version } : {}),
    verifier: {
      name: 'held',
      verifySchnorrBatch: (items: readonly SchnorrCheck[]) => new Promise<boolean[]>((resolve) => held.push(() => resolve(fastVerifier.verifySchnorrBatch(items)))),
    },
    clock: createManualClock(1_700_000_000_000),
  });
  /** A block took most of alice's coins: the state moved. */
  const spendAlice = () => {
    accounts.set(toHex(alice.address), { balance: 10n, nonce: 0n, energy: 0n });
    version++;
  };
  const release = () => held.splice(0).forEach((go) => go());
  return { pool, spendAlice, release };
}

/** A refusal's reason (src/mempool/errors.ts), or its code when it has none. */
const reason = (error: unknown) => (error instanceof TransactionRejectedError ? error.reason : error instanceof WeftError ? error.code : error);

describe('admission’s state check after the proofs', () => {
  it('checks anew when the state moved while the proofs were verified', async () => {
    const { pool, spendAlice, release } = setup(true);
    const pending = pool.add(transfer(alice, bob.address, 50_000n, 0n)).catch(reason);
    await Promise.resolve();
    spendAlice();
    release();
    expect(await pending).toBe(-40001);
    expect(pool.pending()).toEqual([]);
  });

  it('takes the first check when nothing moved, and still sees another sender’s claim on the same id', async () => {
    const { pool, release } = setup(true);
    const tx = transfer(alice, bob.address, 50_000n, 0n);
    const first = pool.add(tx);
    const second = pool.add(tx).catch(reason);
    await Promise.resolve();
    release();
    expect((await first).spend.nonce).toBe(0n);
    expect(await second).toBe('already_known');
    expect(pool.pending()).toHaveLength(1);
  });

  it('without a state version, checks twice whatever happened', async () => {
    const { pool, spendAlice, release } = setup(false);
    const pending = pool.add(transfer(alice, bob.address, 50_000n, 0n)).catch(reason);
    await Promise.resolve();
    spendAlice();
    release();
    expect(await pending).toBe(-40001);
  });
});
