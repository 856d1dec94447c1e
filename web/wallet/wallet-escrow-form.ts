/**
 * The escrow card of the wallet page: lock coins for an agent account and a task (docs/settlement.md "Escrows"),
 * with the send card's habits — fields checked as typed, each message beside its field (escrow-check.ts), then a
 * review of exactly what will be signed (client, agent account proven to exist and not be frozen, amount, fee,
 * total, task hash, timeout as a DAA score, dispute window, arbiter, the escrow id, the balance now and after)
 * before "Sign and lock" signs escrow_create in the tab (wallet-escrow.ts). Below it, "Your escrows" with Reclaim
 * (wallet-escrow-list.ts).
 */
import { formatUnits } from '../../src/crypto/amount.ts';
import { decodeAddress } from '../../src/crypto/address.ts';
import { toHash0x } from '../../src/util/bytes.ts';
import type { LightNode } from '../light/light-node.ts';
import type { NodeClient } from '../lib/node-client.ts';
import { checkEscrowDraft, type EscrowDraft, type EscrowField } from './escrow-check.ts';
import { createMemoryEscrowDb, openEscrowDb, type EscrowDb } from './escrow-db.ts';
import { clearErrors, runForm, setFieldError, showError } from './form-errors.ts';
import type { WalletDb } from './wallet-db.ts';
import { prepareEscrow, submitEscrow, type PreparedEscrow } from './wallet-escrow.ts';
import { createEscrowList } from './wallet-escrow-list.ts';
import { pendingSends } from './wallet-history.ts';
import type { UnlockedWallet } from './wallet-keys.ts';

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const weft = (units: bigint): string => `${formatUnits(units)} WEFT`;
const controlIds: Record<EscrowField, string> = {
  agent: 'escrow-agent', amount: 'escrow-amount', fee: 'escrow-fee', task: 'escrow-task', timeout: 'escrow-timeout', window: 'escrow-window', arbiter: 'escrow-arbiter',
};
/** Address fields are checked as typed once this long (a Weft address has 64+ characters), else when left. */
const addressCheckCharsMin = 60;

export interface EscrowCard {
  /** Re-reads "Available" and the listed escrows' proven statuses (after a verified refresh or a new block). */
  balancesChanged(): void;
}

