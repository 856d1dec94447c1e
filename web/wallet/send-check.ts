/**
 * Checking a send as the user types it (issue 21, modelled on MetaMask/Rabby): the recipient's bech32m address
 * (network prefix and checksum, src/crypto/address.ts), the amount and fee as exact decimal coins (never a float:
 * "0.1" is 10,000,000 units), and, once the tab has a verified balance, whether amount + fee fits in it. Pure: the
 * form (wallet-send-form.ts) shows each message beside its field, and the review step runs the same check again
 * against a balance proof fetched that moment.
 */
import { decodeAddress } from '../../src/crypto/address.ts';
import { coinDecimals, formatUnits, supplyUnitsMax, unitsPerCoin } from '../../src/crypto/amount.ts';
import { FieldError, fieldErrors } from './form-errors.ts';

export type SendField = 'to' | 'amount' | 'fee';

const coinTextPattern = /^(\d+)(?:\.(\d*))?$/;
/** Typed text longer than this is not a number of coins anyone means (the supply cap has 8 + 1 + 8 characters). */
const coinTextCharsMax = 40;

/**
 * Decimal coin text → exact base units. `field` names the input in the message and the FieldError; zero is refused
 * unless `allowZero` (a fee may be zero, an amount may not).
 * @example parseCoinText('1.5', 'amount') === 150_000_000n
 */
export function parseCoinText(text: string, field: string, allowZero = false): bigint {
  const trimmed = text.trim();
  const match = trimmed.length <= coinTextCharsMax ? coinTextPattern.exec(trimmed) : null;
  if (match === null) throw new FieldError(field, `${field}: expected an amount in WEFT, e.g. 1.5`);
  const fraction = match[2] ?? '';
  if (fraction.length > coinDecimals) throw new FieldError(field, `${field}: at most ${coinDecimals} decimals (1 unit is 0.00000001)`);
  const units = BigInt(match[1]!) * unitsPerCoin + BigInt(fraction.padEnd(coinDecimals, '0') || '0');
  if (units > supplyUnitsMax) throw new FieldError(field, `${field}: more than the supply cap of ${formatUnits(supplyUnitsMax)} WEFT`);
  if (units === 0n && !allowZero) throw new FieldError(field, `${field}: must be more than 0`);
  return units;
}

/** The recipient typed by the user, decoded for this network; a bad one is a FieldError about `to`. */
export function parseRecipient(text: string, hrp: string, field = 'to'): Uint8Array {
  const trimmed = text.trim();
  if (trimmed === '') throw new FieldError(field, `${field}: enter the recipient's ${hrp}1… address`, 'invalid_address');
  try {
    return decodeAddress(trimmed, hrp);
  } catch (error) {
    throw new FieldError(field, `${field}: not a ${hrp} address (${(error as Error).message})`, 'invalid_address');
  }
}

export interface SendDraft {
  readonly to: string;
  readonly amount: string;
  readonly fee: string;
}

export interface DraftCheck {
  /** One message per field that is wrong; a field not checked or right has none. */
  readonly errors: Partial<Record<SendField, string>>;
  readonly amount?: bigint;
  readonly fee?: bigint;
  /** amount + fee, when both parsed. */
  readonly total?: bigint;
  /** The balance after the send, when the balance is known and covers the total. */
  readonly remaining?: bigint;
}

/** The message for a total that the verified balance does not cover. */
export function insufficientMessage(balance: bigint, total: bigint): string {
  return `amount: insufficient verified balance — ${formatUnits(balance)} available, amount + fee is ${formatUnits(total)}`;
}

/**
 * Checks `fields` of a draft (all three by default; the form passes only those the user has touched, so an empty
 * field is not an error before it was visited). `balance` is the sender's last verified balance in units, or
 * undefined while none was proven; then the funds check waits for the review step.
 */
export function checkSendDraft(
  draft: SendDraft,
  options: { readonly hrp: string; readonly balance: bigint | undefined; readonly fields?: ReadonlySet<SendField> },
): DraftCheck {
  const fields = options.fields ?? new Set<SendField>(['to', 'amount', 'fee']);
  const { errors, attempt } = fieldErrors(fields);
  attempt('to', () => parseRecipient(draft.to, options.hrp));
  const amount = attempt('amount', () => parseCoinText(draft.amount, 'amount'));
  const fee = attempt('fee', () => parseCoinText(draft.fee, 'fee', true));
  if (amount === undefined || fee === undefined) return { errors, ...(amount !== undefined ? { amount } : {}), ...(fee !== undefined ? { fee } : {}) };
  const total = amount + fee;
  if (options.balance === undefined) return { errors, amount, fee, total };
  if (total > options.balance) {
    if (fields.has('amount')) errors.amount = insufficientMessage(options.balance, total);
    return { errors, amount, fee, total };
  }
  return { errors, amount, fee, total, remaining: options.balance - total };
}

/** The largest amount that leaves exactly the fee: "Max". Zero when the balance does not cover the fee. */
export function maxSendable(balance: bigint, fee: bigint): bigint {
  return balance > fee ? balance - fee : 0n;
}
