/**
 * The emission schedule (docs/state.md "Emission"): every block pays a subsidy fixed by its own DAA score, halving
 * every `halvingIntervalDaa` DAA steps (four years at one block a second), Bitcoin's curve on a one-second clock.
 *
 * The cap is `supplyUnitsMax` (21,000,000 coins, src/crypto/amount.ts), which keeps every amount exact as a double
 * of coins. The schedule alone sums to less than the cap (2 · H · S0 ≤ cap, and each halving floors), but in a DAG
 * several blocks can share a DAA score, so the acceptance rule also clamps each subsidy to what is left under the
 * cap (`clampedSubsidyUnits`): the cap holds for every state whatever the DAG's width.
 */
import { supplyUnitsMax } from '../crypto/amount.ts';

/** The most units that can ever be emitted: the API's `total_supply`. */
export const emissionCapUnits: bigint = supplyUnitsMax;
/** DAA steps per halving era: 4 × 365 days × 86,400 one-second blocks. */
export const halvingIntervalDaa = 126_144_000;
/** Subsidy of a block in era 0: ⌊cap / (2 · halvingIntervalDaa)⌋ = 8,323,820 units (~0.0832 coin). */
export const subsidyInitialUnits: bigint = emissionCapUnits / (2n * BigInt(halvingIntervalDaa));
/** After this many halvings the subsidy is 0 (8,323,820 < 2^23). */
const erasMax = 64;

/** The scheduled subsidy of a block with this DAA score; genesis (DAA score 0) pays nothing. */
export function blockSubsidyUnits(daaScore: number): bigint {
  if (!Number.isSafeInteger(daaScore) || daaScore <= 0) return 0n;
  const era = Math.floor((daaScore - 1) / halvingIntervalDaa);
  return era >= erasMax ? 0n : subsidyInitialUnits >> BigInt(era);
}

/** Σ of blockSubsidyUnits(d) for d = 1..daaScore, in closed form: what a one-block-wide chain emits by then. */
export function scheduledEmissionUnits(daaScore: number): bigint {
  if (!Number.isSafeInteger(daaScore) || daaScore <= 0) return 0n;
  const interval = BigInt(halvingIntervalDaa);
  const fullEras = Math.floor(daaScore / halvingIntervalDaa);
  let total = 0n;
  for (let era = 0; era < Math.min(fullEras, erasMax); era++) total += interval * (subsidyInitialUnits >> BigInt(era));
  if (fullEras < erasMax) total += BigInt(daaScore % halvingIntervalDaa) * (subsidyInitialUnits >> BigInt(fullEras));
  return total;
}

/** The subsidy actually paid: the schedule's, but never past the cap given what was emitted before. */
export function clampedSubsidyUnits(daaScore: number, emittedBeforeUnits: bigint): bigint {
  const left = emissionCapUnits - emittedBeforeUnits;
  const scheduled = blockSubsidyUnits(daaScore);
  return left <= 0n ? 0n : scheduled < left ? scheduled : left;
}
