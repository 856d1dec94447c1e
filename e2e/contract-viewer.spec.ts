// The explorer's contract viewer against a real node (issue 16): deploy the example token, transfer once, then open
// #/contract/<address> and see its code hash (checked by the tab against the deployed bytes), size, methods,
// storage variables found by the tab, the accepted calls with their events, and a state lookup by variable and key;
// the transfer's transaction page shows the call's method, status and gas used.
import { expect, test } from '@playwright/test';
import { toHex } from '../src/util/bytes.ts';
import { contractBytes } from '../test/helpers/vm-contracts.ts';
import { fundedNodeWallet } from './helpers/node-transactions.ts';
import { nodeRpc } from './helpers/node-rpc.ts';
import { startRegtestNode, type RegtestNode } from './helpers/regtest-node.ts';

let node: RegtestNode;

const rpc = (method: string, params: Record<string, unknown>): Promise<any> => nodeRpc(node.url, method, params, node.apiKey);

test.beforeAll(async () => {
  node = await startRegtestNode(2_000);
});
test.afterAll(async () => node?.stop());

test('a deployed token opens in the contract viewer, and its transfer page shows the call', async ({ page }) => {
  test.setTimeout(120_000);
  const wallet = await fundedNodeWallet(node.url, node.apiKey, 3);
  const { address: other } = await rpc('create_address', {});
  const code = contractBytes('token');
  const deploy = await rpc('deploy_smart_contract', { bytecode: `0x${toHex(code)}`, constructor_params: [1_000_000], gas_limit: 5_000_000, gas_price_units: 1, deployer_address: wallet.address });
  await wallet.mine();
  await wallet.mine();
  const token: string = deploy.contract_address;
  const call = await rpc('call_smart_contract', { contract_address: token, method: 'transfer', parameters: [other, '250'], caller_address: wallet.address, gas_limit: 1_000_000 });
  expect(call.mode).toBe('transaction');
  await wallet.mine();
  await wallet.mine();

  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(`${node.url}/#/contract/${token}`);
  await expect(page.locator('#contract-code-hash')).toContainText(deploy.code_hash, { timeout: 30_000 });
  await expect(page.locator('#contract-code-hash')).toContainText('✓');
  await expect(page.locator('#contract-code-size')).toHaveText(`${code.length} bytes`);
  for (const method of ['init', 'transfer', 'balance_of', 'total_supply']) await expect(page.locator(`#contract-methods [data-method="${method}"]`)).toHaveCount(1);
  const storage = page.locator('#contract-storage');
  await expect(storage).toContainText('total_supply');
  await expect(storage.locator('tr[data-variable="balances"]')).toHaveCount(2); // the deployer and the recipient
  await expect(storage).toContainText(other);
  await expect(storage).toContainText('999750');
  const calls = page.locator('#contract-calls');
  await expect(calls).toContainText('transfer');
  await expect(calls).toContainText('Transfer');
  await expect(calls.locator('td.ok')).toHaveCount(2); // the deploy's constructor and the transfer

  await page.fill('#contract-lookup input[name="variable"]', 'balances');
  await page.fill('#contract-lookup input[name="key"]', other);
  await page.click('#contract-lookup button');
  await expect(page.locator('#lookup-value')).toContainText('250 (0xfa00000000000000)');
  await page.fill('#contract-lookup input[name="key"]', '0x00');
  await page.click('#contract-lookup button');
  await expect(page.locator('#lookup-value')).toContainText('no value stored');

  await page.goto(`${node.url}/#/tx/${call.transaction_hash}`);
  const receipt = page.locator('.contract-receipt');
  await expect(receipt.locator('[data-field="method"]')).toHaveText('transfer', { timeout: 30_000 });
  await expect(receipt.locator('[data-field="status"]')).toHaveText('ok');
  const tx = await rpc('get_transaction', { hash: call.transaction_hash });
  await expect(receipt.locator('[data-field="gas_used"]')).toHaveText(String(tx.receipt.gas_used));
  // The fee is what the call paid (gas used × gas price), beside gas limit & usage as Etherscan shows them (issue 32).
  expect(tx.fee_exact).toBe((tx.receipt.gas_used / 1e8).toFixed(8).replace(/\.?0+$/, ''));
  const fields = page.locator('#tx-fields');
  // The row labelled Fee exactly: a row's text match would also take any hash that contains "fee" (CI once drew one).
  await expect(fields.locator('tr', { has: page.locator('th', { hasText: /^Fee$/ }) }).locator('td')).toContainText(`${tx.fee_exact} WEFT`);
  await expect(fields.locator('[data-field="gas_usage"]')).toHaveText(`1,000,000 | ${tx.receipt.gas_used.toLocaleString('en')} (${((tx.receipt.gas_used / 1_000_000) * 100).toFixed(2)}%)`);
  await expect(fields).not.toContainText('gas price exact');
  expect(pageErrors).toEqual([]);
});
