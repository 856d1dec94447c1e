/**
 * The send card of the wallet page: a form checked as the user types (send-check.ts; each message beside its
 * field), a Max button, then a review step — from, to, amount, fee, total, the balance a proof verified just now
 * and the balance after — before anything is signed (MetaMask's and Rabby's confirm screen). "Sign and send" signs
 * in the tab and submits; "Back" (or Escape) returns to the form with what was typed.
 */
import { formatUnits } from '../../src/crypto/amount.ts';
import type { LightNode } from '../light/light-node.ts';
import type { NodeClient } from '../lib/node-client.ts';
import type { WalletDb } from './wallet-db.ts';
import type { UnlockedWallet } from './wallet-keys.ts';
import { pendingSends } from './wallet-history.ts';
import { prepareSend, submitSend, type PreparedSend } from './wallet-send.ts';
import { checkSendDraft, maxSendable, parseCoinText, type SendField } from './send-check.ts';
import { clearErrors, setFieldError, showError } from './form-errors.ts';

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const weft = (units: bigint): string => `${formatUnits(units)} WEFT`;
const controlIds: Record<SendField, string> = { to: 'send-to', amount: 'send-amount', fee: 'send-fee' };
/** An address is checked as typed once it is this long (a Weft address has 64+ characters), else when left. */
const addressCheckCharsMin = 60;

export interface SendCard {
  /** Re-reads the balances (after a verified refresh) into "Available" and the funds check. */
  balancesChanged(): void;
}

export function wireSendCard(options: {
  link: NodeClient;
  light: LightNode;
  db: WalletDb;
  unlocked: UnlockedWallet;
  /** The last verified balance of an address in units, undefined while none was proven. */
  balanceOf: (address: string) => bigint | undefined;
  /** Called after a send the node admitted. */
  onSent: () => Promise<void>;
}): SendCard {
  const { wallet } = options.unlocked;
  const form = $<HTMLFormElement>('send-form');
  const review = $<HTMLElement>('send-review');
  const touched = new Set<SendField>();
  let prepared: PreparedSend | undefined;

  const draft = () => ({ to: $<HTMLInputElement>('send-to').value, amount: $<HTMLInputElement>('send-amount').value, fee: $<HTMLInputElement>('send-fee').value });
  const from = () => $<HTMLSelectElement>('send-from').value;

  /** Shows the checks of the touched fields; returns whether every checked field is right. */
  const check = (fields: ReadonlySet<SendField> = touched): boolean => {
    const result = checkSendDraft(draft(), { hrp: wallet.network.hrp, balance: options.balanceOf(from()), fields });
    for (const field of Object.keys(controlIds) as SendField[]) {
      setFieldError($(controlIds[field]), fields.has(field) ? result.errors[field] : undefined);
    }
    return Object.keys(result.errors).length === 0;
  };

  const showAvailable = () => {
    const balance = options.balanceOf(from());
    $('send-available').textContent = balance === undefined ? 'Available: checking the verified balance…' : `Available: ${weft(balance)} (verified)`;
  };

  const touch = (field: SendField) => () => {
    touched.add(field);
    check();
  };
  $('send-amount').addEventListener('input', touch('amount'));
  $('send-fee').addEventListener('input', touch('fee'));
  $('send-to').addEventListener('change', touch('to'));
  $('send-to').addEventListener('input', () => {
    if (touched.has('to') || $<HTMLInputElement>('send-to').value.trim().length >= addressCheckCharsMin) touch('to')();
  });
  $('send-from').addEventListener('change', () => {
    showAvailable();
    check();
  });
  $('send-max').onclick = () => {
    const balance = options.balanceOf(from());
    let fee: bigint;
    try {
      fee = parseCoinText(draft().fee, 'fee', true);
    } catch {
      touched.add('fee');
      check();
      return;
    }
    if (balance === undefined) return void setFieldError($('send-amount'), 'amount: the balance is not verified yet; try again in a moment');
    $<HTMLInputElement>('send-amount').value = formatUnits(maxSendable(balance, fee));
    touch('amount')();
  };

  const showForm = (focusId: string) => {
    review.hidden = true;
    form.hidden = false;
    prepared = undefined;
    $(focusId).focus();
  };

  form.onsubmit = async (event) => {
    event.preventDefault();
    for (const field of Object.keys(controlIds) as SendField[]) touched.add(field);
    $('send-result').textContent = '';
    if (!check()) {
      form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    const button = $<HTMLButtonElement>('send-review-button');
    button.disabled = true;
    clearErrors(form);
    try {
      const request = { from: from(), to: draft().to.trim(), amount: draft().amount, fee: draft().fee };
      prepared = await prepareSend(options.link, options.light.chain, wallet, request, pendingSends(await options.db.history(wallet.name), request.from));
      fillReview(prepared);
      form.hidden = true;
      review.hidden = false;
      $('review-title').focus();
    } catch (error) {
      showError(form, error, { fields: { ...controlIds, from: 'send-from' }, action: button });
    } finally {
      button.disabled = false;
    }
  };

  $('review-back').onclick = () => showForm('send-amount');
  review.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') showForm('send-amount');
  });
  $('review-send').onclick = async () => {
    if (prepared === undefined) return;
    const send = prepared;
    const button = $<HTMLButtonElement>('review-send');
    button.disabled = true;
    clearErrors(review);
    try {
      const sent = await submitSend(options.link, wallet, send);
      const { request } = send;
      await options.db.putHistory({
        wallet: wallet.name, hash: sent.hash, type: 'outgoing', address: request.from, counterparty: request.to, amount: formatUnits(send.amount),
        status: 'pending', nodeStatus: sent.status, own: true, payer: request.from, payerNonce: String(send.nonce), nonceSeenBelow: true, timeMs: Date.now(), spentUnits: String(send.total),
      });
      $<HTMLInputElement>('send-amount').value = '';
      touched.clear();
      showForm('send-to');
      $('send-result').textContent = `sent ${sent.hash} (${sent.status})`;
      await options.onSent();
    } catch (error) {
      showError(review, error, { action: button.closest<HTMLElement>('.row')! });
    } finally {
      button.disabled = false;
    }
  };

  showAvailable();
  return {
    balancesChanged() {
      showAvailable();
      if (touched.size > 0) check();
    },
  };
}

function fillReview(send: PreparedSend): void {
  const set = (id: string, text: string) => ($(id).textContent = text);
  set('review-from', send.request.from);
  set('review-to', send.request.to);
  set('review-amount', weft(send.amount));
  set('review-fee', weft(send.fee));
  set('review-total', weft(send.total));
  set('review-balance', weft(send.balance));
  $('review-balance').title = `verified by a state proof against block ${send.balanceBlock} (${send.balanceAge})`;
  set('review-remaining', weft(send.remaining));
}
