/**
 * widget.html, the iframe page behind <weft-wallet> (docs/widget.md). It runs on the node's origin, keeps the
 * wallet sealed in that origin's IndexedDB, runs its own light node and shows the balance with the status of a
 * proof checked against the headers that light node verified, and pays a request from the
 * embedding page only after the user approves it here. Messages are taken only from the parent window, from the
 * embedder's origin as the browser reports it, and answers go to that origin only (never "*").
 */
import { createNodeClient, discoverNodeUrls, type NodeClient } from '../lib/node-client.ts';
import { fetchVerifiedBalance, type VerifiedBalance } from '../light/verified-balance.ts';
import { describeLightNode, startLightNode, type LightNode } from '../light/light-node.ts';
import { createMemoryWalletDb, openWalletDb, type WalletDb } from '../wallet/wallet-db.ts';
import { createBrowserWallet, unlockBrowserWallet, type UnlockedWallet } from '../wallet/wallet-keys.ts';
import { sendFromTab } from '../wallet/wallet-send.ts';
import { walletDefaultFeeCoins } from '../wallet/wallet-web-limits.ts';
import { nodeNetwork } from '../wallet/wallet-network.ts';
import { checkPayment } from './payment-check.ts';
import { parseEscrowRequest, parsePaymentRequest, widgetProtocol, type PaymentRequestMessage, type WidgetMessage } from './widget-protocol.ts';
import { createEscrowOffers } from './escrow-request.ts';
import { ApproveGate, approveRefusalMessages, startApproveGate, tracksVisibility, watchApproveCard } from './approve-gate.ts';
import { byId } from '../lib/dom.ts';
import { apartMessage, embeddedCrossSite, preferredWallet } from './widget-wallets.ts';

const widgetWalletName = 'widget';
/**
 * The approve button arms only after the request has been fully visible this long (a click meant for something
 * else); the time starts over whenever its visibility changes (approve-gate.ts).
 */
const approveArmDelayMs = 800;

/** The embedder's origin as the browser states it (Chromium: ancestorOrigins), so a message from any other is ignored. */
const embedderOrigin: string | undefined = location.ancestorOrigins?.[0];

function reply(message: WidgetMessage, origin: string): void {
  if (window.parent !== window) window.parent.postMessage(message, origin);
}

function showError(error: unknown): void {
  byId('error').textContent = error instanceof Error ? error.message : String(error);
}
const clearError = (): void => void (byId('error').textContent = '');

/** What the request queue reads of the wallet: whether it is open, and its balance as last verified. */
interface WalletState {
  unlocked(): UnlockedWallet | undefined;
  balanceUnits(): bigint | undefined;
}

