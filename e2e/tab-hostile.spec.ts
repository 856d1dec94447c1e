// Issue 34, the tab against a hostile page and a lying node (docs/web.md "Threat model"):
// - a page on another origin frames <node>/widget.html?node=<itself>&ws=…&p2p=…: the widget ignores the URL, talks
//   only to the node that served it and says which; the attacker's server receives no request at all;
// - the widget faded to opacity 0.01, or with its request partly covered by the page, takes no approval from a
//   click on Approve; shown again whole, the same request is approved by the user and paid;
// - wallet.html cannot be framed by another site (frame-ancestors 'none', X-Frame-Options DENY); widget.html can;
// - a man in the middle that changes get_info's chain id gets the wallet and the widget to refuse the node, and
//   nothing is signed.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Frame, type Page } from '@playwright/test';
import { showWidget, startEmbedShop, widgetFrame, type EmbedShop } from './helpers/embed-shop.ts';
import { startWalletTestNode, type WalletTestNode } from './helpers/wallet-node.ts';

interface AttackerSite {
  readonly url: string;
  /** Every request the attacker's server got, except for its own page (and the browser's favicon). */
  readonly received: string[];
  close(): void;
}

/** A hostile site on another 127.0.0.1 port: `/` is `html`; everything else it receives is recorded. */
async function startAttacker(html: (self: string) => string): Promise<AttackerSite> {
  const received: string[] = [];
  let self = '';
  const record = (req: IncomingMessage) => received.push(`${req.method} ${req.url}`);
  const server: Server = createServer((req, res) => {
    if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html(self));
    if (req.url === '/favicon.ico') return void res.writeHead(204).end();
    record(req);
    res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' }).end(JSON.stringify({ ws_port: (server.address() as AddressInfo).port, network: 'regtest' }));
  });
  server.on('upgrade', (req, socket) => {
    record(req);
    socket.destroy();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  self = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: self, received, close: () => void server.close() };
}

let node: WalletTestNode;
let shop: EmbedShop;
test.beforeAll(async () => {
  node = await startWalletTestNode();
  shop = await startEmbedShop();
});
test.afterAll(async () => {
  shop?.close();
  await node?.stop();
});

/** The frame of `page` whose URL contains `part`. */
async function frameWith(page: Page, part: string): Promise<Frame> {
  await expect.poll(() => page.frames().some((f) => f.url().includes(part))).toBe(true);
  return page.frames().find((f) => f.url().includes(part))!;
}

test('a page that frames the widget with ?node=<itself> gets no request: the widget talks to its own origin', async ({ page }) => {
  const nodeOrigin = new URL(node.url).origin;
  const attacker = await startAttacker((self) => {
    const query = `node=${encodeURIComponent(self)}&ws=${new URL(self).port}&p2p=${encodeURIComponent(`ws://127.0.0.1:${new URL(self).port}/p2p`)}`;
    return `<!doctype html><title>prize</title><iframe src="${nodeOrigin}/widget.html?${query}" style="width:600px;height:500px"></iframe>`;
  });
  try {
    const sockets: string[] = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));
    await page.goto(`${attacker.url}/`);
    const widget = await frameWith(page, '/widget.html');
    await expect(widget.getByRole('status').first()).toHaveText(`connected to ${new URL(node.url).host} · regtest`, { timeout: 30_000 });
    await expect(widget.getByRole('button', { name: 'Create wallet' })).toBeVisible();
    await expect(widget.getByLabel('Light node')).toHaveText(/light node: synced/, { timeout: 60_000 });
    expect(sockets.length).toBeGreaterThan(0);
    for (const url of sockets) expect(new URL(url).host).toBe(`127.0.0.1:${node.wsPort}`);
    expect(attacker.received).toEqual([]);
  } finally {
    attacker.close();
  }
});

