// The browser wallet's private account (issue 17, docs/wallet.md "Confidential account") against a real regtest node:
// the node wallet shields coins to the tab's stealth address; the tab finds them by scanning blocks with its view
// key and shows the private balance and history; the tab builds, proves and ring-signs a confidential transfer
// itself and sends it to a node-wallet stealth address, which the node's owner view then holds; the explorer's
// transaction page shows what is public (key images, ring members, one-time keys, commitments, view tags, fee) and
// neither a sender nor an amount. Locking and unlocking brings the private state back from IndexedDB, which holds no
// amount or secret. Blocks are mined from the test process one at a time, so nothing races.
import { expect, test } from '@playwright/test';
import { startWalletTestNode, type WalletTestNode } from './helpers/wallet-node.ts';
import { mineOneBlock } from './helpers/submit-block.ts';
import { collectConsoleErrors, createWalletInPage, openView, seriousA11yViolations } from './helpers/wallet-page.ts';

let node: WalletTestNode;
test.beforeAll(async () => {
  node = await startWalletTestNode();
});
test.afterAll(async () => node?.stop());

async function mine(minerAddress: string, blocks = 1): Promise<void> {
  for (let i = 0; i < blocks; i++) await mineOneBlock(node.url.replace(/\/$/, ''), node.apiKey, minerAddress);
}

