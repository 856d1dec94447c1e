/**
 * widget.html, the iframe page behind <weft-wallet> (docs/widget.md). It runs on the node's origin, keeps the
 * wallet sealed in that origin's IndexedDB, runs its own light node and shows the balance with the status of a
 * proof checked against the headers that light node verified, and pays a request from the
 * embedding page only after the user approves it here. Messages are taken only from the parent window, from the
 * embedder's origin as the browser reports it, and answers go to that origin only (never "*").
 */
import { createNodeClient, discoverNodeUrls, type NodeClient } from '../lib/node-client.ts';
import { fetchVerifiedBalance } from '../light/verified-balance.ts';
import { describeLightNode, startLightNode, type LightNode } from '../light/light-node.ts';
import { createMemoryWalletDb, openWalletDb, type WalletDb } from '../wallet/wallet-db.ts';
import { createBrowserWallet, unlockBrowserWallet, type UnlockedWallet } from '../wallet/wallet-keys.ts';
import { sendFromTab } from '../wallet/wallet-send.ts';
import { walletDefaultFeeCoins } from '../wallet/wallet-web-limits.ts';
import { nodeNetwork } from '../wallet/wallet-network.ts';
import { parsePaymentRequest, widgetProtocol, type PaymentRequestMessage, type WidgetMessage } from './widget-protocol.ts';

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const widgetWalletName = 'widget';
/** The approve button arms only after the request has been on screen this long (a click meant for something else). */
const approveArmDelayMs = 800;

/** The embedder's origin as the browser states it (Chromium: ancestorOrigins), so a message from any other is ignored. */
const embedderOrigin: string | undefined = location.ancestorOrigins?.[0];

function reply(message: WidgetMessage, origin: string): void {
  if (window.parent !== window) window.parent.postMessage(message, origin);
}

function showError(error: unknown): void {
  $('error').textContent = error instanceof Error ? error.message : String(error);
}