export function wireEscrowCard(options: {
  link: NodeClient;
  light: LightNode;
  db: WalletDb;
  unlocked: UnlockedWallet;
  balanceOf: (address: string) => bigint | undefined;
  /** Called after an escrow or a reclaim the node admitted. */
  onSent: () => Promise<void>;
}): EscrowCard {
  const { wallet } = options.unlocked;
  const hrp = wallet.network.hrp;
  const form = $<HTMLFormElement>('escrow-form');
  const review = $<HTMLElement>('escrow-review');
  const escrowDb: Promise<EscrowDb> = openEscrowDb().catch(() => createMemoryEscrowDb());
  const list = createEscrowList({ ...options, escrowDb, wallet, table: $<HTMLTableElement>('escrows'), live: $('escrows-live'), onReclaimed: options.onSent });
  const touched = new Set<EscrowField>();
  let prepared: PreparedEscrow | undefined;

  const value = (field: EscrowField) => $<HTMLInputElement>(controlIds[field]).value;
  const draft = (): EscrowDraft => ({
    agent: value('agent'), amount: value('amount'), fee: value('fee'), task: value('task'), timeoutBlocks: value('timeout'), disputeWindow: value('window'), arbiter: value('arbiter'),
  });
  const from = () => $<HTMLSelectElement>('escrow-from').value;
  const client = () => {
    try {
      return decodeAddress(from(), hrp);
    } catch {
      return undefined;
    }
  };

  const check = (fields: ReadonlySet<EscrowField> = touched): boolean => {
    const balance = options.balanceOf(from());
    const clientBytes = client();
    const result = checkEscrowDraft(draft(), { hrp, fields, ...(clientBytes ? { client: clientBytes } : {}), ...(balance !== undefined ? { balance } : {}) });
    for (const field of Object.keys(controlIds) as EscrowField[]) setFieldError($(controlIds[field]), fields.has(field) ? result.errors[field] : undefined);
    return Object.keys(result.errors).length === 0;
  };
  const showAvailable = () => {
    const balance = options.balanceOf(from());
    $('escrow-available').textContent = balance === undefined ? 'Available: checking the verified balance…' : `Available: ${weft(balance)} (verified)`;
  };
  const touch = (field: EscrowField) => () => {
    touched.add(field);
    check();
  };
  for (const field of ['amount', 'fee', 'task', 'timeout', 'window'] as const) $(controlIds[field]).addEventListener('input', touch(field));
  for (const field of ['agent', 'arbiter'] as const) {
    const control = $<HTMLInputElement>(controlIds[field]);
    control.addEventListener('change', touch(field));
    control.addEventListener('input', () => {
      if (touched.has(field) || control.value.trim().length >= addressCheckCharsMin) touch(field)();
    });
  }
  $('escrow-from').addEventListener('change', () => {
    showAvailable();
    check();
  });

  const showForm = (focusId: string) => {
    review.hidden = true;
    form.hidden = false;
    prepared = undefined;
    $(focusId).focus();
  };

  form.onsubmit = async (event) => {
    event.preventDefault();
    for (const field of Object.keys(controlIds) as EscrowField[]) touched.add(field);
    $('escrow-result').textContent = '';
    if (!check()) {
      form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    const button = $<HTMLButtonElement>('escrow-review-button');
    button.disabled = true;
    clearErrors(form);
    try {
      const request = { ...draft(), from: from() };
      prepared = await prepareEscrow(options.link, options.light.chain, wallet, request, pendingSends(await options.db.history(wallet.name), request.from));
      fillReview(prepared);
      form.hidden = true;
      review.hidden = false;
      $('escrow-review-title').focus();
    } catch (error) {
      showError(form, error, { fields: { ...controlIds, from: 'escrow-from' }, action: button });
    } finally {
      button.disabled = false;
    }
  };

  $('escrow-back').onclick = () => showForm('escrow-amount');
  review.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') showForm('escrow-amount');
  });
  $('escrow-sign').onclick = async () => {
    if (prepared === undefined) return;
    const escrow = prepared;
    const button = $<HTMLButtonElement>('escrow-sign');
    button.disabled = true;
    clearErrors(review);
    try {
      const sent = await submitEscrow(options.link, wallet, escrow);
      const { request } = escrow;
      const amount = formatUnits(escrow.parsed.amount);
      await options.db.putHistory({
        wallet: wallet.name, hash: sent.hash, type: 'outgoing', address: request.from, counterparty: request.agent.trim(), amount,
        status: 'pending', nodeStatus: sent.status, own: true, payer: request.from, payerNonce: String(escrow.nonce), nonceSeenBelow: true, timeMs: Date.now(), spentUnits: String(escrow.total),
      });
      await (await escrowDb).putEscrow({
        wallet: wallet.name, escrowId: sent.escrowId, createHash: sent.hash, client: request.from, agent: request.agent.trim(), amount,
        task: request.task.trim(), timeoutDaaScore: Number(escrow.timeoutDaaScore), timeMs: Date.now(),
      });
      $<HTMLInputElement>('escrow-amount').value = '';
      $<HTMLInputElement>('escrow-task').value = '';
      touched.clear();
      showForm('escrow-agent');
      $('escrow-result').textContent = `escrow ${sent.escrowId} sent in ${sent.hash} (${sent.status})`;
      await options.onSent();
      await list.refresh();
    } catch (error) {
      showError(review, error, { action: button.closest<HTMLElement>('.row')! });
    } finally {
      button.disabled = false;
    }
  };

  const trackForm = $<HTMLFormElement>('escrow-track-form');
  trackForm.onsubmit = (event) => {
    event.preventDefault();
    void runForm(trackForm, $<HTMLButtonElement>('escrow-track-button'), async () => {
      await list.track($<HTMLInputElement>('escrow-track-id').value);
      $<HTMLInputElement>('escrow-track-id').value = '';
    }, { id: 'escrow-track-id' });
  };

  showAvailable();
  void list.refresh();
  return {
    balancesChanged() {
      showAvailable();
      if (touched.size > 0) check();
      void list.refresh();
    },
  };
}

function fillReview(escrow: PreparedEscrow): void {
  const set = (id: string, text: string) => ($(id).textContent = text);
  const { parsed, request } = escrow;
  set('er-from', request.from);
  set('er-agent', request.agent.trim());
  $('er-agent').title = `agent account proven to exist and not be frozen at a verified header of DAA score ${escrow.provenDaaScore}`;
  set('er-amount', weft(parsed.amount));
  set('er-fee', weft(parsed.fee));
  set('er-total', weft(escrow.total));
  set('er-task', parsed.taskIsHash ? toHash0x(parsed.taskHash) : `${toHash0x(parsed.taskHash)} (BLAKE3 of “${request.task.trim()}”)`);
  set('er-timeout', `DAA score ${escrow.timeoutDaaScore} — ${parsed.timeoutBlocks} blocks after the verified tip (${escrow.provenDaaScore}); you may reclaim from then on if the agent has not claimed`);
  set('er-window', parsed.disputeWindow === 0n ? 'none: the agent needs your completion receipt to claim' : `${parsed.disputeWindow} blocks: from then on the agent may claim without your receipt`);
  set('er-arbiter', request.arbiter.trim() || 'none');
  set('er-id', toHash0x(escrow.escrowId));
  set('er-balance', weft(escrow.balance));
  $('er-balance').title = `verified by a state proof against block ${escrow.balanceBlock} (${escrow.balanceAge})`;
  set('er-remaining', weft(escrow.remaining));
}
