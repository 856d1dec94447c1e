// The explorer on a phone (issue 32 "Pages people would rather use"), against a real regtest node with a transfer, a
// contract deploy and call, and a shield: no page puts a figure past the right edge of a 390 px screen — not the
// page itself (scrollWidth) and not a table scrolled inside it, where the amounts used to sit off-screen (address
// history, block transactions, the contract call's gas, the confidential outputs at 582 px). The home opens on the
// network, not on the light node's internals; the latest transactions say their type; the DAG view is labelled.
import { expect, test, type Page } from '@playwright/test';
import { toHex } from '../src/util/bytes.ts';
import { contractBytes } from '../test/helpers/vm-contracts.ts';
import { fundedNodeWallet, type NodeWallet } from './helpers/node-transactions.ts';
import { nodeRpc } from './helpers/node-rpc.ts';
import { startRegtestNode, type RegtestNode } from './helpers/regtest-node.ts';

let node: RegtestNode;
let wallet: NodeWallet;
let transferBlock: string;
let contractCall: string;
let token: string;
let shield: string;
let recipient: string;

const rpc = <T>(method: string, params: Record<string, unknown>): Promise<T> => nodeRpc<T>(node.url, method, params, node.apiKey);

test.beforeAll(async () => {
  test.setTimeout(120_000);
  node = await startRegtestNode(2_000);
  wallet = await fundedNodeWallet(node.url, node.apiKey, 4);
  await wallet.send(wallet.address, 0.12345678);
  transferBlock = await wallet.mine();
  const deploy = await rpc<{ contract_address: string }>('deploy_smart_contract', { bytecode: `0x${toHex(contractBytes('token'))}`, constructor_params: [1_000_000], gas_limit: 5_000_000, gas_price_units: 1, deployer_address: wallet.address });
  token = deploy.contract_address;
  await wallet.mine();
  await wallet.mine();
  const { address: other } = await rpc<{ address: string }>('create_address', {});
  recipient = other;
  contractCall = (await rpc<{ transaction_hash: string }>('call_smart_contract', { contract_address: token, method: 'transfer', parameters: [other, '250'], caller_address: wallet.address, gas_limit: 1_000_000 })).transaction_hash;
  await wallet.mine();
  const { address: stealthA } = await rpc<{ address: string }>('create_address', { wallet_name: 'phone-a', address_type: 'stealth' });
  const { address: stealthB } = await rpc<{ address: string }>('create_address', { wallet_name: 'phone-b', address_type: 'stealth' });
  shield = (await rpc<{ hash: string }>('create_confidential_transaction', { inputs: [{ address: wallet.address, amount: 0.103 }], outputs: [{ address: stealthA, amount: 0.1 }, { address: stealthB, amount: 0.002 }], fee: 0.001 })).hash;
  await wallet.mine();
  await wallet.mine();
});
test.afterAll(async () => node?.stop());

/** Every element under `selector` whose right edge lies past the viewport's (a scrolled-away table cell included). */
async function pastTheRightEdge(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const edge = document.documentElement.clientWidth + 0.5;
    const out: string[] = [];
    for (const el of document.querySelectorAll(`${sel} *`)) {
      const box = el.getBoundingClientRect();
      if (box.width > 0 && box.right > edge) out.push(`${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${el.className} right=${Math.round(box.right)}: ${(el.textContent ?? '').slice(0, 40)}`);
    }
    return out;
  }, selector);
}