test('wallet.html cannot be framed by another site; widget.html can, under the same strict policy', async ({ page }) => {
  const nodeOrigin = new URL(node.url).origin;
  const wallet = await fetch(`${nodeOrigin}/wallet.html`);
  expect(wallet.headers.get('x-frame-options')).toBe('DENY');
  expect(wallet.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  expect(wallet.headers.get('content-security-policy')).toContain("script-src 'self' 'wasm-unsafe-eval'");
  expect(wallet.headers.get('content-security-policy')).toContain(`connect-src 'self' ws://127.0.0.1:${node.wsPort} wss://127.0.0.1:${node.wsPort}`);
  expect(wallet.headers.get('x-content-type-options')).toBe('nosniff');
  expect(wallet.headers.get('referrer-policy')).toBe('no-referrer');
  const widgetPage = await fetch(`${nodeOrigin}/widget.html`);
  expect(widgetPage.headers.get('content-security-policy')).toContain('frame-ancestors *');
  expect(widgetPage.headers.get('content-security-policy')).toContain("script-src 'self' 'wasm-unsafe-eval'");
  expect(widgetPage.headers.get('x-frame-options')).toBeNull();

  const attacker = await startAttacker(() => `<!doctype html><title>framed</title><iframe id="w" src="${nodeOrigin}/wallet.html" style="width:800px;height:600px"></iframe>`);
  try {
    await page.goto(`${attacker.url}/`);
    const framed = page.frameLocator('#w');
    // The browser refuses to render it: the wallet's form never appears inside the attacker's page.
    await page.waitForTimeout(1_500);
    await expect(framed.getByRole('status').first()).toHaveCount(0);
    await expect(framed.locator('#setup')).toHaveCount(0);
  } finally {
    attacker.close();
  }
});

test('the widget faded or partly covered by the page takes no approval; shown whole, the user approves it', async ({ page }) => {
  test.setTimeout(240_000);
  const sent: string[] = [];
  await page.routeWebSocket(new RegExp(`:${node.wsPort}/$`), (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((message) => {
      const call = JSON.parse(String(message)) as { method?: string };
      if (call.method !== undefined) sent.push(call.method);
      server.send(message);
    });
  });
  await page.goto(shop.demoUrl(new URL(node.url).origin));
  const widget = await widgetFrame(page);
  await widget.getByLabel('New wallet password').fill('clickjack password');
  await widget.getByRole('button', { name: 'Create wallet' }).click();
  await expect(widget.getByLabel('Address')).toHaveText(/^rweft1/, { timeout: 30_000 });
  const widgetAddress = (await widget.getByLabel('Address').textContent())!;
  await node.rpc('start_mining', { miner_address: widgetAddress, threads: 1, gpu_mining: false });
  await expect.poll(async () => Number(await widget.getByLabel('Balance').textContent()), { timeout: 90_000 }).toBeGreaterThan(0.2);
  await node.rpc('stop_mining');
  const merchant = await node.rpc<{ address: string }>('create_address', {});

  // The hostile page fades the whole widget to 1% over its own "Claim prize" button, then asks for a payment.
  await page.evaluate(() => ((document.querySelector('weft-wallet') as HTMLElement).style.opacity = '0.01'));
  await page.getByLabel('Pay to').fill(merchant.address);
  await page.getByLabel('Amount (WEFT)').fill('0.1');
  await page.getByRole('button', { name: 'Request payment' }).click();
  await expect(widget.locator('#w-request-amount')).toHaveText('0.1');
  await showWidget(page);
  const approve = widget.getByRole('button', { name: 'Approve payment' });
  const clickApproveAsTheUser = async () => {
    const box = (await approve.boundingBox())!;
    await page.mouse.move(box.x + 2, box.y + 2);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 4 });
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  };
  await page.waitForTimeout(2_000); // far past the 800 ms delay
  await clickApproveAsTheUser();
  await page.waitForTimeout(1_000);
  await expect(approve).toBeDisabled();
  await expect(widget.locator('#w-request-check')).toHaveText(/only while this whole request is visible/);
  expect(sent).not.toContain('send_raw_transaction');
  await expect(page.getByRole('status')).toHaveText('waiting for approval in the wallet…');

  // Opaque again, but the page lays its own box over the amount and payee, leaving Approve itself uncovered: still
  // no approval from a click.
  const button = (await approve.boundingBox())!;
  await page.evaluate((buttonTop) => {
    const frame = document.querySelector('weft-wallet') as HTMLElement;
    frame.style.opacity = '1';
    const r = frame.getBoundingClientRect();
    const cover = document.createElement('div');
    cover.id = 'cover';
    cover.textContent = 'You won! Click Approve to claim your prize';
    cover.style.cssText = `position:fixed;left:${r.left}px;top:${r.top}px;width:${r.width}px;height:${buttonTop - r.top - 4}px;background:#fff;z-index:9`;
    document.body.append(cover);
  }, button.y);
  await page.waitForTimeout(2_000);
  await clickApproveAsTheUser();
  await page.waitForTimeout(1_000);
  await expect(approve).toBeDisabled();
  expect(sent).not.toContain('send_raw_transaction');
  await expect(page.getByRole('status')).toHaveText('waiting for approval in the wallet…');

  // Uncovered: the whole request is visible, the delay runs from now, and the user's click pays.
  await page.evaluate(() => document.getElementById('cover')!.remove());
  await expect(approve).toBeEnabled({ timeout: 10_000 });
  await expect(widget.locator('#w-request-check')).toHaveText('');
  await clickApproveAsTheUser();
  await expect(page.getByRole('status')).toHaveText(/^paid: 0x[0-9a-f]{64}$/, { timeout: 30_000 });
  expect(sent).toContain('send_raw_transaction');
});

/** Routes the page's JSON-RPC socket through a man in the middle that answers get_info with another chain id. */
async function lieAboutChainId(page: Page, sent: string[]): Promise<void> {
  await page.routeWebSocket(new RegExp(`:${node.wsPort}/$`), (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((message) => {
      const call = JSON.parse(String(message)) as { method?: string };
      if (call.method !== undefined) sent.push(call.method);
      server.send(message);
    });
    server.onMessage((message) => {
      const reply = JSON.parse(String(message)) as { result?: { chain_id?: number; network_id?: string } };
      if (reply.result?.network_id === 'regtest' && reply.result.chain_id !== undefined) reply.result.chain_id = 2; // testnet's
      ws.send(JSON.stringify(reply));
    });
  });
}

test('a man in the middle that changes get_info’s chain id is refused by the wallet and the widget; nothing is signed', async ({ page }) => {
  const sent: string[] = [];
  await lieAboutChainId(page, sent);
  await page.goto(new URL('wallet.html', node.url).href);
  await expect(page.getByRole('alert')).toHaveText(/refused the node: its get_info says chain id 2, but this page's network has chain id 1338; nothing will be signed/, { timeout: 30_000 });
  await expect(page.locator('#node-status')).toHaveText('not connected');
  await expect(page.locator('#setup')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Create wallet' })).toBeHidden();

  await page.goto(shop.demoUrl(new URL(node.url).origin));
  const widget = await widgetFrame(page);
  await expect(widget.getByRole('alert')).toHaveText(/refused the node: its get_info says chain id 2/, { timeout: 30_000 });
  await expect(widget.getByRole('button', { name: 'Create wallet' })).toBeHidden();
  expect(sent).toContain('get_info');
  expect(sent).not.toContain('send_raw_transaction');
});
