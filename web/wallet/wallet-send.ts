/**
 * Sending from the tab: the transfer is built and signed here with src/wallet (buildTransfer), and only its
 * canonical bytes leave the tab, through the public send_raw_transaction. The nonce is the account nonce from a
 * proof checked against the tab's own verified headers (web/light/verified-balance.ts) plus this wallet's own
 * transactions still pending (the node's mempool keeps per-address queues). Errors about one input are FieldErrors
 * (`to`, `amount`, `fee`), which the pages show beside that field.
 */
import { decodeAddress } from '../../src/crypto/address.ts';
import { coinsToUnits } from '../../src/crypto/amount.ts';
import { buildTransfer } from '../../src/wallet/transfer.ts';
import type { Wallet } from '../../src/wallet/wallet.ts';
import { toHash0x, toHex } from '../../src/util/bytes.ts';
import type { LightChain } from '../../src/light/light-chain.ts';
import { fetchVerifiedBalance } from '../light/verified-balance.ts';
import { browserRandomBytes } from './wallet-keys.ts';
import { FieldError } from './form-errors.ts';
import { sendRawTransaction } from '../lib/actions/send-raw-transaction.ts';
import type { NodeClient } from '../lib/node-client.ts';

export interface SendRequest {
  readonly from: string;
  readonly to: string;
  /** Coins as typed (decimal text, at most 8 decimals). */
  readonly amount: string;
  readonly fee: string;
  readonly memo?: string;
}

/** Decimal text → base units, with the node's rule (≤ 8 decimals, positive where required). */
export function parseCoins(text: string, label: string, allowZero = false): bigint {
  const trimmed = text.trim();
  if (!/^\d+(\.\d+)?$/.test(trimmed)) throw new FieldError(label, `${label}: expected a number of coins, e.g. 1.5`);
  const units = coinsToUnits(Number(trimmed));
  if (units === 0n && !allowZero) throw new FieldError(label, `${label}: must be more than 0`);
  return units;
}

/** An address typed by the user, decoded for this network; a bad one is an error about that field. */
function parseAddressField(text: string, hrp: string, field: 'from' | 'to'): ReturnType<typeof decodeAddress> {
  try {
    return decodeAddress(text, hrp);
  } catch (error) {
    throw new FieldError(field, `${field}: not a ${hrp} address (${(error as Error).message})`, 'invalid_address');
  }
}

export async function sendFromTab(
  link: NodeClient,
  chain: LightChain,
  wallet: Wallet,
  request: SendRequest,
  pendingOwn: number,
): Promise<{ hash: string; status: string }> {
  const hrp = wallet.network.hrp;
  const from = parseAddressField(request.from, hrp, 'from');
  const to = parseAddressField(request.to, hrp, 'to');
  const amount = parseCoins(request.amount, 'amount');
  const fee = parseCoins(request.fee, 'fee', true);
  const balance = await fetchVerifiedBalance(chain, link, request.from);
  if (!balance.ok) throw new Error(`cannot send: balance proof failed (${balance.error.message})`);
  if (balance.account.balance < amount + fee) throw new FieldError('amount', 'amount: insufficient verified balance for amount + fee', 'insufficient_balance');
  const memo = request.memo ? new TextEncoder().encode(request.memo) : undefined;
  const nonce = balance.account.nonce + BigInt(pendingOwn);
  const built = buildTransfer(wallet, { from, to, amount, fee, nonce, ...(memo ? { memo } : {}) }, browserRandomBytes);
  const answer = await sendRawTransaction(link, { transaction: `0x${toHex(built.bytes)}` });
  if (answer.hash !== toHash0x(built.hash)) throw new Error(`node answered hash ${answer.hash}, the tab computed ${toHash0x(built.hash)}`);
  return answer;
}
