/**
 * Amounts: the APIs speak JSON numbers of coins with at most 8 decimals; inside, everything is `bigint` base units
 * (1 coin = 10^8 units, docs/design.md "Networks and units").
 *
 * Conversion never does float arithmetic. A JSON number arrives as an IEEE double; ECMAScript's Number-to-String
 * gives the shortest decimal that reads back as that same double, which is exactly the decimal the client wrote
 * whenever the client wrote at most 8 decimals of an amount within the cap. We parse that string's digits and
 * exponent as integers. The other way, we build the exact decimal string of the units and let Number() round it
 * once (correctly rounded, so the shortest-string parse gives the same units back).
 *
 * Why the cap matters for exactness: below 2^26 coins (~67.1 M) the gap between neighbouring doubles is under
 * 10^-8, so distinct unit amounts map to distinct doubles and the round trip is exact. The supply cap is far below.
 */
import { WeftError } from '../errors.ts';

export const unitsPerCoin = 100_000_000n;
export const coinDecimals = 8;
/**
 * The most coins that can ever exist, in units: 21,000,000 coins. Consensus emission must stay under it; the API
 * refuses any larger amount. 2.1 × 10^15 units is a safe integer (docs/design.md "Networks and units") and below 2^26 coins (see above).
 */
export const supplyUnitsMax = 21_000_000n * unitsPerCoin;

/** An amount that is not a valid number of coins / units. Code -32602 (InvalidParams). */
export class InvalidAmountError extends WeftError {
  constructor(message: string) {
    super('invalid_params', message);
  }
}

const decimalPattern = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/;

/**
 * Coins (a JSON number, ≤ 8 decimals, 0 ≤ coins ≤ supply cap) → exact bigint units.
 * @example coinsToUnits(0.1) === 10_000_000n; coinsToUnits(0.1 + 0.2) throws (it is 0.30000000000000004).
 */
export function coinsToUnits(coins: number): bigint {
  if (typeof coins !== 'number' || !Number.isFinite(coins)) {
    throw new InvalidAmountError(`amount: got ${String(coins)}, expected a finite number of coins`);
  }
  if (coins < 0) throw new InvalidAmountError(`amount: got ${coins}, expected a non-negative number of coins`);
  const text = String(coins);
  const match = decimalPattern.exec(text);
  if (match === null) throw new InvalidAmountError(`amount: got ${text}, expected a decimal number`);
  const fraction = match[2] ?? '';
  const exponent = Number(match[3] ?? '0');
  const digits = BigInt(`${match[1]!}${fraction}`);
  // value = digits × 10^(exponent − fraction.length); units = value × 10^8.
  const shift = exponent - fraction.length + coinDecimals;
  if (digits !== 0n && shift < 0) {
    throw new InvalidAmountError(`amount: got ${text}, expected at most ${coinDecimals} decimals`);
  }
  // A huge exponent is caught by the cap; bound the shift first so 1e308 never builds a 300-digit bigint.
  if (shift > 40) throw new InvalidAmountError(`amount: got ${text} coins, expected at most the supply cap`);
  const units = digits === 0n ? 0n : digits * 10n ** BigInt(shift);
  if (units > supplyUnitsMax) {
    throw new InvalidAmountError(`amount: got ${text} coins, expected at most ${formatUnits(supplyUnitsMax)}`);
  }
  return units;
}

function checkUnits(units: bigint): void {
  if (typeof units !== 'bigint' || units < 0n || units > supplyUnitsMax) {
    throw new InvalidAmountError(`units: got ${String(units)}, expected a bigint in [0, ${supplyUnitsMax}]`);
  }
}

/** Exact decimal string of a unit amount in coins, without trailing zeros: 150000000n → "1.5", 1n → "0.00000001". */
export function formatUnits(units: bigint): string {
  if (typeof units !== 'bigint' || units < 0n) {
    throw new InvalidAmountError(`units: got ${String(units)}, expected a non-negative bigint`);
  }
  const whole = units / unitsPerCoin;
  const fraction = (units % unitsPerCoin).toString().padStart(coinDecimals, '0').replace(/0+$/, '');
  return fraction === '' ? whole.toString() : `${whole}.${fraction}`;
}

/** Units → coins as the JSON number the APIs show (the double nearest the exact decimal). */
export function unitsToCoins(units: bigint): number {
  checkUnits(units);
  return Number(formatUnits(units));
}
