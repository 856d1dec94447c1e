// The embeddable <weft-wallet>: a shop page on another origin includes weft-wallet.js and asks for a payment; the
// widget (an iframe of the real node's origin, keys in that origin's IndexedDB) shows the request with the shop's
// origin, the user approves it there, the page gets the transaction hash and the node confirms the transaction.
import { expect, test } from '@playwright/test';
import { decodeTransaction } from '../src/kinds/transaction-codec.ts';
import { fromHex } from '../src/util/bytes.ts';
import { approveInWidget, showWidget, startEmbedShop, widgetFrame, type EmbedShop } from './helpers/embed-shop.ts';
import { startWalletTestNode, type WalletTestNode } from './helpers/wallet-node.ts';

let node: WalletTestNode;
let shop: EmbedShop;
let shopUrl: string;

test.beforeAll(async () => {
  node = await startWalletTestNode();
  shop = await startEmbedShop();
  shopUrl = shop.url;
});

test.afterAll(async () => {
  shop?.close();
  await node?.stop();
});

test('a page on another origin requests a payment; approving it in the widget pays it', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const nodeOrigin = new URL(node.url).origin;
  await page.goto(`${shopUrl}/embed-demo.html?node=${encodeURIComponent(nodeOrigin)}&script=${encodeURIComponent(`${nodeOrigin}/weft-wallet.js`)}`);
  const widget = await widgetFrame(page);
  expect(new URL(widget.url()).origin).toBe(nodeOrigin);

  await widget.getByLabel('New wallet password').fill('widget password 1');
  await widget.getByRole('button', { name: 'Create wallet' }).click();
  await expect(widget.getByLabel('Address')).toHaveText(/^rweft1/, { timeout: 30_000 });
  const widgetAddress = (await widget.getByLabel('Address').textContent())!;
  await expect.poll(() => page.evaluate(() => (document.querySelector('weft-wallet') as unknown as { state: string }).state)).toBe('ready');
  // The page cannot read the widget's address or storage: the element exposes neither.
  expect(await page.evaluate(() => document.querySelector('weft-wallet')!.shadowRoot)).toBeNull();

  await node.rpc('start_mining', { miner_address: widgetAddress, threads: 1, gpu_mining: false });
  await expect(widget.getByLabel('Proof status')).toHaveText('verified', { timeout: 60_000 });
  await expect.poll(async () => Number(await widget.getByLabel('Balance').textContent()), { timeout: 60_000 }).toBeGreaterThan(0.2);
  // The widget runs its own light node: the proof was checked against a header it verified itself.
  await expect(widget.getByLabel('Proof status')).toHaveAttribute('title', /verified header 0x[0-9a-f]{64}/);
  await expect(widget.getByLabel('Light node')).toHaveText(/light node: synced, [\d,]+ headers verified/);

  const merchant = await node.rpc<{ address: string }>('create_address', {});
  // A request the user rejects is reported to the page as not paid.
  await page.getByLabel('Pay to').fill(merchant.address);
  await page.getByLabel('Amount (WEFT)').fill('9');
  await page.getByRole('button', { name: 'Request payment' }).click();
  await expect(widget.getByRole('heading', { name: 'Payment request' })).toBeVisible();
  await widget.getByRole('button', { name: 'Reject' }).click();
  await expect(page.getByRole('status')).toHaveText('not paid: the user rejected the payment');

  await page.getByLabel('Amount (WEFT)').fill('0.125');
  await page.getByRole('button', { name: 'Request payment' }).click();
  await expect(widget.locator('#w-request-origin')).toHaveText(shopUrl);
  await expect(widget.locator('#w-request-amount')).toHaveText('0.125');
  await expect(widget.locator('#w-request-to')).toHaveText(merchant.address);
  await page.screenshot({ path: testInfo.outputPath('widget-request.png'), fullPage: true });
  await showWidget(page);
  await approveInWidget(page, widget.getByRole('button', { name: 'Approve payment' }));
  await expect(page.getByRole('status')).toHaveText(/^paid: 0x[0-9a-f]{64}$/, { timeout: 30_000 });
  const hash = (await page.getByRole('status').textContent())!.slice('paid: '.length);

  await expect.poll(async () => (await node.rpc<{ status: string }>('get_transaction', { hash })).status, { timeout: 60_000 }).toMatch(/confirmed|final/);
  const paid = await node.rpc<{ from: string; to: string; amount: number }>('get_transaction', { hash });
  expect(paid).toMatchObject({ from: widgetAddress, to: merchant.address, amount: 0.125 });
  const proof = await node.rpc<{ account: { balance: number } }>('get_proof', { address: merchant.address });
  expect(proof.account.balance).toBe(0.125);
  await node.rpc('stop_mining');
  await page.screenshot({ path: testInfo.outputPath('widget-paid.png'), fullPage: true });
});