test.describe('on a 390 × 844 phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  const detailPages = [
    { name: 'address history', path: () => `/#/address/${wallet.address}`, ready: (p: Page) => expect(p.locator('#history-range')).toHaveText(/^1–/, { timeout: 30_000 }) },
    { name: 'block transactions', path: () => `/#/block/${transferBlock}`, ready: (p: Page) => expect(p.locator('#detail-body table.txs')).toContainText('0.12345678 WEFT', { timeout: 30_000 }) },
    { name: 'contract call', path: () => `/#/tx/${contractCall}`, ready: (p: Page) => expect(p.locator('[data-field="gas_usage"]')).toContainText('%', { timeout: 30_000 }) },
    { name: 'contract viewer', path: () => `/#/contract/${token}`, ready: (p: Page) => expect(p.locator('#contract-calls')).toContainText('transfer', { timeout: 30_000 }) },
    { name: 'confidential transaction', path: () => `/#/tx/${shield}`, ready: (p: Page) => expect(p.locator('#confidential-outputs tbody tr')).toHaveCount(2, { timeout: 30_000 }) },
  ] as const;

  for (const check of detailPages) {
    test(`the ${check.name} page keeps every figure on screen`, async ({ page }) => {
      await page.goto(`${node.url}${check.path()}`);
      await check.ready(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      expect(await pastTheRightEdge(page, '#detail-body')).toEqual([]);
      await page.screenshot({ path: `test-results/screenshots/phone-${check.name.replace(/ /g, '-')}.png`, fullPage: true });
    });
  }

  test('the home opens on the network; the lists fit, say each transaction’s type, and the DAG is labelled', async ({ page }) => {
    await page.goto(`${node.url}/`);
    await expect(page.locator('#blocks tbody tr')).toHaveCount(20, { timeout: 30_000 });
    await expect(page.locator('#st-height')).toHaveText(/^\d/, { timeout: 30_000 });
    // The network's figures are on the first screen, above the light node's panel.
    await expect(page.locator('#st-height')).toBeInViewport();
    const network = (await page.locator('#network-panel').boundingBox())!;
    const light = (await page.locator('#light-panel').boundingBox())!;
    expect(network.y).toBeLessThan(light.y);
    await expect(page.locator('#light-panel')).not.toBeInViewport();
    // The type column: the contract call and the shield are named as such.
    const types = page.locator('#txs tbody td:nth-child(4)');
    await expect(types.filter({ hasText: /^contract call$/ })).not.toHaveCount(0, { timeout: 30_000 });
    await expect(types.filter({ hasText: /^shield$/ })).not.toHaveCount(0);
    expect(await pastTheRightEdge(page, 'main')).toEqual([]);
    // The DAG view: chain heights along its bottom, and a legend that says what blue and red mean.
    await expect(page.locator('#dag .dag-heights text').first()).toHaveText(/^\d{1,3}(,\d{3})*$/);
    await expect(page.locator('#dag-legend')).toContainText(/blue.*reward.*red.*merge/s);
    await page.screenshot({ path: 'test-results/screenshots/phone-home.png', fullPage: true });
  });
});

test('a contract call’s page decodes its method, arguments and events', async ({ page }, testInfo) => {
  await page.goto(`${node.url}/#/tx/${contractCall}`);
  const fields = page.locator('#tx-fields');
  await expect(fields.locator('[data-field="decoded-method"]')).toHaveText('transfer(address, u64)', { timeout: 30_000 });
  const args = fields.locator('tr', { has: page.locator('th', { hasText: /^Arguments$/ }) }).locator('li');
  await expect(args).toHaveCount(2);
  await expect(args.nth(0).getByRole('link')).toHaveAttribute('href', `#/address/${recipient}`);
  await expect(args.nth(1)).toHaveText('u64 250');
  await expect(fields.locator('tr', { has: page.locator('th', { hasText: /^Contract$/ }) }).getByRole('link', { name: 'contract viewer' })).toHaveAttribute('href', `#/contract/${token}`);
  // The receipt's Transfer event, its data decoded: from, to, amount.
  const transfer = page.locator('.contract-receipt li[data-event="Transfer"] li');
  await expect(transfer).toHaveCount(3);
  await expect(transfer.nth(1).getByRole('link')).toHaveAttribute('href', `#/address/${recipient}`);
  await expect(transfer.nth(2)).toHaveText('u64 250');
  // No raw field names of the API: the rows above replace them.
  for (const raw of ['contract address', 'parameters', 'gas price exact']) await expect(fields.locator('th', { hasText: new RegExp(`^${raw}$`) })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('contract-call-desktop.png'), fullPage: true });
});

test('“Read contract” reads a view method by a dry run, nothing sent', async ({ page }) => {
  await page.goto(`${node.url}/#/contract/${token}`);
  const form = page.locator('#contract-read');
  await expect(form.locator('select option[value="balance_of"]')).toHaveCount(1, { timeout: 30_000 });
  await expect(form.locator('select option[value="init"]')).toHaveCount(0);
  await form.locator('select').selectOption('balance_of');
  await form.locator('input[name="args"]').fill(recipient);
  await form.getByRole('button', { name: 'Read' }).click();
  await expect(page.locator('#read-value')).toHaveText('u64 250');
  await form.locator('select').selectOption('total_supply');
  await form.locator('input[name="args"]').fill('');
  await form.getByRole('button', { name: 'Read' }).click();
  await expect(page.locator('#read-value')).toHaveText('u64 1000000');
});
