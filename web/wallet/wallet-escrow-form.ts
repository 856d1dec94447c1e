/**
 * The escrow card of the wallet page: lock WEFT for an agent account and a task (docs/settlement.md "Escrows"), on
 * the send card's review flow (review-flow.ts) — fields checked as typed, each message beside its field
 * (escrow-check.ts), then a review of exactly what will be signed (client, agent account proven to exist and not be
 * frozen, amount, fee, total, task hash, timeout as a DAA score, dispute window, arbiter, the escrow id, the balance
 * now and after) before "Sign and lock" signs escrow_create in the tab (wallet-escrow.ts). Below it, "Your escrows"
 * with Reclaim (wallet-escrow-list.ts).
 */
import { formatUnits } from '../../src/crypto/amount.ts';
import { decodeAddress } from '../../src/crypto/address.ts';
import { toHash0x } from '../../src/util/bytes.ts';
import type { LightNode } from '../light/light-node.ts';
import type { NodeClient } from '../lib/node-client.ts';
import { byId } from '../lib/dom.ts';
import { checkEscrowDraft, type EscrowDraft, type EscrowField } from './escrow-check.ts';
import { createMemoryEscrowDb, openEscrowDb, type EscrowDb } from './escrow-db.ts';
import { runForm } from './form-errors.ts';
import type { WalletDb } from './wallet-db.ts';
import { prepareEscrow, submitEscrow, type PreparedEscrow } from './wallet-escrow.ts';
import { createEscrowList } from './wallet-escrow-list.ts';
import { pendingSends } from './wallet-history.ts';
import type { UnlockedWallet } from './wallet-keys.ts';
import { balancesChanged, fromAddress, weftText, wireReviewFlow, type ReviewFlowSpec, type Submitted } from './review-flow.ts';

const controls: Record<EscrowField, string> = {
  agent: 'escrow-agent', amount: 'escrow-amount', fee: 'escrow-fee', task: 'escrow-task', timeout: 'escrow-timeout', window: 'escrow-window', arbiter: 'escrow-arbiter',
};
const ids = {
  form: 'escrow-form', reviewButton: 'escrow-review-button', from: 'escrow-from', available: 'escrow-available',
  review: 'escrow-review', reviewTitle: 'escrow-review-title', back: 'escrow-back', sign: 'escrow-sign', result: 'escrow-result',
};

export interface EscrowCard {
  /** Re-reads "Available" and the listed escrows' proven statuses (after a verified refresh or a new block). */
  balancesChanged(): void;
}

interface EscrowOptions {
  link: NodeClient;
  light: LightNode;
  db: WalletDb;
  unlocked: UnlockedWallet;
  balanceOf: (address: string) => bigint | undefined;
  /** Called after an escrow or a reclaim the node admitted. */
  onSent: () => Promise<void>;
}

const value = (field: EscrowField) => byId<HTMLInputElement>(controls[field]).value;
const draft = (): EscrowDraft => ({
  agent: value('agent'), amount: value('amount'), fee: value('fee'), task: value('task'), timeoutBlocks: value('timeout'), disputeWindow: value('window'), arbiter: value('arbiter'),
});

function clientBytes(from: string, hrp: string): Uint8Array | undefined {
  try {
    return decodeAddress(from, hrp);
  } catch {
    return undefined;
  }
}

async function submit(options: EscrowOptions, escrowDb: Promise<EscrowDb>, escrow: PreparedEscrow): Promise<Submitted> {
  const { wallet } = options.unlocked;
  const sent = await submitEscrow(options.link, wallet, escrow);
  const { request } = escrow;
  const amount = formatUnits(escrow.parsed.amount);
  await (await escrowDb).putEscrow({
    wallet: wallet.name, escrowId: sent.escrowId, createHash: sent.hash, client: request.from, agent: request.agent.trim(), amount,
    task: request.task.trim(), timeoutDaaScore: Number(escrow.timeoutDaaScore), timeMs: Date.now(),
  });
  return {
    row: {
      hash: sent.hash, type: 'outgoing', address: request.from, counterparty: request.agent.trim(), amount, status: 'pending', nodeStatus: sent.status,
      own: true, payer: request.from, payerNonce: String(escrow.nonce), nonceSeenBelow: true, timeMs: Date.now(), spentUnits: String(escrow.total),
    },
    result: `escrow ${sent.escrowId} sent in ${sent.hash} (${sent.status})`,
  };
}