test('the widget ignores payment requests that do not come from its embedding page', async ({ page }) => {
  const nodeOrigin = new URL(node.url).origin;
  // Another window (a popup the shop opens on the node's status page) posts a request to the widget frame: ignored.
  await page.goto(`${shopUrl}/embed-demo.html?node=${encodeURIComponent(nodeOrigin)}&script=${encodeURIComponent(`${nodeOrigin}/weft-wallet.js`)}`);
  const widget = await widgetFrame(page);
  await expect(widget.getByRole('button', { name: 'Create wallet' })).toBeVisible();
  await widget.evaluate(() => {
    // From inside the frame itself (not its parent): the source check must drop it.
    window.postMessage({ weft: 'widget/v1', type: 'request_payment', id: 1, to: 'rweft1x', amount: '1' }, '*');
  });
  await page.waitForTimeout(500);
  await expect(widget.getByRole('heading', { name: 'Payment request' })).toBeHidden();
  // The same request from the parent page is shown.
  await page.evaluate(() => void (document.querySelector('weft-wallet') as unknown as { requestPayment(r: object): Promise<string> }).requestPayment({ to: 'rweft1x', amount: 1 }).catch(() => undefined));
  await expect(widget.getByRole('heading', { name: 'Payment request' })).toBeVisible();
});

test('Approve waits for funds, a failed approval’s error goes once a retry pays, and the memo is shown and paid', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const nodeOrigin = new URL(node.url).origin;
  // The node refuses the widget's first send_raw_transaction (as a node under load might); later ones pass.
  let refuseNextSend = true;
  await page.routeWebSocket(new RegExp(`:${node.wsPort}/$`), (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((message) => {
      const call = JSON.parse(String(message)) as { id?: number; method?: string };
      if (call.method === 'send_raw_transaction' && refuseNextSend) {
        refuseNextSend = false;
        ws.send(JSON.stringify({ jsonrpc: '2.0', id: call.id, error: { code: -40003, message: 'Transaction rejected: the mempool is full' } }));
        return;
      }
      server.send(message);
    });
  });
  await page.goto(`${shopUrl}/embed-demo.html?node=${encodeURIComponent(nodeOrigin)}&script=${encodeURIComponent(`${nodeOrigin}/weft-wallet.js`)}`);
  const widget = await widgetFrame(page);
  await widget.getByLabel('New wallet password').fill('widget password 2');
  await widget.getByRole('button', { name: 'Create wallet' }).click();
  await expect(widget.getByLabel('Proof status')).toHaveText('verified', { timeout: 30_000 });
  const widgetAddress = (await widget.getByLabel('Address').textContent())!;
  const merchant = await node.rpc<{ address: string }>('create_address', {});

  // No funds: the request is shown, Approve stays disabled and the widget says why.
  await page.getByLabel('Pay to').fill(merchant.address);
  await page.getByLabel('Amount (WEFT)').fill('0.15');
  await page.getByLabel('Memo (optional)').fill('order #42');
  await page.getByRole('button', { name: 'Request payment' }).click();
  await expect(widget.getByRole('heading', { name: 'Payment request' })).toBeVisible();
  await expect(widget.locator('#w-request-memo')).toHaveText('order #42');
  await expect(widget.locator('#w-request-check')).toHaveText(/^Insufficient funds: your verified balance is 0 WEFT, this payment needs 0\.16 WEFT/);
  await expect(widget.getByRole('button', { name: 'Approve payment' })).toBeDisabled();
  await page.screenshot({ path: testInfo.outputPath('widget-no-funds.png'), fullPage: true });
  await showWidget(page);

  // Funds arrive while the request waits: Approve is enabled by itself.
  await node.rpc('start_mining', { miner_address: widgetAddress, threads: 1, gpu_mining: false });
  await expect(widget.getByRole('button', { name: 'Approve payment' })).toBeEnabled({ timeout: 60_000 });
  await node.rpc('stop_mining');
  await expect(widget.locator('#w-request-check')).toHaveText('');

  // The node refuses the first approval: the error is shown and the page is told.
  await approveInWidget(page, widget.getByRole('button', { name: 'Approve payment' }));
  await expect(page.getByRole('status')).toHaveText(/^not paid: .*the mempool is full/, { timeout: 30_000 });
  await expect(widget.getByRole('alert')).toContainText('the mempool is full');

  // The shop retries; it is paid, and the earlier error is gone.
  await page.getByRole('button', { name: 'Request payment' }).click();
  await approveInWidget(page, widget.getByRole('button', { name: 'Approve payment' }));
  await expect(page.getByRole('status')).toHaveText(/^paid: 0x[0-9a-f]{64}$/, { timeout: 30_000 });
  await expect(widget.getByRole('alert')).toHaveText('');
  const hash = (await page.getByRole('status').textContent())!.slice('paid: '.length);

  // The memo is in the signed transaction the node holds.
  await node.rpc('start_mining', { miner_address: widgetAddress, threads: 1, gpu_mining: false });
  await expect.poll(async () => (await node.rpc<{ status: string }>('get_transaction', { hash })).status, { timeout: 60_000 }).toMatch(/confirmed|final/);
  await node.rpc('stop_mining');
  const proof = await node.rpc<{ transaction: string }>('get_transaction_proof', { hash });
  const tx = decodeTransaction(fromHex(proof.transaction.slice(2))) as { memo?: Uint8Array };
  expect(new TextDecoder().decode(tx.memo)).toBe('order #42');
});