function createRequestQueue(link: NodeClient, light: LightNode, hrp: string, wallet: WalletState, othersBusy: () => boolean) {
  let current: { request: PaymentRequestMessage; origin: string } | undefined;
  const gate = new ApproveGate(approveArmDelayMs);
  const fee = String(walletDefaultFeeCoins);
  const finish = (message: WidgetMessage) => {
    if (current) reply(message, current.origin);
    current = undefined;
    byId('w-request').hidden = true;
  };
  /** Approve is enabled only for a payable request: fully visible long enough, wallet open, payee valid, verified funds enough. */
  const evaluate = () => {
    if (!current) return;
    const check = checkPayment({ request: current.request, hrp, fee, unlocked: wallet.unlocked() !== undefined, balanceUnits: wallet.balanceUnits() });
    byId<HTMLButtonElement>('w-approve').disabled = !gate.enabled(performance.now()) || !check.ok;
    byId('w-request-check').textContent = !check.ok ? check.message : gate.visible() ? '' : approveRefusalMessages.hidden;
    byId('w-request-check').className = check.ok || check.problem === 'checking' || check.problem === 'locked' ? 'muted' : 'error';
  };
  const offer = (request: PaymentRequestMessage, origin: string) => {
    if (current || othersBusy()) return reply({ weft: widgetProtocol, type: 'payment_error', id: request.id, code: 'busy', message: 'another payment is waiting for the user' }, origin);
    current = { request, origin };
    clearError(); // an earlier request's failure is not this one's
    byId('w-request-origin').textContent = origin;
    byId('w-request-amount').textContent = request.amount;
    byId('w-request-fee').textContent = fee;
    byId('w-request-to').textContent = request.to;
    byId('w-request-memo').textContent = request.memo ?? '';
    byId('w-request-memo-row').hidden = request.memo === undefined;
    byId('w-request').hidden = false;
    byId('w-request').scrollIntoView({ block: 'start' });
    startApproveGate(gate, evaluate);
    evaluate();
  };
  watchApproveCard(byId('w-request'), byId<HTMLButtonElement>('w-approve'), gate, evaluate);
  byId('w-reject').onclick = () => current && finish({ weft: widgetProtocol, type: 'payment_error', id: current.request.id, code: 'rejected', message: 'the user rejected the payment' });
  byId('w-approve').onclick = async () => {
    const unlocked = wallet.unlocked();
    if (!current || !unlocked) return;
    const verdict = gate.approve(performance.now());
    if (!verdict.ok) {
      byId('w-request-check').textContent = approveRefusalMessages[verdict.refusal];
      return;
    }
    const { request } = current;
    byId<HTMLButtonElement>('w-approve').disabled = true;
    try {
      const from = unlocked.wallet.addresses()[0]!.text;
      const sent = await sendFromTab(link, light.chain, unlocked.wallet, { from, to: request.to, amount: request.amount, fee, ...(request.memo === undefined ? {} : { memo: request.memo }) }, 0);
      clearError();
      finish({ weft: widgetProtocol, type: 'payment_result', id: request.id, hash: sent.hash });
    } catch (error) {
      showError(error);
      finish({ weft: widgetProtocol, type: 'payment_error', id: request.id, code: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  };
  return { offer, evaluate, busy: () => current !== undefined };
}

/** Reads an address's balance, proven against the tab's verified headers once they reach the node's tip. */
async function readBalance(link: NodeClient, light: LightNode, address: string): Promise<VerifiedBalance> {
  await light.synced();
  return fetchVerifiedBalance(light.chain, link, address);
}

/** Shows a balance read; answers the balance in units when its proof checked out. */
function showBalance(result: VerifiedBalance): bigint | undefined {
  const status = result.ok ? 'verified' : 'failed';
  byId('w-balance').textContent = result.ok ? result.display : '—';
  byId('w-proof').textContent = status;
  byId('w-proof').className = status;
  byId('w-proof').title = result.ok
    ? `state proof checked against verified header ${result.account.blockHash} (height ${result.account.blockHeight})`
    : `${result.error.reason}: ${result.error.message}`;
  return result.ok ? result.account.balance : undefined;
}

/** The node origin's IndexedDB, or memory when the browser blocks storage in third-party frames (said on screen). */
async function openWidgetDb(): Promise<WalletDb> {
  try {
    return await openWalletDb();
  } catch {
    byId('w-storage').hidden = false;
    return createMemoryWalletDb();
  }
}

async function main(): Promise<void> {
  const urls = await discoverNodeUrls(location);
  const link = createNodeClient(urls.wsUrl);
  const [network, db] = await Promise.all([nodeNetwork(link, urls.network), openWidgetDb()]);
  // Which node: always the origin this frame was served from (node-client.ts), whatever its URL says.
  byId('node-status').textContent = `connected to ${urls.host} · ${network.name}`;
  byId('node-status').title = 'This wallet talks only to the node that served it and signs for the chain id built into this network. '
    + 'Balances are proven against headers it verified itself; what the node relays is its word.';
  byId('w-visibility-note').hidden = tracksVisibility();
  const light = await startLightNode({ params: network.params, p2pUrl: urls.p2pUrl });
  light.onStatus((s) => (byId('w-light').textContent = describeLightNode(s)));
  let unlocked: UnlockedWallet | undefined;
  let balanceUnits: bigint | undefined;
  const walletState = { unlocked: () => unlocked, balanceUnits: () => balanceUnits };
  const queue = createRequestQueue(link, light, network.hrp, walletState, () => escrows.busy());
  const escrows = createEscrowOffers({
    link, light, hrp: network.hrp, fee: String(walletDefaultFeeCoins), armDelayMs: approveArmDelayMs, wallet: walletState, othersBusy: () => queue.busy(), reply, showError,
  });
  // Status goes only to the embedder's origin; with neither ancestorOrigins nor a referrer it is not sent at all.
  const statusOrigin = embedderOrigin ?? (document.referrer ? new URL(document.referrer).origin : undefined);
  const status = (state: 'no_wallet' | 'locked' | 'ready') => statusOrigin && reply({ weft: widgetProtocol, type: 'status', state }, statusOrigin);

  window.addEventListener('message', (event) => {
    if (event.source !== window.parent || (embedderOrigin !== undefined && event.origin !== embedderOrigin)) return;
    const request = parsePaymentRequest(event.data);
    if (request) return queue.offer(request, event.origin);
    const escrow = parseEscrowRequest(event.data);
    if (escrow === undefined) return;
    if ('invalid' in escrow) reply({ weft: widgetProtocol, type: 'payment_error', id: escrow.id, code: 'invalid_request', message: escrow.invalid }, event.origin);
    else escrows.offer(escrow, event.origin);
  });

  const opened = async (wallet: UnlockedWallet) => {
    unlocked = wallet;
    byId('w-create').hidden = byId('w-unlock').hidden = true;
    byId('w-wallet').hidden = false;
    queue.evaluate();
    escrows.evaluate();
    status('ready');
    const address = wallet.wallet.addresses()[0]!.text;
    byId('w-address').textContent = address;
    // The newest read wins: an older proof still waiting for its header must not land after a newer one.
    let reads = 0;
    const refresh = async () => {
      const read = ++reads;
      const result = await readBalance(link, light, address);
      if (read !== reads) return;
      balanceUnits = showBalance(result);
      queue.evaluate();
      escrows.evaluate();
    };
    // Subscribed before the first read, so a block mined in between is read too.
    await link.subscribe('new_blocks', () => void refresh());
    await refresh();
  };
  await setupForms(db, network, opened, status);
}

async function setupForms(
  db: WalletDb,
  network: Awaited<ReturnType<typeof nodeNetwork>>,
  opened: (wallet: UnlockedWallet) => Promise<void>,
  status: (state: 'no_wallet' | 'locked') => void,
): Promise<void> {
  // Every wallet this browser keeps for the node's origin, the wallet page's included (widget-wallets.ts).
  const names = await db.keystoreNames();
  const exists = names.length > 0;
  const select = byId<HTMLSelectElement>('w-unlock-name');
  select.replaceChildren(...names.map((name) => new Option(name, name)));
  select.value = preferredWallet(names, widgetWalletName) ?? '';
  byId('w-create').hidden = exists;
  byId('w-unlock').hidden = !exists;
  if (!exists && embedderOrigin !== undefined && embeddedCrossSite(location.origin, embedderOrigin)) {
    byId('w-apart').textContent = apartMessage(location.origin, embedderOrigin);
    byId('w-apart').hidden = false;
  }
  status(exists ? 'locked' : 'no_wallet');
  const run = (form: HTMLFormElement, work: () => Promise<UnlockedWallet>) => {
    form.onsubmit = (event) => {
      event.preventDefault();
      byId('error').textContent = '';
      form.querySelector('button')!.disabled = true;
      work()
        .then(opened)
        .catch(showError)
        .finally(() => (form.querySelector('button')!.disabled = false));
    };
  };
  run(byId('w-create'), () => {
    const mnemonic = byId<HTMLTextAreaElement>('w-create-mnemonic').value.trim();
    const options = { name: widgetWalletName, network, password: byId<HTMLInputElement>('w-create-password').value };
    return createBrowserWallet(db, mnemonic ? { ...options, mnemonic } : options).then((unlocked) => {
      if (!mnemonic) {
        byId('w-backup-words').textContent = unlocked.wallet.payload().mnemonic;
        byId('w-backup').hidden = false;
      }
      return unlocked;
    });
  });
  run(byId('w-unlock'), () => unlockBrowserWallet(db, select.value, byId<HTMLInputElement>('w-unlock-password').value, network));
}

void main().catch(showError);
