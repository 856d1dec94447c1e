// The screenshots in docs/images (docs/web.md "Screenshots"), made from a real regtest node as a user gets there:
// a browser wallet funded by blocks, with a send, an escrow for an agent account and a shield the node's wallet sent
// to it, each view on a 390×844 phone and a 1440×900 desktop; a contract call's transaction page; the node's status
// page. Each picture is taken only once its view shows what the docs say it shows. They land under
// test-results/doc-images/; `WEFT_DOC_IMAGES=docs/images npx playwright test e2e/doc-images.spec.ts` writes the
// committed ones.
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { toHex } from '../src/util/bytes.ts';
import { contractBytes } from '../test/helpers/vm-contracts.ts';
import { mineOneBlock } from './helpers/submit-block.ts';
import { startWalletTestNode, type WalletTestNode } from './helpers/wallet-node.ts';
import { createWalletInPage, openView, sendInPage, type WalletViewName } from './helpers/wallet-page.ts';

const outDir = process.env.WEFT_DOC_IMAGES ?? 'test-results/doc-images';
const sizes = [{ name: 'phone', width: 390, height: 844 }, { name: 'desktop', width: 1440, height: 900 }] as const;

let node: WalletTestNode;
/** Node-wallet addresses: one that mines, one with an agent account, one that pays the shield and the contract. */
let miner = '';
let agent = '';
let funder = '';

const mine = async (to: string, blocks = 1) => {
  for (let i = 0; i < blocks; i++) await mineOneBlock(node.url.replace(/\/$/, ''), node.apiKey, to);
};

test.beforeAll(async () => {
  node = await startWalletTestNode();
  const newAddress = async () => (await node.rpc<{ address: string }>('create_address')).address;
  [miner, agent, funder] = [await newAddress(), await newAddress(), await newAddress()];
  await mine(agent, 2);
  await mine(funder, 4);
  await node.rpc('create_agent_account', { agent_account: agent });
  await mine(miner, 2);
});
test.afterAll(async () => node?.stop());