test('the tab receives a shield, scans it, sends privately with a ring it signed, and the explorer shows only the public parts', async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const consoleErrors = collectConsoleErrors(page);
  const { address: funded } = await node.rpc<{ address: string }>('create_address', {});
  await mine(funded, 2);

  await page.goto(new URL('wallet.html', node.url).href);
  await createWalletInPage(page, { name: 'private', password: 'private password' });
  const card = page.locator('#private-card');
  await expect(page.locator('#private-address')).toHaveText(/^rwefts1[02-9ac-hj-np-z]+$/, { timeout: 30_000 });
  const tabStealth = (await page.locator('#private-address').textContent())!;
  // The Receive card's Confidential choice shows the same stealth address, with a QR code.
  await openView(page, 'Receive');
  await page.getByLabel('Confidential (stealth address)').check();
  await expect(page.locator('#receive-private-text')).toHaveText(tabStealth);
  await expect(page.locator('#receive-address')).toBeHidden();

  // The node wallet shields 0.1 coin to the tab, and a little to its own stealth account (the tab's first decoy).
  const { address: nodeStealth } = await node.rpc<{ address: string }>('create_address', { wallet_name: 'node-private', address_type: 'stealth' });
  const shield = await node.rpc<{ hash: string }>('create_confidential_transaction', {
    inputs: [{ address: funded, amount: 0.103 }],
    outputs: [{ address: tabStealth, amount: 0.1 }, { address: nodeStealth, amount: 0.002 }],
    fee: 0.001,
  });
  await mine(funded, 3);
  await openView(page, 'Confidential');
  await expect(card.locator('#private-balance')).toHaveText('0.1 WEFT (0.1 spendable now)', { timeout: 30_000 });
  const history = page.getByRole('table', { name: 'Confidential history' }).locator('tbody tr');
  await expect(history).toHaveCount(1);
  await expect(history.first()).toHaveAttribute('data-hash', shield.hash.slice(2));
  await expect(history.first().locator('td')).toHaveText([/^0x/, 'received', '0.1', 'confirmed']);
  await page.locator('#private-card').screenshot({ path: testInfo.outputPath('wallet-private-card.png') });
  expect(await seriousA11yViolations(page)).toEqual([]);

  // The tab sends 0.025 privately to another node wallet's stealth address.
  const { address: receiver } = await node.rpc<{ address: string }>('create_address', { wallet_name: 'node-receiver', address_type: 'stealth' });
  await card.getByLabel('To (stealth address)').fill(receiver);
  // Refusals are said beside their field and sign nothing.
  await card.getByLabel('Amount (WEFT)').fill('5');
  await card.getByRole('button', { name: 'Sign and send confidentially' }).click();
  await expect(page.locator('#private-amount-error')).toHaveText('insufficient confidential balance — 0.1 spendable in mature outputs, amount + fee is 5.001');
  await card.getByLabel('To (stealth address)').fill(receiver.slice(0, -1));
  await card.getByLabel('Amount (WEFT)').fill('0.025');
  await card.getByRole('button', { name: 'Sign and send confidentially' }).click();
  await expect(page.locator('#private-to-error')).toContainText('to: not a rweft');
  await card.getByLabel('To (stealth address)').fill(receiver);
  await card.getByRole('button', { name: 'Sign and send confidentially' }).click();
  await expect(page.locator('#private-result')).toHaveText(/^sent 0x[0-9a-f]{64} \(pending, ring of 2\)$/, { timeout: 30_000 });
  const sent = (await page.locator('#private-result').textContent())!.split(' ')[1]!;
  await expect(history.first().locator('td')).toHaveText([/^0x/, 'sent', '0.026', 'pending']);
  await expect(card.locator('#private-balance')).toHaveText('0 WEFT (0 spendable now, 0.026 leaving in a pending send)');

  await mine(funded, 3);
  await expect(history.first().locator('td')).toHaveText([/^0x/, 'sent', '0.026', 'confirmed'], { timeout: 30_000 });
  await expect(card.locator('#private-balance')).toHaveText('0.074 WEFT (0.074 spendable now)');
  const owner = await node.rpc<{ confidential_balance_exact: string }>('get_balance', { address: receiver, privacy_view: 'owner' });
  expect(owner.confidential_balance_exact).toBe('0.025');
  const tx = await node.rpc<{ kind: string; status: string; ring_size: number }>('get_transaction', { hash: sent });
  expect(tx).toMatchObject({ kind: 'confidential_transfer', status: 'confirmed', ring_size: 2 });

  // Locked and unlocked again: outputs, key images and the cursor come back from IndexedDB, amounts from the keys.
  await page.getByRole('button', { name: 'Lock' }).click();
  await page.locator('#unlock-password').fill('private password');
  await page.getByRole('button', { name: 'Unlock wallet' }).click();
  await expect(card.locator('#private-balance')).toHaveText('0.074 WEFT (0.074 spendable now)', { timeout: 30_000 });
  await expect(history).toHaveCount(2);
  const stored = await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('weft-wallet-private');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    return new Promise<Record<string, unknown>[]>((resolve) => {
      const all = db.transaction('outputs').objectStore('outputs').getAll();
      all.onsuccess = () => resolve(all.result as Record<string, unknown>[]);
    });
  });
  // Two outputs found (the shield's and the change), one spent; no amount, mask or secret is stored.
  expect(stored).toHaveLength(2);
  expect(stored.filter((o) => o.spentBy === sent.slice(2))).toHaveLength(1);
  for (const row of stored) expect(Object.keys(row).filter((k) => ['amount', 'mask', 'secretKey'].includes(k))).toEqual([]);

  // The explorer: what is public, and neither a sender nor an amount.
  await page.goto(new URL(`#/tx/${sent}`, node.url).href);
  const section = page.getByRole('region', { name: 'What is public' });
  await expect(section).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('#confidential-fields')).toContainText('high');
  await expect(section.getByRole('list', { name: 'Ring members of input 1' }).getByRole('link')).toHaveCount(2);
  await expect(section.getByRole('table', { name: 'Stealth outputs' }).locator('tbody tr')).toHaveCount(2);
  await expect(section.getByRole('table', { name: 'Stealth outputs' })).toContainText('hidden (encrypted)');
  const fields = page.locator('#tx-fields');
  await expect(fields.locator('tr', { hasText: 'From' }).locator('td')).toHaveText('–');
  await expect(fields.locator('tr', { hasText: 'Amount' }).locator('td')).toHaveText('–');
  await page.screenshot({ path: testInfo.outputPath('explorer-confidential-tx.png'), fullPage: true });
  const text = (await page.locator('main').textContent())!;
  expect(text).not.toContain('0.025');
  expect(text).not.toContain(tabStealth);
  // A ring member's page: its stored record, proven against a verified header.
  await section.getByRole('list', { name: 'Ring members of input 1' }).getByRole('link').first().click();
  await expect(page.locator('#output-proof')).toContainText('checked against verified block', { timeout: 30_000 });
  expect(consoleErrors).toEqual([]);
});
