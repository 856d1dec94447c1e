import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  coinsToUnits,
  formatUnits,
  InvalidAmountError,
  supplyUnitsMax,
  unitsPerCoin,
  unitsToCoins,
} from '../../../src/crypto/amount.ts';

const arbUnits = fc.bigInt({ min: 0n, max: supplyUnitsMax });

function expectInvalid(coins: number): void {
  expect(() => coinsToUnits(coins)).toThrow(InvalidAmountError);
  expect(() => coinsToUnits(coins)).toThrow(expect.objectContaining({ code: -32602 }));
}

describe('coins ↔ units', () => {
  it('round-trips every unit amount up to the supply cap exactly', () => {
    fc.assert(
      fc.property(arbUnits, (units) => {
        expect(coinsToUnits(unitsToCoins(units))).toBe(units);
      }),
      { numRuns: 2_000 },
    );
  });

  it('round-trips amounts near the cap, where doubles are sparsest', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10_000_000n }), (below) => {
        const units = supplyUnitsMax - below;
        expect(coinsToUnits(unitsToCoins(units))).toBe(units);
      }),
      { numRuns: 1_000 },
    );
  });

  it('reads the number the client wrote, not its binary approximation', () => {
    expect(coinsToUnits(0.1)).toBe(10_000_000n);
    expect(coinsToUnits(0.3)).toBe(30_000_000n);
    expect(coinsToUnits(1.1)).toBe(110_000_000n);
    expect(coinsToUnits(0.01)).toBe(1_000_000n);
    expect(coinsToUnits(1e-8)).toBe(1n);
    expect(coinsToUnits(5e-7)).toBe(50n);
    expect(coinsToUnits(1.5e-7)).toBe(15n);
    expect(coinsToUnits(123456.12345678)).toBe(12_345_612_345_678n);
    expect(coinsToUnits(20_999_999.99999999)).toBe(supplyUnitsMax - 1n);
    expect(coinsToUnits(21_000_000)).toBe(supplyUnitsMax);
    expect(coinsToUnits(0)).toBe(0n);
    expect(coinsToUnits(-0)).toBe(0n);
    expect(coinsToUnits(1e6)).toBe(1_000_000n * unitsPerCoin);
  });

  it('refuses more than 8 decimals, 0.1 + 0.2 included', () => {
    expectInvalid(0.1 + 0.2); // 0.30000000000000004
    expectInvalid(1e-9);
    expectInvalid(0.123456789);
    expectInvalid(1.000000001);
    expectInvalid(5e-324);
  });

  it('refuses negative, NaN, infinite, non-number and above-cap amounts', () => {
    expectInvalid(-1e-8);
    expectInvalid(-1);
    expectInvalid(Number.NaN);
    expectInvalid(Number.POSITIVE_INFINITY);
    expectInvalid(21_000_000.00000001);
    expectInvalid(1e21);
    expectInvalid(Number.MAX_VALUE);
    expectInvalid('1' as unknown as number);
    expectInvalid(1n as unknown as number);
  });

  it('shows units as coins', () => {
    expect(unitsToCoins(1n)).toBe(1e-8);
    expect(unitsToCoins(150_000_000n)).toBe(1.5);
    expect(unitsToCoins(supplyUnitsMax)).toBe(21_000_000);
    expect(() => unitsToCoins(-1n)).toThrow(expect.objectContaining({ code: -32602 }));
    expect(() => unitsToCoins(supplyUnitsMax + 1n)).toThrow(InvalidAmountError);
  });

  it('formats the exact decimal string', () => {
    expect(formatUnits(0n)).toBe('0');
    expect(formatUnits(1n)).toBe('0.00000001');
    expect(formatUnits(150_000_000n)).toBe('1.5');
    expect(formatUnits(supplyUnitsMax)).toBe('21000000');
    fc.assert(
      fc.property(arbUnits, (units) => {
        const [whole, fraction = ''] = formatUnits(units).split('.');
        expect(fraction.length <= 8 && !fraction.endsWith('0')).toBe(true);
        expect(BigInt(whole!) * unitsPerCoin + BigInt(fraction.padEnd(8, '0'))).toBe(units);
      }),
      { numRuns: 500 },
    );
  });
});
