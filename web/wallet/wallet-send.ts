/**
 * Sending from the tab: the transfer is built and signed here with src/wallet (buildTransfer), and only its
 * canonical bytes leave the tab, through the public send_raw_transaction. The nonce is the account nonce from a
 * proof checked against the tab's own verified headers (web/light/verified-balance.ts) plus this wallet's own
 * transactions still pending (the node's mempool keeps per-address queues). Errors about one input are FieldErrors
 * (`to`, `amount`, `fee`), which the pages show beside that field. A send is prepared first (fields parsed, the
 * balance proven that moment, the nonce chosen) so the page can show a review of exactly what will be signed, then
 * submitted.
 */
import { buildTransfer } from '../../src/wallet/transfer.ts';
import type { Wallet } from '../../src/wallet/wallet.ts';
import { toHash0x, toHex } from '../../src/util/bytes.ts';
import type { LightChainView } from '../../src/light/light-chain.ts';
import { freshnessText } from '../../src/light/freshness.ts';
import { fetchVerifiedBalance } from '../light/verified-balance.ts';
import { browserRandomBytes } from './wallet-keys.ts';
import { FieldError } from './form-errors.ts';
import { nextNonce, type PendingOwn } from './wallet-history.ts';
import { insufficientMessage, parseCoinText, parseRecipient } from './send-check.ts';
import { sendRawTransaction } from '../../packages/client/src/index.ts';
import type { NodeClient } from '../lib/node-client.ts';

export interface SendRequest {
  readonly from: string;
  readonly to: string;
  /** Coins as typed (decimal text, at most 8 decimals). */
  readonly amount: string;
  readonly fee: string;
  readonly memo?: string;
}

/** Decimal text → base units, with the node's rule (≤ 8 decimals, positive where required); exact, no float. */
export function parseCoins(text: string, label: string, allowZero = false): bigint {
  return parseCoinText(text, label, allowZero);
}

/** A send checked against a balance proven just now: what the review step shows and what will be signed. */
export interface PreparedSend {
  readonly request: SendRequest;
  readonly from: Uint8Array;
  readonly to: Uint8Array;
  readonly amount: bigint;
  readonly fee: bigint;
  readonly total: bigint;
  /** The sender's verified balance, and the block whose header the proof was checked against. */
  readonly balance: bigint;
  readonly balanceBlock: string;
  /** "verified at block N, 3 s ago" (src/light/freshness.ts): the proof is on the tab's selected chain near its tip. */
  readonly balanceAge: string;
  readonly remaining: bigint;
  readonly nonce: bigint;
}

export async function prepareSend(link: NodeClient, chain: LightChainView, wallet: Wallet, request: SendRequest, pendingOwn: PendingOwn): Promise<PreparedSend> {
  const hrp = wallet.network.hrp;
  const from = parseRecipient(request.from, hrp, 'from');
  const to = parseRecipient(request.to, hrp, 'to');
  const amount = parseCoinText(request.amount, 'amount');
  const fee = parseCoinText(request.fee, 'fee', true);
  const proven = await fetchVerifiedBalance(chain, link, request.from);
  if (!proven.ok) throw new Error(`cannot send: balance proof failed (${proven.error.message})`);
  const balance = proven.account.balance;
  const total = amount + fee;
  if (balance < total) throw new FieldError('amount', insufficientMessage(balance, total), 'insufficient_balance');
  const nonce = nextNonce(proven.account.nonce, pendingOwn);
  const balanceAge = freshnessText(proven.account.blockHeight, proven.account.timestampMs, Date.now());
  return { request, from, to, amount, fee, total, balance, balanceBlock: proven.account.blockHash, balanceAge, remaining: balance - total, nonce };
}

/** Signs the prepared send in the tab and submits it; the node's hash must be the one the tab computed. */
export async function submitSend(link: NodeClient, wallet: Wallet, send: PreparedSend): Promise<{ hash: string; status: string }> {
  const memo = send.request.memo ? new TextEncoder().encode(send.request.memo) : undefined;
  const { from, to, amount, fee, nonce } = send;
  const built = buildTransfer(wallet, { from, to, amount, fee, nonce, ...(memo ? { memo } : {}) }, browserRandomBytes);
  const answer = await sendRawTransaction(link, { transaction: `0x${toHex(built.bytes)}` });
  if (answer.hash !== toHash0x(built.hash)) throw new Error(`node answered hash ${answer.hash}, the tab computed ${toHash0x(built.hash)}`);
  return answer;
}

/** Prepare and submit in one step (the widget, whose approval screen is its review). */
export async function sendFromTab(
  link: NodeClient,
  chain: LightChainView,
  wallet: Wallet,
  request: SendRequest,
  pendingOwn: PendingOwn,
): Promise<{ hash: string; status: string }> {
  return submitSend(link, wallet, await prepareSend(link, chain, wallet, request, pendingOwn));
}
