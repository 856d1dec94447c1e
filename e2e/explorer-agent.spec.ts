// The explorer's agent account and escrow pages (issue 15) against one real regtest node: the node wallet creates an
// agent account with three session keys (one left to expire, one revoked), funds its energy pool, and three escrows
// that end Claimed, Disputed and Refunded, then freezes the account. On a phone (390×844) and a desktop (1280×900)
// the agent page shows the keys with their state, the frozen flag, the reputation and the escrows with their status;
// an escrow page shows its fields and its status history with the transactions that made each step; the address
// page and a claim's transaction page link there, and a bare escrow id is found by the search route; no console
// error, and axe finds no serious or critical violation.
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { fundedNodeWallet, type NodeWallet } from './helpers/node-transactions.ts';
import { nodeRpc } from './helpers/node-rpc.ts';
import { startRegtestNode, type RegtestNode } from './helpers/regtest-node.ts';
import { mineOneBlock } from './helpers/submit-block.ts';

let node: RegtestNode;
let client: NodeWallet;
let agent: string;
const escrows = {} as Record<'claimed' | 'disputed' | 'refunded', { id: string; create: string; step: string }>;

const rpc = (method: string, params: Record<string, unknown> = {}): Promise<any> => nodeRpc(node.url, method, params, node.apiKey);

/** A block that carries what is pending and one that accepts it. */
const confirm = async (): Promise<void> => void (await client.mine(), await client.mine());

test.beforeAll(async () => {
  test.setTimeout(90_000);
  node = await startRegtestNode(0);
  client = await fundedNodeWallet(node.url, node.apiKey, 5);
  agent = (await rpc('create_address')).address;
  const arbiter = (await rpc('create_address')).address;
  const [longKey, shortKey, revokedKey] = [(await rpc('create_address')).public_key, (await rpc('create_address')).public_key, (await rpc('create_address')).public_key];
  await mineOneBlock(node.url, node.apiKey, agent);
  await client.mine();

  await rpc('create_agent_account', { agent_account: agent });
  await confirm();
  const daa = (await rpc('get_agent_account', { agent_account: agent })).daa_score as number;
  await rpc('add_session_key', { agent_account: agent, public_key: longKey, allowed_kinds: ['escrow_claim'], tx_cap: 1, total_cap: 5, expiry_daa_score: 100_000 });
  await rpc('add_session_key', { agent_account: agent, public_key: shortKey, allowed_kinds: ['agent_fund_energy_pool', 'escrow_dispute'], tx_cap: 0.5, total_cap: 2, expiry_daa_score: daa + 4 });
  await rpc('add_session_key', { agent_account: agent, public_key: revokedKey, allowed_kinds: ['escrow_create'], tx_cap: 0.1, total_cap: 0.2, expiry_daa_score: 100_000 });
  await rpc('fund_energy_pool', { from: client.address, agent_account: agent, amount: 0.03 });
  const create = (task: string, more: Record<string, unknown>) => rpc('create_escrow', { from: client.address, agent_account: agent, task_id: task, ...more });
  const claimed = await create('task-claimed', { amount: 0.05, timeout_in: 500, dispute_window: 2 });
  const disputed = await create('task-disputed', { amount: 0.04, timeout_in: 500, arbiter });
  const refunded = await create('task-refunded', { amount: 0.02, timeout_in: 6 });
  await confirm();
  await client.mine(); // the dispute window of the first escrow passes

  const claim = await rpc('claim_escrow', { escrow_id: claimed.escrow_id });
  await rpc('revoke_session_key', { agent_account: agent, revoke_session_key_id: 3 });
  const dispute = await rpc('dispute_escrow', { escrow_id: disputed.escrow_id, from: client.address });
  await confirm();
  for (let i = 0; i < 8 && !(await rpc('get_escrow', { escrow_id: refunded.escrow_id })).escrow.timed_out; i++) await client.mine();
  const reclaim = await rpc('reclaim_escrow', { escrow_id: refunded.escrow_id });
  await rpc('freeze_agent_account', { agent_account: agent });
  await confirm();
  escrows.claimed = { id: claimed.escrow_id, create: claimed.hash, step: claim.hash };
  escrows.disputed = { id: disputed.escrow_id, create: disputed.hash, step: dispute.hash };
  escrows.refunded = { id: refunded.escrow_id, create: refunded.hash, step: reclaim.hash };
});
test.afterAll(async () => node?.stop());

const viewports = [{ name: 'phone', width: 390, height: 844 }, { name: 'desktop', width: 1280, height: 900 }] as const;
const field = (page: Page, table: string, label: string) => page.locator(`${table} tr`).filter({ has: page.locator('th', { hasText: new RegExp(`^${label}`) }) }).locator('td');

function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  return errors;
}

/** Axe over the detail section, which holds the page (the home panels around it are e2e/explorer-readable.spec.ts's). */
async function expectNoSeriousAxeViolation(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).include('#detail').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  expect(serious).toEqual([]);
}

