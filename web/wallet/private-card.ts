/**
 * The wallet page's confidential parts (docs/wallet.md "Confidential account"): the Receive card's Confidential choice
 * (the account's stealth address as text and QR code) and the Confidential account card (balance, history, send).
 * The account is stealth account 0 of the unlocked wallet (private-account.ts); scanning, signing and proving all
 * run in this tab.
 */
import { formatUnits } from '../../src/crypto/amount.ts';
import type { RpcClient } from '../lib/node-client.ts';
import type { LightNode } from '../light/light-node.ts';
import { proveInputsSpendable } from './private-proofs.ts';
import { drawAddressQr } from '../lib/address-qr.ts';
import { runForm } from './form-errors.ts';
import { openPrivateAccount, privateAccountOf, type PrivateAccount, type PrivateHistoryRow, type PrivateState } from './private-account.ts';
import { openPrivateDb, type PrivateDb } from './private-db.ts';
import { sendPrivately } from './private-send.ts';
import { privateBalance, privateHistory } from './private-summary.ts';
import { createPrivateProver } from './private-verify.ts';
import { scanProgressText } from './private-progress.ts';
import { scanStartOf } from './private-start.ts';
import type { WalletDb } from './wallet-db.ts';
import type { UnlockedWallet } from './wallet-keys.ts';
import { byId } from '../lib/dom.ts';

const shortHash = (hash: string): string => `${hash.slice(0, 10)}…${hash.slice(-6)}`;

function historyRow(row: PrivateHistoryRow): HTMLTableRowElement {
  const tr = document.createElement('tr');
  tr.dataset['hash'] = row.hash;
  const link = Object.assign(document.createElement('a'), { href: `./#/tx/0x${row.hash}`, textContent: shortHash(`0x${row.hash}`), title: `0x${row.hash}` });
  link.setAttribute('aria-label', `transaction 0x${row.hash}`);
  tr.insertCell().append(link);
  tr.insertCell().textContent = row.type;
  Object.assign(tr.insertCell(), { className: 'num', textContent: formatUnits(row.amount) });
  Object.assign(tr.insertCell(), { className: `status-${row.status}`, textContent: row.status });
  return tr;
}

/** Shows the private Receive choice: the standard parts of the card hide while the stealth address shows. */
function wireReceiveToggle(stealthAddress: string): void {
  const standard = byId('receive-standard');
  const hidden = byId('receive-private');
  byId('receive-private-text').textContent = stealthAddress;
  drawAddressQr(document.getElementById('receive-private-qr') as unknown as SVGSVGElement, stealthAddress);
  for (const radio of document.querySelectorAll<HTMLInputElement>('input[name="receive-kind"]')) {
    radio.onchange = () => {
      const priv = radio.value === 'private' && radio.checked;
      standard.hidden = priv;
      hidden.hidden = !priv;
    };
  }
  byId('receive-private-copy').onclick = async () => {
    try {
      await navigator.clipboard.writeText(stealthAddress);
      byId('receive-private-copied').textContent = 'Stealth address copied.';
    } catch {
      getSelection()?.selectAllChildren(byId('receive-private-text'));
      byId('receive-private-copied').textContent = 'The browser did not allow copying: the address is selected, copy it with your keyboard or menu.';
    }
  };
}

export interface PrivateCard {
  /** Scans new blocks (called on each new block; overlapping calls run once more after the current one). */
  refresh(): Promise<void>;
}

export async function wirePrivateCard(link: RpcClient, light: LightNode, walletDb: WalletDb, unlocked: UnlockedWallet): Promise<PrivateCard> {
  const { wallet } = unlocked;
  const stealth = await privateAccountOf(walletDb, unlocked);
  wireReceiveToggle(stealth.text);
  byId('private-address').textContent = stealth.text;
  const store: PrivateDb = await openPrivateDb();
  const prover = createPrivateProver(light.chain, link);
  const account: PrivateAccount = openPrivateAccount(link, store, wallet.name, stealth, unlocked.fresh === true, prover, scanStartOf(wallet.name));
  let latest: PrivateState | undefined;
  /** While a scan runs, its progress line stays (a render between blocks would hide it). */
  let scanning = false;
  byId('private-scan').textContent = 'scan starting: reading the node\'s tip…';

  const render = (state: PrivateState) => {
    latest = state;
    const balance = privateBalance(state, wallet.network.chainId);
    const unverified = balance.unverified > 0n ? `; ${formatUnits(balance.unverified)} unverified, not counted` : '';
    byId('private-balance').textContent = `${formatUnits(balance.total)} WEFT (${formatUnits(balance.spendable)} spendable now${balance.pendingOut > 0n ? `, ${formatUnits(balance.pendingOut)} leaving in a pending send` : ''}${unverified})`;
    if (!scanning) byId('private-scan').textContent = state.scannedHeight < 0 ? 'scan starting: reading the node\'s tip…' : `scanned through block ${state.scannedHeight}`;
    byId<HTMLTableElement>('private-history').tBodies[0]!.replaceChildren(...privateHistory(state).map(historyRow));
  };

  let running: Promise<void> | undefined;
  let again = false;
  const refresh = async (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          const startedMs = Date.now();
          scanning = true;
          const state = await account.refresh((progress) => (byId('private-scan').textContent = scanProgressText(progress, Date.now() - startedMs)));
          scanning = false;
          render(state);
        } while (again);
      } catch (error) {
        scanning = false;
        byId('private-scan').textContent = `scan stopped: ${(error as Error).message}`;
      } finally {
        running = undefined;
      }
    })();
    return running;
  };

  const form = byId<HTMLFormElement>('private-send-form');
  form.onsubmit = (event) => {
    event.preventDefault();
    void runForm(form, byId<HTMLButtonElement>('private-send'), async () => {
      byId('private-result').textContent = 'building the ring signature and range proof in this tab…';
      const state = latest ?? (await account.state());
      const sent = await sendPrivately(link, store, wallet.name, wallet.network, account, state, {
        to: byId<HTMLInputElement>('private-to').value,
        amount: byId<HTMLInputElement>('private-amount').value,
        fee: byId<HTMLInputElement>('private-fee').value,
      }, (inputs, decoys) => proveInputsSpendable(light.chain, link, inputs.map((i) => i.row), light.chain.selectedTip().header.daaScore + 1, wallet.network.chainId, decoys));
      byId('private-result').textContent = `sent ${sent.hash} (${sent.status}, ring of ${sent.ringSize})`;
      render(await account.state());
      return true;
    }, { to: 'private-to', amount: 'private-amount', fee: 'private-fee' }).then((done) => {
      if (done !== true) byId('private-result').textContent = '';
    });
  };

  render(await account.state());
  void refresh();
  return { refresh };
}
