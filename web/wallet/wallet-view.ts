/**
 * The unlocked wallet's page section: the balance headline, then one view at a time (wallet-views.ts) — Activity
 * (history and addresses with verified balances), Send, Receive, Escrow, Private, More (backup, sign, verify).
 * Every balance shown comes from a proof checked against headers the tab's light node verified itself
 * (wallet-balances.ts); a failed proof shows "failed" and the reason, never a number. Balances wait for the light
 * node's first catch-up: before it, the node's newest headers are not the tab's yet.
 *
 * State and operations: `WalletViewState` holds the section's state; the functions below are its operations, and
 * `showWallet` only wires them.
 */
import type { LightNode } from '../light/light-node.ts';
import type { NodeClient } from '../lib/node-client.ts';
import { byId } from '../lib/dom.ts';
import type { HistoryRow, WalletDb } from './wallet-db.ts';
import { recordAddressEvent, refreshHistory } from './wallet-history.ts';
import { saveBrowserWallet, type UnlockedWallet } from './wallet-keys.ts';
import { wireSendCard, type SendCard } from './wallet-send-form.ts';
import { wireEscrowCard, type EscrowCard } from './wallet-escrow-form.ts';
import { wireBackupCard } from './wallet-backup.ts';
import { wireReceiveCard } from './wallet-receive.ts';
import { wirePrivateCard, type PrivateCard } from './private-card.ts';
import { createHistoryTable } from './wallet-history-table.ts';
import { createBalanceState, refreshBalances, showBalanceAge, updateAvailable, type BalanceState } from './wallet-balances.ts';
import { guardForm, wireSignForms } from './wallet-sign-forms.ts';
import { wireViews } from './wallet-views.ts';

/** Live subscriptions per page: the node allows 10 per connection; one is new_blocks. */
const addressSubscriptionsMax = 8;
/** Balance refreshes on new blocks are spaced by at least this. */
const refreshSpacingMs = 1_500;

interface WalletViewState {
  readonly link: NodeClient;
  readonly light: LightNode;
  readonly db: WalletDb;
  readonly unlocked: UnlockedWallet;
  readonly balances: BalanceState;
  readonly showHistory: (rows: readonly HistoryRow[]) => void;
  readonly unsubscribes: (() => Promise<void>)[];
  /** Addresses with a live subscription: a new address is subscribed too, up to the bound. */
  readonly subscribed: Set<string>;
  refreshQueued: boolean;
  cards?: { send: SendCard; escrow: EscrowCard; receive: ReturnType<typeof wireReceiveCard> };
  privateCard?: PrivateCard;
}

const standardAddresses = (state: WalletViewState): string[] =>
  state.unlocked.wallet.addresses().filter((a) => a.type === 'standard').map((a) => a.text);

function fill(select: HTMLSelectElement, values: readonly string[]): void {
  const keep = select.value;
  select.replaceChildren(...values.map((v) => new Option(v, v)));
  if (values.includes(keep)) select.value = keep;
}

function renderAddresses(state: WalletViewState): void {
  const body = state.balances.table.tBodies[0]!;
  const have = new Set([...body.rows].map((r) => r.dataset['address']));
  for (const text of standardAddresses(state)) {
    if (have.has(text)) continue;
    const row = body.insertRow();
    row.dataset['address'] = text;
    row.insertCell().textContent = text;
    Object.assign(row.insertCell(), { className: 'num', textContent: '…' });
    row.insertCell().textContent = 'checking';
  }
  for (const id of ['send-from', 'sign-address', 'escrow-from']) fill(byId<HTMLSelectElement>(id), standardAddresses(state));
  state.cards?.receive.addressesChanged(standardAddresses(state));
}

async function renderHistory(state: WalletViewState): Promise<void> {
  await state.light.synced();
  state.showHistory(await refreshHistory(state.link, state.light.chain, state.db, state.unlocked.wallet.name));
}

