// The energy rule (docs/state.md "Energy") through the pure acceptance function: accrual with balance over DAA
// score, the cap, paying a fee with energy (energy_used, no coins to the miner), and the re-cap after spending.
import { describe, expect, it } from 'vitest';
import { decodeTransaction } from '../../../src/kinds/transaction-codec.ts';
import { acceptMergeset } from '../../../src/state/acceptance.ts';
import type { StoredAccount } from '../../../src/state/account-codec.ts';
import { energyAccrualDivisor, energyAt, energyCapDivisor, settleEnergy } from '../../../src/state/energy.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { transfer, wallet } from '../../helpers/ledger-fixtures.ts';

const alice = wallet(1);
const bob = wallet(2);
const miner = wallet(3);
const rich: StoredAccount = { balance: 10n ** 14n, nonce: 0n, energy: 0n, energyDaaScore: 1_000 };

describe('energy accrual', () => {
  it('accrues balance × elapsed / divisor and stops at the cap', () => {
    expect(energyAt(rich, 1_000)).toBe(0n);
    expect(energyAt(rich, 1_010)).toBe((rich.balance * 10n) / energyAccrualDivisor);
    expect(energyAt(rich, 10_000_000)).toBe(rich.balance / energyCapDivisor);
    // Settling twice in steps floors each step, never more than settling once.
    const stepped = settleEnergy(settleEnergy(rich, 1_003), 1_010).energy;
    expect(stepped).toBeLessThanOrEqual(energyAt(rich, 1_010));
    // Time never runs backwards: an older DAA score changes nothing.
    expect(settleEnergy(rich, 10)).toBe(rich);
  });
});

function run(accounts: Map<string, StoredAccount>, txs: Uint8Array[], daaScore: number) {
  return acceptMergeset({
    read: (address) => accounts.get(toHex(address)),
    merged: [{ id: '00'.repeat(32), miner: miner.address, daaScore: 5, blue: true, transactions: txs.map((bytes) => ({ tx: decodeTransaction(bytes) })) }],
    mergingMiner: miner.address,
    daaScore,
    emittedBefore: 0n,
  });
}

describe('paying fees with energy', () => {
  it('takes the fee from energy (energy_used), moves the amount, and pays the miner no coin fee', () => {
    const accounts = new Map([[toHex(alice.address), rich]]);
    const daaScore = 1_000 + 100;
    const available = energyAt(rich, daaScore);
    const fee = available - 1n;
    const result = run(accounts, [transfer(alice, bob.address, 500n, 0n, { fee, useEnergy: true })], daaScore);
    expect(result.blocks[0]!.accepted).toEqual([true]);
    expect(result.blocks[0]!.energyUsed).toBe(fee);
    expect(result.blocks[0]!.fees).toBe(0n);
    const after = result.changes.get(toHex(alice.address))!.account;
    expect(after).toEqual({ balance: rich.balance - 500n, nonce: 1n, energy: 1n, energyDaaScore: daaScore });
    expect(result.changes.get(toHex(miner.address))!.account.balance).toBe(result.blocks[0]!.subsidy);
  });

  it('does not accept a use_energy transaction whose fee exceeds the energy, even with balance to spare', () => {
    const accounts = new Map([[toHex(alice.address), rich]]);
    const daaScore = 1_100;
    const result = run(accounts, [transfer(alice, bob.address, 1n, 0n, { fee: energyAt(rich, daaScore) + 1n, useEnergy: true })], daaScore);
    expect(result.blocks[0]!.accepted).toEqual([false]);
    expect(result.changes.has(toHex(alice.address))).toBe(false);
  });

  it('re-caps energy to the new balance when the balance drops', () => {
    const full: StoredAccount = { ...rich, energy: rich.balance / energyCapDivisor };
    const accounts = new Map([[toHex(alice.address), full]]);
    const keep = 1_000_000n;
    const result = run(accounts, [transfer(alice, bob.address, full.balance - keep - 10n, 0n, { fee: 10n })], 1_000);
    const after = result.changes.get(toHex(alice.address))!.account;
    expect(after.balance).toBe(keep);
    expect(after.energy).toBe(keep / energyCapDivisor);
  });
});