function escrowSpec(options: EscrowOptions, escrowDb: Promise<EscrowDb>, onSent: () => Promise<void>): ReviewFlowSpec<EscrowField, PreparedEscrow> {
  const { wallet } = options.unlocked;
  const hrp = wallet.network.hrp;
  const spec: ReviewFlowSpec<EscrowField, PreparedEscrow> = {
    db: options.db, walletName: wallet.name, ids, controls, typedFields: ['amount', 'fee', 'task', 'timeout', 'window'], addressFields: ['agent', 'arbiter'],
    focusOnBack: 'amount', clearAfterSend: ['amount', 'task'], focusAfterSend: 'agent', balanceOf: options.balanceOf, onSent,
    check: (fields) => {
      const from = fromAddress(spec);
      const balance = options.balanceOf(from);
      const client = clientBytes(from, hrp);
      return checkEscrowDraft(draft(), { hrp, fields, ...(client ? { client } : {}), ...(balance !== undefined ? { balance } : {}) }).errors;
    },
    prepare: async () => {
      const request = { ...draft(), from: fromAddress(spec) };
      return prepareEscrow(options.link, options.light.chain, wallet, request, pendingSends(await options.db.history(wallet.name), request.from));
    },
    fillReview,
    submit: (escrow) => submit(options, escrowDb, escrow),
  };
  return spec;
}

export function wireEscrowCard(options: EscrowOptions): EscrowCard {
  const escrowDb: Promise<EscrowDb> = openEscrowDb().catch(() => createMemoryEscrowDb());
  const list = createEscrowList({ ...options, escrowDb, wallet: options.unlocked.wallet, table: byId<HTMLTableElement>('escrows'), live: byId('escrows-live'), onReclaimed: options.onSent });
  const state = wireReviewFlow(escrowSpec(options, escrowDb, async () => {
    await options.onSent();
    await list.refresh();
  }));
  const trackForm = byId<HTMLFormElement>('escrow-track-form');
  trackForm.onsubmit = (event) => {
    event.preventDefault();
    void runForm(trackForm, byId<HTMLButtonElement>('escrow-track-button'), async () => {
      await list.track(byId<HTMLInputElement>('escrow-track-id').value);
      byId<HTMLInputElement>('escrow-track-id').value = '';
    }, { id: 'escrow-track-id' });
  };
  void list.refresh();
  return {
    balancesChanged() {
      balancesChanged(state);
      void list.refresh();
    },
  };
}

function fillReview(escrow: PreparedEscrow): void {
  const set = (id: string, text: string) => (byId(id).textContent = text);
  const { parsed, request } = escrow;
  set('er-from', request.from);
  set('er-agent', request.agent.trim());
  byId('er-agent').title = `agent account proven to exist and not be frozen at a verified header of DAA score ${escrow.provenDaaScore}`;
  set('er-amount', weftText(parsed.amount));
  set('er-fee', weftText(parsed.fee));
  set('er-total', weftText(escrow.total));
  set('er-task', parsed.taskIsHash ? toHash0x(parsed.taskHash) : `${toHash0x(parsed.taskHash)} (BLAKE3 of “${request.task.trim()}”)`);
  set('er-timeout', `DAA score ${escrow.timeoutDaaScore} — ${parsed.timeoutBlocks} blocks after the verified tip (${escrow.provenDaaScore}); you may reclaim from then on if the agent has not claimed`);
  set('er-window', parsed.disputeWindow === 0n ? 'none: the agent needs your completion receipt to claim' : `${parsed.disputeWindow} blocks: from then on the agent may claim without your receipt`);
  set('er-arbiter', request.arbiter.trim() || 'none');
  set('er-id', toHash0x(escrow.escrowId));
  set('er-balance', weftText(escrow.balance));
  byId('er-balance').title = `verified by a state proof against block ${escrow.balanceBlock} (${escrow.balanceAge})`;
  set('er-remaining', weftText(escrow.remaining));
}
