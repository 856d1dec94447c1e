// Mempool admission of pool-paid fees (docs/settlement.md "Fees and the energy pool"): an agent or escrow transaction
// with use_energy whose payer is an agent account pays its fee from the account's energy pool, so the pool — not the
// account energy — decides admission and block selection, as acceptance does. A payer that is no agent account still
// pays such a fee from its account energy.
import { describe, expect, it } from 'vitest';
import { fastVerifier } from '../server/crypto/fast-verifier.ts';
import { encodeTransaction } from '../src/codec/transaction.ts';
import { WeftError } from '../src/errors.ts';
import { escrowReclaimKind } from '../src/kinds/escrow/escrow-reclaim.ts';
import { createMempool } from '../src/mempool/mempool.ts';
import { toHex } from '../src/util/bytes.ts';
import { createManualClock } from '../src/util/clock.ts';
import { client, owner, signed } from './helpers/agent-fixtures.ts';
import { createTestAccounts } from './helpers/mempool-fixtures.ts';
import { regtestParams } from '../src/consensus/params.ts';

const fee = 10_000n;
const reclaim = (by: typeof owner, nonce: bigint) => encodeTransaction(signed(escrowReclaimKind, { escrowId: new Uint8Array(32).fill(1) }, by, nonce, { fee, useEnergy: true }));

function setup(pools: Map<string, bigint>) {
  const accounts = createTestAccounts();
  // Coins but no account energy: only a pool can pay a use_energy fee.
  accounts.set(owner.address, { balance: 1_000_000n, energy: 0n });
  accounts.set(client.address, { balance: 1_000_000n, energy: 0n });
  const pool = createMempool({
    params: { chainId: regtestParams.chainId },
    accounts,
    verifier: fastVerifier,
    clock: createManualClock(1_700_000_000_000),
    agentPool: (payer) => pools.get(toHex(payer)),
  });
  return pool;
}

async function refusal(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(WeftError);
    return (error as WeftError).code;
  }
  throw new Error('expected a refusal');
}

describe('mempool: fees paid from an agent energy pool', () => {
  it('admits an agent’s pool-paid transactions while the pool covers them, and selects them for a block', async () => {
    const pool = setup(new Map([[toHex(owner.address), 2n * fee]]));
    await pool.add(reclaim(owner, 0n));
    await pool.add(reclaim(owner, 1n));
    // The third fee is past the pool (the account energy is 0 and would never have admitted the first).
    expect(await refusal(pool.add(reclaim(owner, 2n)))).toBe(-40001);
    expect(pool.selectForBlock({ maxBytes: 1_000_000, maxCount: 100 }).transactions.map((e) => e.spend.nonce)).toEqual([0n, 1n]);
  });

  it('judges a payer that is no agent account by its account energy', async () => {
    const pool = setup(new Map());
    expect(await refusal(pool.add(reclaim(client, 0n)))).toBe(-40001);
    expect(pool.size).toBe(0);
  });

  it('drops pending pool-paid transactions when the pool shrinks', async () => {
    const pools = new Map([[toHex(owner.address), 2n * fee]]);
    const pool = setup(pools);
    await pool.add(reclaim(owner, 0n));
    await pool.add(reclaim(owner, 1n));
    pools.set(toHex(owner.address), fee);
    expect(pool.revalidate([owner.address]).map((e) => e.spend.nonce)).toEqual([1n]);
  });
});
