// Mempool admission of pool-paid fees (docs/settlement.md "Fees and the energy pool"): an agent or escrow transaction
// with use_energy whose payer is an agent account pays its fee from the account's energy pool, so the pool — not the
// account energy — decides admission and block selection, as acceptance does. A payer that is no agent account still
// pays such a fee from its account energy. The state is a real one: an agent account created, keyed and funded by
// transactions accepted through acceptMergeset (test/helpers/agent-fixtures.ts), read by the pool read-only.
import { describe, expect, it } from 'vitest';
import { fastVerifier } from '../../../server/crypto/fast-verifier.ts';
import { encodeTransaction } from '../../../src/kinds/transaction-codec.ts';
import { WeftError } from '../../../src/errors.ts';
import { agentFundEnergyPoolKind } from '../../../src/kinds/agent/agent-fund-energy-pool.ts';
import { createMempool } from '../../../src/mempool/mempool.ts';
import { stateKey } from '../../../src/state/namespaces.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { createManualClock } from '../../../src/util/clock.ts';
import { agentLedger, client, owner, type SimLedger } from '../../helpers/agent-fixtures.ts';
import { regtestParams } from '../../../src/consensus/params.ts';

/** The agent's pool holds 5,000: two fees of 2,000 fit, a third does not. */
const fee = 2_000n;
const fund = (sim: SimLedger, by: typeof owner, nonce: bigint, withFee = fee) =>
  encodeTransaction(sim.tx(agentFundEnergyPoolKind, { agent: owner.address, amount: 1n }, by, { fee: withFee, useEnergy: true, nonce }));

function setup() {
  const sim = agentLedger();
  const pool = createMempool({
    params: { chainId: regtestParams.chainId },
    accounts: { account: (address) => sim.account(address) },
    records: (namespace, id) => sim.records.get(toHex(stateKey(namespace, id))),
    daaScore: () => sim.daaScore,
    verifier: fastVerifier,
    clock: createManualClock(1_700_000_000_000),
    agentPool: (payer) => sim.agent(payer)?.energyPool,
  });
  return { sim, pool, next: sim.account(owner.address).nonce };
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
    const { sim, pool, next } = setup();
    expect(sim.account(owner.address).energy).toBeLessThan(fee); // the account energy alone would not pay one
    await pool.add(fund(sim, owner, next));
    await pool.add(fund(sim, owner, next + 1n));
    expect(await refusal(pool.add(fund(sim, owner, next + 2n)))).toBe(-40001);
    expect(pool.selectForBlock({ maxBytes: 1_000_000, maxCount: 100 }).transactions.map((e) => e.spend.nonce)).toEqual([next, next + 1n]);
  });

  it('judges a payer that is no agent account by its account energy', async () => {
    const { sim, pool } = setup();
    const beyond = sim.account(client.address).energy + 1n;
    expect(await refusal(pool.add(fund(sim, client, sim.account(client.address).nonce, beyond)))).toBe(-40001);
    expect(pool.size).toBe(0);
  });

  it('drops pending pool-paid transactions when the pool shrinks under them', async () => {
    const { sim, pool, next } = setup();
    await pool.add(fund(sim, owner, next));
    await pool.add(fund(sim, owner, next + 1n));
    // Another transaction of the agent, at the first one's nonce, takes 4,000 from the pool in a block.
    const spender = sim.tx(agentFundEnergyPoolKind, { agent: owner.address, amount: 1n }, owner, { fee: 4_000n, useEnergy: true, nonce: next });
    expect(sim.block([spender])).toEqual([true]);
    expect(pool.revalidate([owner.address]).map((e) => e.spend.nonce)).toEqual([next, next + 1n]);
    expect(pool.size).toBe(0);
  });
});
