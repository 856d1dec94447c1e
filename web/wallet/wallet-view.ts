/**
 * The unlocked wallet's page section: addresses with verified balances, send, history, sign and verify. Every
 * balance shown comes from a proof checked against headers the tab's light node verified itself
 * (web/light/verified-balance.ts); a failed proof shows "failed" and the reason, never a number. Balances wait for
 * the light node's first catch-up: before it, the node's newest headers are not the tab's yet.
 */
import { decodeAddress } from '../../src/crypto/address.ts';
import { fromHex, toHex } from '../../src/util/bytes.ts';
import { verifyMessage, type MessageSignatureType } from '../../src/wallet/message.ts';
import { freshnessText } from '../../src/light/freshness.ts';
import { fetchVerifiedBalance } from '../light/verified-balance.ts';
import type { LightNode } from '../light/light-node.ts';
import type { WalletDb } from './wallet-db.ts';
import { pendingSends, recordAddressEvent, refreshHistory } from './wallet-history.ts';
import { browserRandomBytes, saveBrowserWallet, type UnlockedWallet } from './wallet-keys.ts';
import { wireSendCard } from './wallet-send-form.ts';
import { wireEscrowCard } from './wallet-escrow-form.ts';
import { wireBackupCard } from './wallet-backup.ts';
import { wireReceiveCard } from './wallet-receive.ts';
import { wirePrivateCard, type PrivateCard } from './private-card.ts';
import { createHistoryTable } from './wallet-history-table.ts';
import { clearErrors, FieldError, showError } from './form-errors.ts';
import type { NodeClient } from '../lib/node-client.ts';

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
/** Live subscriptions per page: the node allows 10 per connection; one is new_blocks. */
const addressSubscriptionsMax = 8;
/** Balance refreshes on new blocks are spaced by at least this. */
const refreshSpacingMs = 1_500;

function fill(select: HTMLSelectElement, values: readonly string[]): void {
  const keep = select.value;
  select.replaceChildren(...values.map((v) => new Option(v, v)));
  if (values.includes(keep)) select.value = keep;
}

