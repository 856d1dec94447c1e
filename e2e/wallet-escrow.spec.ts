// Escrows from the browser (issue 15, web part) against one real regtest node whose agent account was created with
// the node wallet's create_agent_account. The wallet page, funded by blocks mined from here, refuses an address with
// no agent account beside the field, reviews the escrow (agent proven, timeout as a DAA score, escrow id) before
// signing escrow_create in the tab, lists it EscrowLocked (proven against its own headers, and so says the node's
// get_escrow) with Reclaim disabled and the reason beside it; once the timeout is mined past, Reclaim signs
// escrow_reclaim in the tab and the escrow ends Refunded with the balance back less the two fees. On a phone and a
// desktop, with no serious axe-core violation and no console error. Then a shop page on another origin asks the
// <weft-wallet> widget for an escrow: one for an address with no agent account is answered agent_unknown without
// asking the user; the user approves the other, and the page gets the escrow id the node then holds EscrowLocked.
import { expect, test, type Page } from '@playwright/test';
import { formatUnits } from '../src/crypto/amount.ts';
import { blake3 } from '../src/crypto/blake3.ts';
import { toHash0x } from '../src/util/bytes.ts';
import { parseCoinText } from '../web/wallet/send-check.ts';
import { approveInWidget, showWidget, startEmbedShop, widgetFrame, type EmbedShop } from './helpers/embed-shop.ts';
import { mineOneBlock } from './helpers/submit-block.ts';
import { startWalletTestNode, type WalletTestNode } from './helpers/wallet-node.ts';
import { collectConsoleErrors, createWalletInPage, openView, seriousA11yViolations, walletViewports } from './helpers/wallet-page.ts';

interface EscrowAnswer {
  exists: boolean;
  daa_score: number;
  escrow: { status: string; client: string; agent_account: string; amount_exact: string; task_hash: string; timeout_daa_score: number; timed_out: boolean } | null;
}

let node: WalletTestNode;
let shop: EmbedShop;
/** The agent account (a node-wallet address) and a node-wallet address with no agent account that mines the rest. */
let agent: string;
let miner: string;

const mine = async (to: string, blocks = 1) => {
  for (let i = 0; i < blocks; i++) await mineOneBlock(node.url.replace(/\/$/, ''), node.apiKey, to);
};
const units = (coins: string) => parseCoinText(coins, 'coins', true);
/** The node's proven balance of `address` in units (get_proof answers coins as a number with ≤ 8 decimals). */
const balanceUnits = async (address: string) => units((await node.rpc<{ account: { balance: number } }>('get_proof', { address })).account.balance.toFixed(8));
const escrowOnNode = (id: string) => node.rpc<EscrowAnswer>('get_escrow', { escrow_id: id });

test.beforeAll(async () => {
  node = await startWalletTestNode();
  shop = await startEmbedShop();
  agent = (await node.rpc<{ address: string }>('create_address')).address;
  miner = (await node.rpc<{ address: string }>('create_address')).address;
  await mine(agent, 2);
  await mine(miner, 1);
  await node.rpc('create_agent_account', { agent_account: agent });
  await mine(miner, 2);
  await expect.poll(async () => (await node.rpc<{ exists: boolean }>('get_agent_account', { agent_account: agent })).exists, { timeout: 10_000 }).toBe(true);
});
test.afterAll(async () => {
  shop?.close();
  await node?.stop();
});

/** Mines to `address` until the page's verified balance of it is the node's proven one and above zero. */
async function fund(page: Page, address: string): Promise<bigint> {
  await mine(address, 3);
  await mine(miner, 2);
  const expected = await balanceUnits(address);
  expect(expected).toBeGreaterThan(units('0.1'));
  await expect(page.locator('#escrow-available')).toHaveText(`Available: ${formatUnits(expected)} WEFT (verified)`, { timeout: 30_000 });
  return expected;
}