function createRequestQueue(link: NodeClient, light: LightNode, getWallet: () => UnlockedWallet | undefined) {
  let current: { request: PaymentRequestMessage; origin: string } | undefined;
  const finish = (message: WidgetMessage) => {
    if (current) reply(message, current.origin);
    current = undefined;
    $('w-request').hidden = true;
  };
  const offer = (request: PaymentRequestMessage, origin: string) => {
    if (current) return reply({ weft: widgetProtocol, type: 'payment_error', id: request.id, code: 'busy', message: 'another payment is waiting for the user' }, origin);
    current = { request, origin };
    $('w-request-origin').textContent = origin;
    $('w-request-amount').textContent = request.amount;
    $('w-request-fee').textContent = String(walletDefaultFeeCoins);
    $('w-request-to').textContent = request.to;
    $('w-request').hidden = false;
    $('w-request').scrollIntoView({ block: 'start' });
    const approve = $<HTMLButtonElement>('w-approve');
    approve.disabled = true;
    setTimeout(() => (approve.disabled = getWallet() === undefined), approveArmDelayMs);
  };
  $('w-reject').onclick = () => current && finish({ weft: widgetProtocol, type: 'payment_error', id: current.request.id, code: 'rejected', message: 'the user rejected the payment' });
  $('w-approve').onclick = async () => {
    const unlocked = getWallet();
    if (!current || !unlocked) return;
    const { request } = current;
    $<HTMLButtonElement>('w-approve').disabled = true;
    try {
      const from = unlocked.wallet.addresses()[0]!.text;
      const sent = await sendFromTab(link, light.chain, unlocked.wallet, { from, to: request.to, amount: request.amount, fee: String(walletDefaultFeeCoins) }, 0);
      finish({ weft: widgetProtocol, type: 'payment_result', id: request.id, hash: sent.hash });
    } catch (error) {
      showError(error);
      finish({ weft: widgetProtocol, type: 'payment_error', id: request.id, code: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  };
  return { offer, armed: () => current !== undefined && ($<HTMLButtonElement>('w-approve').disabled = false) };
}

async function showBalance(link: NodeClient, light: LightNode, unlocked: UnlockedWallet): Promise<void> {
  const address = unlocked.wallet.addresses()[0]!.text;
  $('w-address').textContent = address;
  await light.synced();
  const result = await fetchVerifiedBalance(light.chain, link, address);
  const status = result.ok ? 'verified' : 'failed';
  $('w-balance').textContent = result.ok ? result.display : '—';
  $('w-proof').textContent = status;
  $('w-proof').className = status;
  $('w-proof').title = result.ok
    ? `state proof checked against verified header ${result.account.blockHash} (height ${result.account.blockHeight})`
    : `${result.error.reason}: ${result.error.message}`;
}

/** The node origin's IndexedDB, or memory when the browser blocks storage in third-party frames (said on screen). */
async function openWidgetDb(): Promise<WalletDb> {
  try {
    return await openWalletDb();
  } catch {
    $('w-storage').hidden = false;
    return createMemoryWalletDb();
  }
}

async function main(): Promise<void> {
  const urls = await discoverNodeUrls(location);
  const link = createNodeClient(urls.wsUrl);
  const [network, db] = await Promise.all([nodeNetwork(link), openWidgetDb()]);
  $('node-status').textContent = network.name;
  const light = await startLightNode({ network: network.name, p2pUrl: urls.p2pUrl });
  light.onStatus((s) => ($('w-light').textContent = describeLightNode(s)));
  let unlocked: UnlockedWallet | undefined;
  const queue = createRequestQueue(link, light, () => unlocked);
  // Status goes only to the embedder's origin; with neither ancestorOrigins nor a referrer it is not sent at all.
  const statusOrigin = embedderOrigin ?? (document.referrer ? new URL(document.referrer).origin : undefined);
  const status = (state: 'no_wallet' | 'locked' | 'ready') => statusOrigin && reply({ weft: widgetProtocol, type: 'status', state }, statusOrigin);

  window.addEventListener('message', (event) => {
    if (event.source !== window.parent || (embedderOrigin !== undefined && event.origin !== embedderOrigin)) return;
    const request = parsePaymentRequest(event.data);
    if (request) queue.offer(request, event.origin);
  });

  const opened = async (wallet: UnlockedWallet) => {
    unlocked = wallet;
    $('w-create').hidden = $('w-unlock').hidden = true;
    $('w-wallet').hidden = false;
    queue.armed();
    status('ready');
    await showBalance(link, light, wallet);
    await link.subscribe('new_blocks', () => void showBalance(link, light, wallet));
  };
  await setupForms(db, network, opened, status);
}

async function setupForms(
  db: WalletDb,
  network: Awaited<ReturnType<typeof nodeNetwork>>,
  opened: (wallet: UnlockedWallet) => Promise<void>,
  status: (state: 'no_wallet' | 'locked') => void,
): Promise<void> {
  const exists = (await db.loadKeystore(widgetWalletName)) !== undefined;
  $('w-create').hidden = exists;
  $('w-unlock').hidden = !exists;
  status(exists ? 'locked' : 'no_wallet');
  const run = (form: HTMLFormElement, work: () => Promise<UnlockedWallet>) => {
    form.onsubmit = (event) => {
      event.preventDefault();
      $('error').textContent = '';
      form.querySelector('button')!.disabled = true;
      work()
        .then(opened)
        .catch(showError)
        .finally(() => (form.querySelector('button')!.disabled = false));
    };
  };
  run($('w-create'), () => {
    const mnemonic = $<HTMLTextAreaElement>('w-create-mnemonic').value.trim();
    const options = { name: widgetWalletName, network, password: $<HTMLInputElement>('w-create-password').value };
    return createBrowserWallet(db, mnemonic ? { ...options, mnemonic } : options).then((unlocked) => {
      if (!mnemonic) {
        $('w-backup-words').textContent = unlocked.wallet.payload().mnemonic;
        $('w-backup').hidden = false;
      }
      return unlocked;
    });
  });
  run($('w-unlock'), () => unlockBrowserWallet(db, widgetWalletName, $<HTMLInputElement>('w-unlock-password').value, network));
}

void main().catch(showError);