export function showWallet(link: NodeClient, light: LightNode, db: WalletDb, unlocked: UnlockedWallet): { close(): void } {
  const { wallet } = unlocked;
  const unsubscribes: (() => Promise<void>)[] = [];
  const texts = () => wallet.addresses().filter((a) => a.type === 'standard').map((a) => a.text);
  let lastRefresh = 0;
  let refreshQueued = false;
  /** Verified balances in units, by address: the send card's "Available", Max and funds check read them. */
  const balances = new Map<string, bigint>();

  const renderAddresses = () => {
    const body = $<HTMLTableElement>('addresses').tBodies[0]!;
    const have = new Set([...body.rows].map((r) => r.dataset['address']));
    for (const text of texts()) {
      if (have.has(text)) continue;
      const row = body.insertRow();
      row.dataset['address'] = text;
      row.insertCell().textContent = text;
      Object.assign(row.insertCell(), { className: 'num', textContent: '…' });
      row.insertCell().textContent = 'checking';
    }
    for (const id of ['send-from', 'sign-address', 'escrow-from']) fill($<HTMLSelectElement>(id), texts());
    receiveCard.addressesChanged(texts());
  };

  // One refresh at a time: a refresh asked for while one runs runs once more after it, so an older read (a proof
  // still waiting for its header) can never land after a newer one and leave a stale balance on screen.
  let refreshing: Promise<void> | undefined;
  let refreshAgain = false;
  const refreshBalances = (): Promise<void> => {
    if (refreshing) {
      refreshAgain = true;
      return refreshing;
    }
    refreshing = (async () => {
      do {
        refreshAgain = false;
        await readBalances();
      } while (refreshAgain);
    })().finally(() => (refreshing = undefined));
    return refreshing;
  };
  /** The block the balances on screen were proven against: its age is shown, ticking (docs/wallet.md "Freshness"). */
  let provenAt: { height: number; timestampMs: number } | undefined;
  const showAge = () => {
    $('balances-age').textContent = provenAt ? `Balances ${freshnessText(provenAt.height, provenAt.timestampMs, Date.now())}` : 'Balances: no current proof';
  };
  const ageTimer = setInterval(showAge, 1_000);
  const readBalances = async () => {
    lastRefresh = Date.now();
    await light.synced();
    provenAt = undefined;
    for (const row of $<HTMLTableElement>('addresses').tBodies[0]!.rows) {
      const result = await fetchVerifiedBalance(light.chain, link, row.dataset['address']!);
      const [, balanceCell, proofCell] = row.cells;
      if (result.ok) {
        balances.set(row.dataset['address']!, result.account.balance);
        balanceCell!.textContent = result.display;
        proofCell!.textContent = 'verified';
        proofCell!.className = 'verified';
        const { blockHash, blockHeight, timestampMs } = result.account;
        proofCell!.title = `state proof checked against verified header ${blockHash} (height ${blockHeight}), on this tab's selected chain near its tip`;
        if (!provenAt || blockHeight < provenAt.height) provenAt = { height: blockHeight, timestampMs };
      } else {
        balances.delete(row.dataset['address']!);
        balanceCell!.textContent = '—';
        proofCell!.textContent = 'failed';
        proofCell!.className = 'failed';
        proofCell!.title = `${result.error.reason}: ${result.error.message}`;
      }
    }
    showAge();
    sendCard.balancesChanged();
    escrowCard.balancesChanged();
  };

  const showHistory = createHistoryTable($<HTMLTableElement>('history'), $('history-live'));
  const renderHistory = async () => {
    await light.synced();
    const rows = await refreshHistory(link, light.chain, db, wallet.name);
    showHistory(rows);
  };

  /** Addresses with a live subscription: a new address is subscribed too, up to the bound. */
  const subscribed = new Set<string>();
  const subscribeAddresses = async () => {
    for (const text of texts()) {
      if (subscribed.has(text) || subscribed.size >= addressSubscriptionsMax) continue;
      subscribed.add(text);
      unsubscribes.push(await link.subscribe('address_transactions', (e) => void recordAddressEvent(db, wallet.name, e).then(renderHistory), { address: text }));
    }
  };

  /** Runs an action; its error is shown in `scope`, beside the field it names or under the action (form-errors.ts). */
  const guard = (scope: HTMLElement, work: () => Promise<void>, options: { fields?: Record<string, string>; action?: HTMLElement } = {}) => async (event?: Event) => {
    event?.preventDefault();
    clearErrors(scope);
    try {
      await work();
    } catch (error) {
      showError(scope, error, options);
    }
  };
  const sendCard = wireSendCard({ link, light, db, unlocked, balanceOf: (address) => balances.get(address), onSent: () => renderHistory() });
  const escrowCard = wireEscrowCard({ link, light, db, unlocked, balanceOf: (address) => balances.get(address), onSent: () => renderHistory() });
  const addressesCard = $('addresses').closest<HTMLElement>('.card')!;
  const addressActions = { action: $('new-address').closest<HTMLElement>('.row')! };

  $('wallet-name').textContent = wallet.name;
  wireBackupCard(unlocked);
  const receiveCard = wireReceiveCard();
  $('new-address').onclick = guard(addressesCard, async () => {
    wallet.createAddress('standard');
    await saveBrowserWallet(db, unlocked);
    renderAddresses();
    await refreshBalances();
    await subscribeAddresses();
  }, addressActions);
  $('refresh').onclick = guard(addressesCard, async () => {
    await refreshBalances();
    await renderHistory();
  }, addressActions);
  $('sign-form').onsubmit = guard($('sign-form'), async () => {
    const address = decodeAddress($<HTMLSelectElement>('sign-address').value, wallet.network.hrp);
    const type = $<HTMLSelectElement>('sign-type').value as MessageSignatureType;
    const signature = wallet.signMessage(address, $<HTMLTextAreaElement>('sign-message').value, type, browserRandomBytes(32));
    $('sign-result').textContent = `0x${toHex(signature)}`;
  });
  $('verify-form').onsubmit = guard($('verify-form'), async () => {
    let address;
    try {
      address = decodeAddress($<HTMLInputElement>('verify-address').value.trim(), wallet.network.hrp);
    } catch (error) {
      throw new FieldError('address', `address: not a ${wallet.network.hrp} address (${(error as Error).message})`, 'invalid_address');
    }
    const sigText = $<HTMLInputElement>('verify-signature').value.trim().replace(/^0x/, '');
    const signature = /^([0-9a-f]{2})+$/i.test(sigText) ? fromHex(sigText.toLowerCase()) : new Uint8Array(0);
    const valid = verifyMessage(address, $<HTMLTextAreaElement>('verify-message').value, signature, $<HTMLSelectElement>('verify-type').value as MessageSignatureType);
    $('verify-result').textContent = valid ? 'valid signature' : 'invalid signature';
  }, { fields: { address: 'verify-address' } });

  renderAddresses();
  // The private account scans on its own; each new block below scans again (private-card.ts).
  let privateCard: PrivateCard | undefined;
  void wirePrivateCard(link, light, db, unlocked).then((card) => (privateCard = card), (error) => ($('private-scan').textContent = `private account unavailable: ${(error as Error).message}`));
  // Subscribed to blocks before the first read: a block mined between that read and the subscription would
  // otherwise leave its balance off screen until the next block.
  void guard(addressesCard, async () => {
    unsubscribes.push(
      await link.subscribe('new_blocks', () => {
        // Spaced, but never dropped: a block inside the spacing schedules one refresh after it, so the last block
        // of a burst is always read (the send card's Available and Max depend on it).
        if (refreshQueued) return;
        refreshQueued = true;
        setTimeout(() => {
          refreshQueued = false;
          void refreshBalances().then(renderHistory);
          void privateCard?.refresh();
        }, Math.max(0, lastRefresh + refreshSpacingMs - Date.now()));
      }),
    );
    await refreshBalances();
    await renderHistory();
    await subscribeAddresses();
  }, addressActions)();
  return {
    close: () => {
      clearInterval(ageTimer);
      unsubscribes.forEach((u) => void u().catch(() => undefined));
    },
  };
}
