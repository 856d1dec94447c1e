// The emission schedule: halving by DAA score, the closed-form total against a direct sum, and the cap, which the
// clamp keeps even when a wide DAG pays many blocks of the same DAA score.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  blockSubsidyUnits,
  clampedSubsidyUnits,
  emissionCapUnits,
  halvingIntervalDaa,
  scheduledEmissionUnits,
  subsidyInitialUnits,
} from '../../../src/consensus/emission.ts';
import { supplyUnitsMax } from '../../../src/crypto/amount.ts';

describe('emission schedule', () => {
  it('pays nothing for genesis and halves every interval', () => {
    expect(blockSubsidyUnits(0)).toBe(0n);
    expect(blockSubsidyUnits(1)).toBe(subsidyInitialUnits);
    expect(blockSubsidyUnits(halvingIntervalDaa)).toBe(subsidyInitialUnits);
    expect(blockSubsidyUnits(halvingIntervalDaa + 1)).toBe(subsidyInitialUnits / 2n);
    expect(blockSubsidyUnits(64 * halvingIntervalDaa + 1)).toBe(0n);
  });

  it('has a closed-form total equal to the sum of subsidies, always under the cap (21 M coins < 2^26)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2_000 }), fc.integer({ min: 0, max: 30 }), (offset, era) => {
        const d = era * halvingIntervalDaa + offset;
        expect(scheduledEmissionUnits(d + 1) - scheduledEmissionUnits(d)).toBe(blockSubsidyUnits(d + 1));
      }),
    );
    const total = scheduledEmissionUnits(Number.MAX_SAFE_INTEGER);
    expect(total).toBeLessThanOrEqual(emissionCapUnits);
    expect(emissionCapUnits).toBe(supplyUnitsMax);
    expect(supplyUnitsMax).toBeLessThan((1n << 26n) * 100_000_000n);
  });

  it('clamps a subsidy to what is left under the cap', () => {
    expect(clampedSubsidyUnits(1, emissionCapUnits - 5n)).toBe(5n);
    expect(clampedSubsidyUnits(1, emissionCapUnits)).toBe(0n);
    expect(clampedSubsidyUnits(1, 0n)).toBe(subsidyInitialUnits);
  });
});
