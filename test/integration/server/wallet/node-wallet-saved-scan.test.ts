// A pruned node's wallet across a restart (docs/privacy.md "Wallets" "Saved scan"): a real node on regtest with
// small pruning depths shields to its own stealth address over JSON-RPC; the shield's block sinks below the pruning
// point (its body deleted); the node stops and a new node opens the same datadir. get_balance still shows the
// output, and the node unshields it with a ring of 11 whose decoys can only be outputs of that pruned block (the
// saved decoy sample: no other confidential output exists).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeAddress } from '../../../../src/crypto/address.ts';
import { fromHex } from '../../../../src/util/bytes.ts';
import { startRpcTestNode, type RpcTestNode } from '../../../helpers/rpc-node.ts';

const args = ['--regtest-finality-depth', '12', '--regtest-merge-depth', '6', '--regtest-pruning-depth', '24'];
const hrp = 'rweft';
const strip = (hex: string) => fromHex(hex.slice(2));
const dir = mkdtempSync(join(tmpdir(), 'weft-node-saved-scan-'));
const running: RpcTestNode[] = [];
afterAll(async () => {
  for (const t of running) await t.close().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

async function start(): Promise<RpcTestNode> {
  const t = await startRpcTestNode(args, false, dir);
  running.push(t);
  return t;
}

/** Mines the pool into a block and two more (acceptance, maturity); returns the carrying block's hash. */
async function confirmPending(t: RpcTestNode, miner: string): Promise<string> {
  const template = (await t.rpc('get_block_template', { miner_address: miner })).body.result;
  expect(template.transactions.length).toBeGreaterThan(0);
  const { hash } = await t.mine({ transactions: template.transactions.map(strip) });
  await t.mine();
  await t.mine();
  return hash;
}

describe('a pruned node wallet keeps its stealth outputs across a restart', () => {
  it('finds and spends an output whose block was pruned before the restart', async () => {
    const first = await start();
    const funded = (await first.rpc('create_address', {})).body.result.address as string;
    for (let i = 0; i < 3; i++) await first.mine({ miner: decodeAddress(funded, hrp) });
    const bob = (await first.rpc('create_address', { address_type: 'stealth' })).body.result.address as string;
    const erin = (await first.rpc('create_address', { wallet_name: 'erin', address_type: 'stealth' })).body.result.address as string;
    const shield = await first.rpc('create_confidential_transaction', {
      inputs: [{ address: funded, amount: 0.0061 }],
      outputs: [{ address: bob, amount: 0.005, stealth_payment: true }, ...Array.from({ length: 10 }, () => ({ address: erin, amount: 0.0001 }))],
      fee: 0.0001,
    });
    expect(shield.body.error).toBeUndefined();
    const carrier = await confirmPending(first, funded);
    expect((await first.rpc('get_balance', { address: bob, privacy_view: 'owner' })).body.result).toMatchObject({ confidential_balance_exact: '0.005' });

    for (let i = 0; i < 40; i++) await first.mine();
    await first.node.chain.settled();
    await first.node.chain.pruningSettled();
    expect(first.node.chain.isPruned(carrier.replace(/^0x/, ''))).toBe(true);
    const pruned = await first.rpc('get_block', { hash: carrier });
    expect(pruned.body.error).toMatchObject({ code: -32000, data: { reason: 'data_pruned' } });
    await first.close();
    running.length = 0;

    const second = await start();
    expect((await second.rpc('get_block', { hash: carrier })).body.error).toMatchObject({ data: { reason: 'data_pruned' } });
    const owner = (await second.rpc('get_balance', { address: bob, privacy_view: 'owner' })).body.result;
    expect(owner).toMatchObject({ confidential_balance_exact: '0.005' });

    const before = Number((await second.rpc('get_balance', { address: funded })).body.result.balance_exact);
    const unshield = await second.rpc('create_confidential_transaction', {
      inputs: [{ address: bob, amount: 0.005 }],
      outputs: [{ address: funded, amount: 0.0049 }],
      ring_size: 11,
      fee: 0.0001,
    });
    expect(unshield.body.error).toBeUndefined();
    expect(unshield.body.result).toMatchObject({ kind: 'unshield', ring_size: 11 });
    await confirmPending(second, funded);
    expect(Number((await second.rpc('get_balance', { address: funded })).body.result.balance_exact) - before).toBeGreaterThan(0.0048);
    expect((await second.rpc('get_balance', { address: bob, privacy_view: 'owner' })).body.result).toMatchObject({ confidential_balance_exact: '0' });
  }, 180_000);
});