async function subscribeAddresses(state: WalletViewState): Promise<void> {
  for (const text of standardAddresses(state)) {
    if (state.subscribed.has(text) || state.subscribed.size >= addressSubscriptionsMax) continue;
    state.subscribed.add(text);
    const onEvent = (e: unknown) => void recordAddressEvent(state.db, state.unlocked.wallet.name, e).then(() => renderHistory(state));
    state.unsubscribes.push(await state.link.subscribe('address_transactions', onEvent, { address: text }));
  }
}

/** A send or escrow the node admitted: "available" drops now, the history shows it pending. */
async function afterSend(state: WalletViewState): Promise<void> {
  await updateAvailable(state.balances);
  await renderHistory(state);
}

/**
 * Spaced, but never dropped: a block inside the spacing schedules one refresh after it, so the last block of a
 * burst is always read (the send card's Available and Max depend on it).
 */
function onNewBlock(state: WalletViewState): void {
  if (state.refreshQueued) return;
  state.refreshQueued = true;
  setTimeout(() => {
    state.refreshQueued = false;
    void refreshBalances(state.balances).then(() => renderHistory(state));
    void state.privateCard?.refresh();
  }, Math.max(0, state.balances.lastRefreshMs + refreshSpacingMs - Date.now()));
}

async function addAddress(state: WalletViewState): Promise<void> {
  state.unlocked.wallet.createAddress('standard');
  await saveBrowserWallet(state.db, state.unlocked);
  renderAddresses(state);
  await refreshBalances(state.balances);
  await subscribeAddresses(state);
}

/** Subscribed to blocks before the first read: a block mined between them would otherwise stay off screen. */
async function startLive(state: WalletViewState): Promise<void> {
  state.unsubscribes.push(await state.link.subscribe('new_blocks', () => onNewBlock(state)));
  await refreshBalances(state.balances);
  await renderHistory(state);
  await subscribeAddresses(state);
}

function wireCards(state: WalletViewState): void {
  const { link, light, db, unlocked } = state;
  const balanceOf = (address: string) => state.balances.available.get(address);
  const onSent = () => afterSend(state);
  state.cards = {
    send: wireSendCard({ link, light, db, unlocked, balanceOf, onSent }),
    escrow: wireEscrowCard({ link, light, db, unlocked, balanceOf, onSent }),
    receive: wireReceiveCard(),
  };
  wireBackupCard(unlocked);
  wireSignForms(unlocked);
  // The private account scans on its own; each new block scans again (private-card.ts).
  void wirePrivateCard(link, light, db, unlocked).then(
    (card) => (state.privateCard = card),
    (error) => (byId('private-scan').textContent = `private account unavailable: ${(error as Error).message}`),
  );
}

export function showWallet(link: NodeClient, light: LightNode, db: WalletDb, unlocked: UnlockedWallet): { close(): void } {
  const table = byId<HTMLTableElement>('addresses');
  const onChange = () => {
    state.cards?.send.balancesChanged();
    state.cards?.escrow.balancesChanged();
  };
  const balances = createBalanceState({ link, light, db, walletName: unlocked.wallet.name, table, onChange });
  const showHistory = createHistoryTable(byId<HTMLTableElement>('history'), byId('history-live'));
  const state: WalletViewState = { link, light, db, unlocked, balances, showHistory, unsubscribes: [], subscribed: new Set(), refreshQueued: false };
  byId('wallet-name').textContent = unlocked.wallet.name;
  const stopViews = wireViews();
  wireCards(state);
  const addressActions = { action: byId('new-address').closest<HTMLElement>('.row')! };
  const addressesCard = table.closest<HTMLElement>('.card')!;
  byId('new-address').onclick = guardForm(addressesCard, () => addAddress(state), addressActions);
  byId('refresh').onclick = guardForm(addressesCard, () => refreshBalances(balances).then(() => renderHistory(state)), addressActions);
  renderAddresses(state);
  const ageTimer = setInterval(() => showBalanceAge(balances), 1_000);
  void guardForm(addressesCard, () => startLive(state), addressActions)();
  return {
    close: () => {
      clearInterval(ageTimer);
      stopViews();
      state.unsubscribes.forEach((u) => void u().catch(() => undefined));
    },
  };
}
