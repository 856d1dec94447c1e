/**
 * Energy (docs/design.md "State, accounts and energy", docs/state.md "Energy"): a per-account resource that accrues with the balance held over
 * DAA score (≈ seconds at one block a second) and can pay a transaction's fee instead of the balance.
 *
 *   accrued(Δ)   = ⌊balance × Δ / energyAccrualDivisor⌋          for Δ DAA steps at a constant balance
 *   cap(balance) = ⌊balance / energyCapDivisor⌋
 *   energy(now)  = min(cap(balance), stored + accrued(now − storedAt))
 *
 * An account stores its energy as of `energyDaaScore`, and every acceptance that touches it first settles energy
 * up to the accepting block's DAA score at the balance it held until then, then changes the balance and re-caps
 * (energy never exceeds what the current balance allows). Integer arithmetic only: every node gets the same value.
 */
import type { StoredAccount } from './account-codec.ts';

/** An account accrues balance / 10^9 energy units per DAA step: 1,000 coins held for a day ≈ 0.0864 coin of fees. */
export const energyAccrualDivisor = 1_000_000_000n;
/** Energy never exceeds 1/1,000 of the balance: full after 10^6 DAA steps (~11.6 days) from empty. */
export const energyCapDivisor = 1_000n;

export function energyCap(balance: bigint): bigint {
  return balance / energyCapDivisor;
}

/** The account with its energy brought up to `daaScore` (a no-op when the account was last settled at or after it). */
export function settleEnergy(account: StoredAccount, daaScore: number): StoredAccount {
  if (daaScore <= account.energyDaaScore) return account;
  const elapsed = BigInt(daaScore - account.energyDaaScore);
  const accrued = account.energy + (account.balance * elapsed) / energyAccrualDivisor;
  const cap = energyCap(account.balance);
  return { ...account, energy: accrued < cap ? accrued : cap, energyDaaScore: daaScore };
}

/** Energy available at `daaScore`, without changing the account. */
export function energyAt(account: StoredAccount, daaScore: number): bigint {
  return settleEnergy(account, daaScore).energy;
}
