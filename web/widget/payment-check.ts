/**
 * Whether the widget may offer "Approve" for a payment request, and what to say when not (issue 21: Approve was
 * enabled with no funds). Pure: the request, the network's address prefix, the wallet's state and its balance as
 * last read from a proof the tab verified. The send path checks the same things again (wallet-send.ts).
 */
import { decodeAddress } from '../../src/crypto/address.ts';
import { formatUnits } from '../../src/crypto/amount.ts';
import { memoBytesMax } from '../../src/kinds/value-transfer.ts';
import { parseCoins } from '../wallet/wallet-send.ts';
import type { PaymentRequestMessage } from './widget-protocol.ts';

export type PaymentCheck =
  | { readonly ok: true; readonly totalUnits: bigint }
  | { readonly ok: false; readonly problem: 'locked' | 'checking' | 'invalid' | 'insufficient'; readonly message: string };

export function checkPayment(input: {
  readonly request: PaymentRequestMessage;
  readonly hrp: string;
  readonly fee: string;
  readonly unlocked: boolean;
  /** Verified balance in base units; undefined until a proof was checked. */
  readonly balanceUnits: bigint | undefined;
}): PaymentCheck {
  const { request, hrp } = input;
  try {
    decodeAddress(request.to, hrp);
  } catch {
    return { ok: false, problem: 'invalid', message: `The payee ${request.to} is not a ${hrp} address: this request cannot be paid.` };
  }
  if (request.memo !== undefined && new TextEncoder().encode(request.memo).length > memoBytesMax) {
    return { ok: false, problem: 'invalid', message: `The memo is over ${memoBytesMax} bytes: this request cannot be paid.` };
  }
  let totalUnits: bigint;
  try {
    totalUnits = parseCoins(request.amount, 'amount') + parseCoins(input.fee, 'fee', true);
  } catch (error) {
    return { ok: false, problem: 'invalid', message: `${(error as Error).message}: this request cannot be paid.` };
  }
  if (!input.unlocked) return { ok: false, problem: 'locked', message: 'Unlock or create the wallet to pay.' };
  if (input.balanceUnits === undefined) return { ok: false, problem: 'checking', message: 'Checking your verified balance…' };
  if (input.balanceUnits < totalUnits) {
    return { ok: false, problem: 'insufficient', message: `Insufficient funds: your verified balance is ${formatUnits(input.balanceUnits)} WEFT, this payment needs ${formatUnits(totalUnits)} WEFT (amount + fee).` };
  }
  return { ok: true, totalUnits };
}