/** One picture per size of what the page shows once `ready` holds; `show` puts the page there after a resize. */
async function photograph(page: Page, name: string, show: () => Promise<void>): Promise<void> {
  for (const size of sizes) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await show();
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} on a ${size.name}`).toBeLessThanOrEqual(size.width);
    await page.screenshot({ path: join(outDir, `${name}-${size.name}.png`), fullPage: true });
  }
}

/** Opens `view` and waits until `ready` holds, scrolled to the top. */
const viewShowing = (page: Page, view: WalletViewName, ready: () => Promise<void>) => async () => {
  await openView(page, view);
  await ready();
  await page.evaluate(() => window.scrollTo(0, 0));
};

/** An escrow of 0.05 WEFT for the agent account, signed in the tab, locked once a block carries it. */
async function lockEscrow(page: Page): Promise<string> {
  await openView(page, 'Escrow');
  const form = page.locator('#escrow-form');
  await form.getByLabel('Agent account').fill(agent);
  await form.getByLabel('Amount (WEFT)').fill('0.05');
  await form.getByLabel('Task id (text, or its 0x… 32-byte hash)').fill('translate the manual');
  await form.getByLabel('Timeout (blocks from now)').fill('600');
  await form.getByRole('button', { name: 'Review escrow' }).click();
  const review = page.getByRole('region', { name: 'Review escrow before signing' });
  await expect(review).toBeVisible({ timeout: 30_000 });
  const escrowId = (await page.locator('#er-id').textContent())!;
  await review.getByRole('button', { name: 'Sign and lock' }).click();
  await expect(page.locator('#escrow-result')).toHaveText(/\(pending\)$/, { timeout: 30_000 });
  return escrowId;
}

test('the wallet views, a contract call and the status page, for the docs', async ({ page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize(sizes[1]);
  await page.goto(new URL('wallet.html', node.url).href);
  await createWalletInPage(page, { name: 'everyday', password: 'doc images password' });
  const own = (await page.getByRole('table', { name: 'Addresses and verified balances' }).locator('tbody tr').first().getAttribute('data-address'))!;
  await mine(own, 3);
  await mine(miner, 2);
  // Block rewards count once later blocks merge them: wait until the proven balance holds all three.
  const available = async () => Number(/^Available: ([\d.]+) WEFT/.exec((await page.locator('#balance-available').textContent()) ?? '')?.[1] ?? 0);
  await expect.poll(available, { timeout: 30_000 }).toBeGreaterThan(0.2);
  const sent = await sendInPage(page, { to: miner, amount: '0.1' });
  const escrowId = await lockEscrow(page);
  await expect(page.locator('#private-address')).toHaveText(/^rwefts1/, { timeout: 30_000 });
  const stealth = (await page.locator('#private-address').textContent())!;
  await node.rpc('create_confidential_transaction', { inputs: [{ address: funder, amount: 0.121 }], outputs: [{ address: stealth, amount: 0.12 }], fee: 0.001 });
  await mine(miner, 3);

  const history = page.getByRole('table', { name: 'Transaction history' });
  await photograph(page, 'wallet-activity', viewShowing(page, 'Activity', async () => {
    await expect(history.locator(`tr[data-hash="${sent}"] td`).nth(3)).toHaveText(/confirmed|final/, { timeout: 30_000 });
    // The headline proven past the blocks that carried the send and the escrow: nothing left "leaving".
    await expect(page.locator('#balance-available')).toHaveText(/^Available: [\d.]+ WEFT$/, { timeout: 30_000 });
  }));
  await photograph(page, 'wallet-send', viewShowing(page, 'Send', () => expect(page.locator('#send-available')).toHaveText(/^Available: [\d.]+ WEFT \(verified\)$/, { timeout: 30_000 })));
  await photograph(page, 'wallet-receive', viewShowing(page, 'Receive', () => expect(page.locator('#receive-qr path')).toHaveAttribute('d', /^M/)));
  const escrowRow = page.getByRole('table', { name: 'Your escrows' }).locator(`tr[data-escrow-id="${escrowId}"] td`).nth(3);
  await photograph(page, 'wallet-escrow', viewShowing(page, 'Escrow', () => expect(escrowRow).toHaveText('EscrowLocked', { timeout: 30_000 })));
  await photograph(page, 'wallet-confidential', viewShowing(page, 'Confidential', () => expect(page.locator('#private-balance')).toHaveText('0.12 WEFT (0.12 spendable now)', { timeout: 60_000 })));

  // A contract: the token example deployed and called from the node wallet; the explorer decodes the call.
  const { contract_address: token } = await node.rpc<{ contract_address: string }>('deploy_smart_contract', { bytecode: `0x${toHex(contractBytes('token'))}`, constructor_params: [1_000_000], gas_limit: 5_000_000, gas_price_units: 1, deployer_address: funder });
  await mine(miner, 2);
  const { transaction_hash: call } = await node.rpc<{ transaction_hash: string }>('call_smart_contract', { contract_address: token, method: 'transfer', parameters: [own, '250'], caller_address: funder, gas_limit: 1_000_000 });
  await mine(miner, 2);
  await page.goto(new URL(`/#/tx/${call}`, node.url).href);
  await photograph(page, 'explorer-contract-call', async () => {
    await expect(page.locator('[data-field="decoded-method"]')).toHaveText('transfer(address, u64)', { timeout: 30_000 });
    await expect(page.locator('.contract-receipt li[data-event="Transfer"]')).toBeVisible();
  });

  await page.goto(new URL('/status', node.url).href);
  await photograph(page, 'node-status', () => expect(page.locator('#summary')).toHaveText(/^(Synced|Syncing) regtest node at height [\d,]+, \d+ peers?$/, { timeout: 30_000 }));
});
