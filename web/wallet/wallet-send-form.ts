/**
 * The send card of the wallet page, on the shared review flow (review-flow.ts): a form checked as the user types
 * (send-check.ts; each message beside its field), a Max button, then a review step — from, to, amount, fee, total,
 * the balance a proof verified just now and the balance after — before anything is signed. "Sign and send" signs
 * in the tab and submits; "Back" (or Escape) returns to the form with what was typed.
 */
import { formatUnits } from '../../src/crypto/amount.ts';
import type { LightNode } from '../light/light-node.ts';
import type { NodeClient } from '../lib/node-client.ts';
import { byId } from '../lib/dom.ts';
import type { WalletDb } from './wallet-db.ts';
import type { UnlockedWallet } from './wallet-keys.ts';
import { pendingSends } from './wallet-history.ts';
import { prepareSend, submitSend, type PreparedSend } from './wallet-send.ts';
import { checkSendDraft, maxSendable, parseCoinText, type SendField } from './send-check.ts';
import { setFieldError } from './form-errors.ts';
import { balancesChanged, fromAddress, touch, weftText, wireReviewFlow, type ReviewFlowSpec, type ReviewFlowState, type Submitted } from './review-flow.ts';

const controls: Record<SendField, string> = { to: 'send-to', amount: 'send-amount', fee: 'send-fee' };
const ids = {
  form: 'send-form', reviewButton: 'send-review-button', from: 'send-from', available: 'send-available',
  review: 'send-review', reviewTitle: 'review-title', back: 'review-back', sign: 'review-send', result: 'send-result',
};

export interface SendCard {
  /** Re-reads the balances (after a verified refresh) into "Available" and the funds check. */
  balancesChanged(): void;
}

interface SendOptions {
  link: NodeClient;
  light: LightNode;
  db: WalletDb;
  unlocked: UnlockedWallet;
  /** The available verified balance of an address in units, undefined while none was proven. */
  balanceOf: (address: string) => bigint | undefined;
  /** Called after a send the node admitted. */
  onSent: () => Promise<void>;
}

const draft = () => ({ to: byId<HTMLInputElement>('send-to').value, amount: byId<HTMLInputElement>('send-amount').value, fee: byId<HTMLInputElement>('send-fee').value });

async function submit(options: SendOptions, send: PreparedSend): Promise<Submitted> {
  const sent = await submitSend(options.link, options.unlocked.wallet, send);
  const { request } = send;
  return {
    row: {
      hash: sent.hash, type: 'outgoing', address: request.from, counterparty: request.to, amount: formatUnits(send.amount), status: 'pending',
      nodeStatus: sent.status, own: true, payer: request.from, payerNonce: String(send.nonce), nonceSeenBelow: true, timeMs: Date.now(), spentUnits: String(send.total),
    },
    result: `sent ${sent.hash} (${sent.status})`,
  };
}

function sendSpec(options: SendOptions): ReviewFlowSpec<SendField, PreparedSend> {
  const { wallet } = options.unlocked;
  const spec: ReviewFlowSpec<SendField, PreparedSend> = {
    db: options.db, walletName: wallet.name, ids, controls, typedFields: ['amount', 'fee'], addressFields: ['to'],
    focusOnBack: 'amount', clearAfterSend: ['amount'], focusAfterSend: 'to', balanceOf: options.balanceOf, onSent: options.onSent,
    check: (fields) => checkSendDraft(draft(), { hrp: wallet.network.hrp, balance: options.balanceOf(fromAddress(spec)), fields }).errors,
    prepare: async () => {
      const request = { from: fromAddress(spec), to: draft().to.trim(), amount: draft().amount, fee: draft().fee };
      return prepareSend(options.link, options.light.chain, wallet, request, pendingSends(await options.db.history(wallet.name), request.from));
    },
    fillReview,
    submit: (send) => submit(options, send),
  };
  return spec;
}

/** Max: the verified balance minus the fee typed (the fee's own error shows if it is not a number). */
function fillMax(state: ReviewFlowState<SendField, PreparedSend>): void {
  const balance = state.spec.balanceOf(fromAddress(state.spec));
  let fee: bigint;
  try {
    fee = parseCoinText(draft().fee, 'fee', true);
  } catch {
    return touch(state, 'fee');
  }
  if (balance === undefined) return void setFieldError(byId('send-amount'), 'amount: the balance is not verified yet; try again in a moment');
  byId<HTMLInputElement>('send-amount').value = formatUnits(maxSendable(balance, fee));
  touch(state, 'amount');
}

export function wireSendCard(options: SendOptions): SendCard {
  const state = wireReviewFlow(sendSpec(options));
  byId('send-max').onclick = () => fillMax(state);
  return { balancesChanged: () => balancesChanged(state) };
}

function fillReview(send: PreparedSend): void {
  const set = (id: string, text: string) => (byId(id).textContent = text);
  set('review-from', send.request.from);
  set('review-to', send.request.to);
  set('review-amount', weftText(send.amount));
  set('review-fee', weftText(send.fee));
  set('review-total', weftText(send.total));
  set('review-balance', weftText(send.balance));
  byId('review-balance').title = `verified by a state proof against block ${send.balanceBlock} (${send.balanceAge})`;
  set('review-remaining', weftText(send.remaining));
}