for (const viewport of viewports) {
  test(`agent account and escrow pages on a ${viewport.name}`, async ({ page }) => {
    const errors = collectErrors(page);
    await page.setViewportSize({ width: viewport.width, height: viewport.height });

    // The address page of an agent account says so and links its agent page.
    await page.goto(`${node.url}/#/address/${agent}`);
    await expect(page.locator('#agent-account-link')).toContainText('frozen', { timeout: 30_000 });
    await page.locator('#agent-account-link a').click();

    await expect(page.locator('#detail-h')).toHaveText(`Agent account ${agent}`, { timeout: 30_000 });
    await expect(field(page, '#agent-fields', 'Frozen')).toContainText(/^yes/);
    await expect(field(page, '#agent-fields', 'Reputation')).toContainText('50 %'); // one claimed, one refunded
    await expect(field(page, '#agent-fields', 'Energy pool')).toHaveText('0.03 WEFT');
    await expect(field(page, '#agent-fields', 'Settled escrows')).toHaveText('2: 1 claimed, 1 refunded, 0 resolved by an arbiter');
    await expect(field(page, '#agent-fields', 'Controller key')).toContainText('(the owner key)');
    const keys = page.locator('#session-keys tbody tr');
    await expect(keys).toHaveCount(3);
    await expect(keys.nth(0)).toContainText('escrow_claim');
    await expect(keys.nth(0).locator('[data-field="state"]')).toHaveText('active');
    await expect(keys.nth(0)).toContainText('1 WEFT');
    await expect(keys.nth(1)).toContainText('agent_fund_energy_pool, escrow_dispute');
    await expect(keys.nth(1).locator('[data-field="state"]')).toHaveText('expired');
    await expect(keys.nth(2).locator('[data-field="state"]')).toHaveText('revoked');

    const rows = page.locator('#agent-escrows tbody tr');
    await expect(rows).toHaveCount(3, { timeout: 30_000 });
    for (const [name, status, amount] of [['claimed', 'Claimed', '0.05'], ['disputed', 'Disputed', '0.04'], ['refunded', 'Refunded', '0.02']] as const) {
      const row = page.locator(`#agent-escrows tr[data-escrow="${escrows[name].id}"]`);
      await expect(row.locator('[data-field="status"]')).toHaveText(status);
      await expect(row).toContainText(`${amount} WEFT`);
    }
    await expect(page.locator('#escrows-reach')).toContainText('all');
    await expectNoSeriousAxeViolation(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    await page.locator('#detail').screenshot({ path: `test-results/screenshots/agent-${viewport.name}.png` });

    // The disputed escrow, opened from the list: its fields and each step with its transaction.
    await page.locator(`#agent-escrows tr[data-escrow="${escrows.disputed.id}"] a[href^="#/escrow/"]`).click();
    await expect(page.locator('#detail-h')).toHaveText('Escrow', { timeout: 30_000 });
    await expect(field(page, '#escrow-fields', 'Status')).toHaveText('Disputed');
    await expect(field(page, '#escrow-fields', 'Amount')).toHaveText('0.04 WEFT');
    await expect(field(page, '#escrow-fields', 'Agent account').getByRole('link')).toHaveAttribute('href', `#/agent/${encodeURIComponent(agent)}`);
    await expect(field(page, '#escrow-fields', 'Client').getByRole('link')).toHaveAttribute('href', `#/address/${client.address}`);
    await expect(field(page, '#escrow-fields', 'Arbiter').getByRole('link')).toHaveCount(1);
    await expect(field(page, '#escrow-fields', 'Dispute window')).toContainText('none');
    await expect(field(page, '#escrow-fields', 'Task id hash')).toContainText(/0x[0-9a-f]{64}/);
    const history = page.locator('#escrow-history tbody tr');
    await expect(history).toHaveCount(2, { timeout: 30_000 });
    await expect(history.nth(0)).toHaveAttribute('data-status', 'EscrowLocked');
    await expect(history.nth(0).locator(`a[href="#/tx/${escrows.disputed.create}"]`)).toHaveCount(1);
    await expect(history.nth(1)).toHaveAttribute('data-status', 'Disputed');
    await expect(history.nth(1).locator(`a[href="#/tx/${escrows.disputed.step}"]`)).toHaveCount(1);
    for (const row of [history.nth(0), history.nth(1)]) {
      await expect(row.locator('a[href^="#/block/0x"]')).toHaveCount(1);
      await expect(row.locator('time')).toHaveAttribute('title', /\d/);
    }
    await expectNoSeriousAxeViolation(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    await page.locator('#detail').screenshot({ path: `test-results/screenshots/escrow-${viewport.name}.png` });

    // The other two end with a claim and a reclaim; the claim's transaction page links the escrow and the agent.
    await page.goto(`${node.url}/#/escrow/${escrows.refunded.id}`);
    await expect(page.locator('#escrow-history tr[data-status="Refunded"]').locator(`a[href="#/tx/${escrows.refunded.step}"]`)).toHaveCount(1, { timeout: 30_000 });
    await page.goto(`${node.url}/#/escrow/${escrows.claimed.id}`);
    await expect(page.locator('#escrow-history tr[data-status="Claimed"]').locator(`a[href="#/tx/${escrows.claimed.step}"]`)).toHaveCount(1, { timeout: 30_000 });
    await expect(field(page, '#escrow-fields', 'Paid to the agent')).toContainText('0.05 WEFT');
    await page.locator(`#escrow-history a[href="#/tx/${escrows.claimed.step}"]`).click();
    await expect(field(page, '#tx-fields', 'Kind')).toHaveText('escrow_claim', { timeout: 30_000 });
    await expect(field(page, '#tx-settlement', 'Escrow').getByRole('link')).toHaveAttribute('href', `#/escrow/${escrows.claimed.id}`);
    await expect(field(page, '#tx-settlement', 'Agent account').getByRole('link')).toHaveAttribute('href', `#/agent/${encodeURIComponent(agent)}`);

    // A bare 0x-hash that is no block or transaction is searched as an escrow id.
    await page.goto(`${node.url}/#/hash/${escrows.refunded.id}`);
    await expect(field(page, '#escrow-fields', 'Status')).toHaveText('Refunded', { timeout: 30_000 });

    await page.waitForLoadState('networkidle').catch(() => undefined);
    expect(errors).toEqual([]);
  });
}
