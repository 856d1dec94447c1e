/**
 * The wallet page (web/wallet.html): connects to the node, shows its forms, starts the tab's light node once they
 * are drawn (balances are checked against headers it verified), then either unlocks a sealed wallet from IndexedDB or creates / imports one
 * (wallet-create.ts: a new phrase confirmed word by word, a restored phrase, or a backup file), and hands the unlocked wallet to wallet-view.ts. Keys exist in this tab's memory only while unlocked;
 * "Lock" reloads the page, dropping them.
 */
import type { NetworkParams } from '../../src/consensus/params.ts';
import type { WalletNetwork } from '../../src/wallet/wallet.ts';
import { createNodeClient, discoverNodeUrls, retryWhileDisconnected, type NodeClient } from '../lib/node-client.ts';
import type { LightNode } from '../light/light-node.ts';
import { openWalletDb, type WalletDb } from './wallet-db.ts';
import type { UnlockedWallet } from './wallet-keys.ts';
import { FieldError, runForm } from './form-errors.ts';
import { byId } from '../lib/dom.ts';
import { afterDrawnAndIdle } from '../lib/idle.ts';

/** The light node starts once the page is idle, or after this long if it never is. */
const lightStartWaitMsMax = 2_000;

/** What the status line's host means, said where it is shown (docs/web.md "Threat model"). */
const nodeTrustNote = 'This page talks only to the node that served it. It signs for the chain id built into this network, never one the node names; '
  + 'balances are proven against headers this tab verified itself. Pending transactions, fees and what the node relays are its word.';

/** A wrong password is an error about the password field (the keystore says "passphrase"). */
function asPasswordError(error: unknown): unknown {
  return error instanceof Error && /passphrase|password/i.test(error.message) && !(error instanceof FieldError) ? new FieldError('password', error.message) : error;
}

/**
 * The forms' code (keys, keystore, recovery phrases: curves and hashes) loads once the node has answered, after the
 * page's first paint, and the forms show once it has: nothing can be submitted before it is wired (issue 32).
 */
async function setup(link: NodeClient, light: Promise<LightNode>, db: WalletDb, network: WalletNetwork): Promise<void> {
  const [names, { unlockBrowserWallet }, { wireCreateForm }] = await Promise.all([db.keystoreNames(), import('./wallet-keys.ts'), import('./wallet-create.ts')]);
  const unlockForm = byId<HTMLFormElement>('unlock-form');
  unlockForm.hidden = names.length === 0;
  byId<HTMLSelectElement>('unlock-name').replaceChildren(...names.map((n) => new Option(n, n)));
  byId('setup').hidden = false;

  const open = (unlocked: UnlockedWallet) => {
    byId('setup').hidden = true;
    byId('wallet').hidden = false;
    byId('wallet-title').focus();
    // The wallet's views (sending, escrows, the confidential account) load when a wallet opens, not with the forms.
    void Promise.all([light, import('./wallet-view.ts')]).then(([node, { showWallet }]) => showWallet(link, node, db, unlocked), showError);
  };
  unlockForm.onsubmit = (event) => {
    event.preventDefault();
    void runForm(unlockForm, unlockForm.querySelector('button')!, async () => {
      try {
        open(await unlockBrowserWallet(db, byId<HTMLSelectElement>('unlock-name').value, byId<HTMLInputElement>('unlock-password').value, network));
      } catch (error) {
        throw asPasswordError(error);
      }
    }, { password: 'unlock-password' });
  };
  wireCreateForm(db, network, open);
  byId('lock').onclick = () => location.reload();
}

async function main(): Promise<void> {
  try {
    const urls = await discoverNodeUrls(location, { onUnreachable: (ms) => (byId('node-status').textContent = `node unreachable, retrying in ${Math.ceil(ms / 1000)} s`) });
    const link = createNodeClient(urls.wsUrl);
    let connected = 'connecting to the node…';
    // The status line follows the connection (issue 21): a dropped node is said so, and the client reconnects.
    link.onState((state) => {
      byId('node-status').textContent = state === 'open' ? connected : state === 'closed' ? 'node unreachable, reconnecting…' : 'connecting to the node…';
    });
    // The network's parameters (its genesis header, hashed) load after the first paint, like the forms' code.
    const { nodeNetwork } = await import('./wallet-network.ts');
    const network = await retryWhileDisconnected(link, () => nodeNetwork(link, urls.network));
    // The host is the page's own origin (node-client.ts): nothing in the URL can point the wallet elsewhere.
    connected = `connected to ${urls.host} · ${network.name} (chain ${network.chainId})`;
    if (link.state() === 'open') byId('node-status').textContent = connected;
    byId('node-status').title = nodeTrustNote;
    // The forms first; the light node once they are drawn (web/lib/idle.ts). Unlocking waits for it.
    const light = startLight(network.params, urls.p2pUrl);
    light.catch(showError);
    await setup(link, light, await openWalletDb(), network);
  } catch (error) {
    byId('node-status').textContent = 'not connected';
    showError(error);
  }
}

/** The light node's module loads and it starts once the forms are drawn and the page is idle (web/lib/idle.ts). */
async function startLight(params: NetworkParams, p2pUrl: string): Promise<LightNode> {
  await afterDrawnAndIdle(lightStartWaitMsMax);
  const { describeLightNode, startLightNode } = await import('../light/light-node.ts');
  const node = await startLightNode({ params, p2pUrl });
  node.onStatus((s) => (byId('light-status').textContent = describeLightNode(s)));
  return node;
}

function showError(error: unknown): void {
  byId('error').hidden = false;
  byId('error').textContent = error instanceof Error ? error.message : String(error);
}

void main();