for (const viewport of walletViewports) {
  test(`escrow on a ${viewport.name}: create for an agent account, locked, reclaimed after the timeout`, async ({ browser }, testInfo) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
    const page = await context.newPage();
    const consoleErrors = collectConsoleErrors(page);
    await page.goto(new URL('wallet.html', node.url).href);
    await createWalletInPage(page, { name: `escrow-${viewport.name}`, password: 'escrow password' });
    const client = (await page.getByRole('table', { name: 'Addresses and verified balances' }).locator('tbody tr').first().getAttribute('data-address'))!;
    const funded = await fund(page, client);

    await openView(page, 'Escrow');
    const form = page.locator('#escrow-form');
    // An address with no agent account: refused beside the field once the review proves it, nothing signed.
    await form.getByLabel('Agent account').fill(miner);
    await form.getByLabel('Amount (WEFT)').fill('0.05');
    await form.getByLabel('Task id (text, or its 0x… 32-byte hash)').fill('e2e task');
    await form.getByLabel('Timeout (blocks from now)').fill('2');
    await expect(page.locator('#escrow-timeout-error')).toHaveText('timeout: from 4 to 31536000 blocks, got 2');
    await form.getByLabel('Timeout (blocks from now)').fill('5');
    await form.getByRole('button', { name: 'Review escrow' }).click();
    await expect(page.locator('#escrow-agent-error')).toHaveText(/^agent: no agent account at this address \(verified\)/, { timeout: 30_000 });
    await expect(form.getByLabel('Agent account')).toHaveAttribute('aria-invalid', 'true');

    await form.getByLabel('Agent account').fill(agent);
    await form.getByRole('button', { name: 'Review escrow' }).click();
    const review = page.getByRole('region', { name: 'Review escrow before signing' });
    await expect(review).toBeVisible({ timeout: 30_000 });
    await expect(page.locator('#er-agent')).toHaveText(agent);
    await expect(page.locator('#er-amount')).toHaveText('0.05 WEFT');
    await expect(page.locator('#er-total')).toHaveText('0.06 WEFT');
    await expect(page.locator('#er-task')).toContainText(toHash0x(blake3(new TextEncoder().encode('e2e task'))));
    await expect(page.locator('#er-timeout')).toHaveText(/^DAA score \d+ — 5 blocks after the verified tip/);
    const escrowId = (await page.locator('#er-id').textContent())!;
    expect(escrowId).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath(`escrow-review-${viewport.name}.png`), fullPage: true });
    await review.getByRole('button', { name: 'Sign and lock' }).click();
    await expect(page.locator('#escrow-result')).toHaveText(new RegExp(`^escrow ${escrowId} sent in 0x[0-9a-f]{64} \\(pending\\)$`), { timeout: 30_000 });

    // In a block: EscrowLocked, proven by the tab and so read on the node; Reclaim waits for the timeout and says why.
    await mine(miner, 2);
    const row = page.getByRole('table', { name: 'Your escrows' }).locator(`tr[data-escrow-id="${escrowId}"]`);
    await expect(row.locator('td').nth(3)).toHaveText('EscrowLocked', { timeout: 30_000 });
    await expect(row.locator('td').nth(3)).toHaveAttribute('title', /proven against verified block 0x[0-9a-f]{64}/);
    const reclaim = row.getByRole('button', { name: `Reclaim escrow ${escrowId}` });
    await expect(reclaim).toBeDisabled();
    await expect(reclaim).toHaveAccessibleDescription(/^times out at DAA score \d+, \d+ blocks? from now/);
    const locked = await escrowOnNode(escrowId);
    expect(locked.escrow).toMatchObject({ status: 'EscrowLocked', client, agent_account: agent, amount_exact: '0.05', timed_out: false });
    expect(locked.escrow!.task_hash).toBe(toHash0x(blake3(new TextEncoder().encode('e2e task'))));
    expect(await seriousA11yViolations(page)).toEqual([]);

    while (!(await escrowOnNode(escrowId)).escrow!.timed_out) await mine(miner);
    await expect(reclaim).toBeEnabled({ timeout: 30_000 });
    await reclaim.click();
    await expect(page.locator('#escrows-live')).toHaveText(/^reclaim of escrow 0x[0-9a-f]{8}…[0-9a-f]{6} sent: 0x[0-9a-f]{64} \(pending\)$/, { timeout: 30_000 });
    await expect(row.locator('td').nth(3)).toHaveText('EscrowLocked (reclaim pending)');
    await expect(reclaim).toBeDisabled();

    await mine(miner, 2);
    await expect(row.locator('td').nth(3)).toHaveText('Refunded', { timeout: 30_000 });
    await expect(reclaim).toHaveAccessibleDescription('already reclaimed: the WEFT is back');
    expect((await escrowOnNode(escrowId)).escrow!.status).toBe('Refunded');
    // The amount is back; only the two fees (create and reclaim) are gone.
    const after = funded - units('0.02');
    expect(await balanceUnits(client)).toBe(after);
    await expect(page.locator('#escrow-available')).toHaveText(`Available: ${formatUnits(after)} WEFT (verified)`, { timeout: 30_000 });
    await page.screenshot({ path: testInfo.outputPath(`escrow-refunded-${viewport.name}.png`), fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
}

test('a page on another origin requests an escrow: refused with a code when it cannot be paid, paid when the user approves', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const consoleErrors = collectConsoleErrors(page);
  const nodeOrigin = new URL(node.url).origin;
  await page.goto(shop.demoUrl(nodeOrigin));
  const widget = await widgetFrame(page);
  await widget.getByLabel('New wallet password').fill('widget escrow password');
  await widget.getByRole('button', { name: 'Create wallet' }).click();
  await expect(widget.getByLabel('Address')).toHaveText(/^rweft1/, { timeout: 30_000 });
  const widgetAddress = (await widget.getByLabel('Address').textContent())!;
  await mine(widgetAddress, 3);
  await mine(miner, 2);
  await expect.poll(async () => Number(await widget.getByLabel('Balance').textContent()), { timeout: 30_000 }).toBeGreaterThan(0.1);

  const result = page.locator('#escrow-result');
  // No agent account at the address: answered with a code, and the user is never asked.
  await page.getByLabel('Agent account').fill(miner);
  await page.getByLabel('Coins to lock').fill('0.05');
  await page.getByLabel('Task id').fill('shop-task');
  await page.getByLabel('Timeout (blocks)').fill('50');
  await page.getByRole('button', { name: 'Request escrow' }).click();
  await expect(result).toHaveText(`no escrow: no agent account at ${miner} (agent_unknown)`, { timeout: 30_000 });
  await expect(widget.getByRole('heading', { name: 'Escrow request' })).toBeHidden();

  await page.getByLabel('Agent account').fill(agent);
  await page.getByRole('button', { name: 'Request escrow' }).click();
  await expect(widget.getByRole('heading', { name: 'Escrow request' })).toBeVisible();
  await expect(widget.locator('#w-escrow-origin')).toHaveText(shop.url);
  await expect(widget.locator('#w-escrow-amount')).toHaveText('0.05');
  await expect(widget.locator('#w-escrow-agent')).toHaveText(agent);
  await expect(widget.locator('#w-escrow-task')).toContainText(`shop-task (hash ${toHash0x(blake3(new TextEncoder().encode('shop-task')))})`);
  await expect(widget.locator('#w-escrow-timeout')).toHaveText('50 blocks from now');
  await expect(widget.getByRole('button', { name: 'Approve escrow' })).toBeEnabled({ timeout: 30_000 });
  await page.screenshot({ path: testInfo.outputPath('widget-escrow-request.png'), fullPage: true });
  await showWidget(page);
  await approveInWidget(page, widget.getByRole('button', { name: 'Approve escrow' }));
  await expect(result).toHaveText(/^escrow 0x[0-9a-f]{64} in 0x[0-9a-f]{64}$/, { timeout: 30_000 });
  const escrowId = /^escrow (0x[0-9a-f]{64})/.exec((await result.textContent())!)![1]!;

  await mine(miner, 2);
  await expect.poll(async () => (await escrowOnNode(escrowId)).escrow?.status, { timeout: 10_000 }).toBe('EscrowLocked');
  expect((await escrowOnNode(escrowId)).escrow).toMatchObject({ client: widgetAddress, agent_account: agent, amount_exact: '0.05', task_hash: toHash0x(blake3(new TextEncoder().encode('shop-task'))) });

  // The widget keeps no list; the wallet page restored from the widget's phrase adds the escrow by its id, to reclaim it.
  const phrase = (await widget.locator('#w-backup-words').textContent())!.trim();
  const walletPage = await page.context().newPage();
  await walletPage.goto(new URL('wallet.html', node.url).href);
  await walletPage.getByLabel('My recovery phrase (restore)').check();
  await walletPage.getByLabel('Wallet name').fill('from-widget');
  await walletPage.locator('#create-password').fill('restored password');
  await walletPage.getByRole('textbox', { name: /^Recovery phrase/ }).fill(phrase);
  await walletPage.getByRole('button', { name: 'Restore wallet' }).click();
  await expect(walletPage.getByRole('table', { name: 'Addresses and verified balances' }).locator(`tr[data-address="${widgetAddress}"]`)).toBeAttached({ timeout: 30_000 });
  await openView(walletPage, 'Escrow');
  const track = walletPage.getByRole('form', { name: 'Add an escrow by its id' });
  await track.getByRole('textbox').fill('0x12');
  await track.getByRole('button', { name: 'Add to the list' }).click();
  await expect(walletPage.locator('#escrow-track-id-error')).toHaveText('escrow id: expected 0x and 64 hex digits');
  await track.getByRole('textbox').fill(escrowId);
  await track.getByRole('button', { name: 'Add to the list' }).click();
  const tracked = walletPage.getByRole('table', { name: 'Your escrows' }).locator(`tr[data-escrow-id="${escrowId}"]`);
  await expect(tracked.locator('td').nth(3)).toHaveText('EscrowLocked', { timeout: 30_000 });
  await expect(tracked.getByRole('button', { name: `Reclaim escrow ${escrowId}` })).toHaveAccessibleDescription(/^times out at DAA score \d+, \d+ blocks from now/);
  await walletPage.close();

  // A request that could never be paid is answered invalid_request, and one for a frozen agent agent_frozen, unasked.
  const outcome = (change: Record<string, unknown>) => page.evaluate(({ agent, change }) => {
    const element = document.querySelector('weft-wallet') as unknown as { requestEscrow(r: object): Promise<unknown> };
    return element.requestEscrow({ agentAccount: agent, amount: '0.05', taskId: 'x', timeoutBlocks: 50, ...change }).then(() => 'paid', (e: { code: string; message: string }) => `${e.code}: ${e.message}`);
  }, { agent, change });
  expect(await outcome({ timeoutBlocks: 2 })).toBe('invalid_request: timeout: from 4 to 31536000 blocks, got 2');
  expect(await outcome({ disputeWindow: 48 })).toMatch(/^invalid_request: dispute window: must end before the timeout/);
  await node.rpc('freeze_agent_account', { agent_account: agent });
  await mine(miner, 2);
  await expect.poll(async () => (await node.rpc<{ account: { frozen: boolean } }>('get_agent_account', { agent_account: agent })).account.frozen, { timeout: 10_000 }).toBe(true);
  expect(await outcome({})).toBe(`agent_frozen: the agent account ${agent} is frozen`);
  await expect(widget.getByRole('heading', { name: 'Escrow request' })).toBeHidden();
  expect(consoleErrors).toEqual([]);
});
