// A miner's balance is explained by its history (issue 32): get_reward_history lists every block reward the address
// received — subsidy plus the coin fees of the block's transactions, credited when a chain block accepts the block —
// and they add up to its balance; a reorganisation that takes chain blocks away takes their reward rows with them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeBlock } from '../../../src/codec/block.ts';
import { decodeHeader } from '../../../src/codec/header.ts';
import { searchNonce } from '../../../src/consensus/pow.ts';
import { decodeAddress } from '../../../src/crypto/address.ts';
import { fromHex, toHex } from '../../../src/util/bytes.ts';
import { startRpcTestNode, type RpcTestNode } from '../../helpers/rpc-node.ts';

let t: RpcTestNode;
let miner: string;
let payee: string;

const units = (coins: string): bigint => {
  const [whole, fraction = ''] = coins.split('.');
  return BigInt(whole!) * 100_000_000n + BigInt(fraction.padEnd(8, '0'));
};

beforeAll(async () => {
  t = await startRpcTestNode([], false);
  miner = (await t.rpc('create_address', {})).body.result.address;
  payee = (await t.rpc('create_address', {})).body.result.address;
}, 60_000);
afterAll(() => t?.close());

/** Mines the pool's transactions through get_block_template (to `miner`), as any miner does. */
async function mineTemplate(): Promise<void> {
  const template = (await t.rpc('get_block_template', { miner_address: miner })).body.result;
  const header = decodeHeader(fromHex(template.header.slice(2)));
  const found = searchNonce(fromHex(template.pre_pow_hash.slice(2)), BigInt(template.target), 0n, 5_000_000);
  const block = encodeBlock({ header: { ...header, nonce: found.nonce! }, transactions: template.transactions.map((h: string) => fromHex(h.slice(2))) });
  expect((await t.rpc('submit_block', { block: `0x${toHex(block)}` })).body.result.status).toBe('accepted');
}

describe('get_reward_history', () => {
  it("lists a miner's block rewards, newest first, and they add up to its balance", async () => {
    const hrp = t.node.chain.params.hrp;
    for (let i = 0; i < 6; i++) await t.mine({ miner: decodeAddress(miner, hrp) });
    // A transfer whose fee goes to the reward of the block that carries it.
    expect((await t.rpc('send_transaction', { from: miner, to: payee, amount: 0.1, fee: 0.01 })).body.error).toBeUndefined();
    await mineTemplate();
    for (let i = 0; i < 2; i++) await t.mine({ miner: decodeAddress(miner, hrp) });

    const answer = (await t.rpc('get_reward_history', { address: miner, limit: 100 })).body;
    expect(answer.error).toBeUndefined();
    const { rewards, total } = answer.result;
    expect(total).toBe(rewards.length);
    expect(rewards.length).toBe(9); // the nine blocks mined; genesis mines nothing
    // The tip's reward is credited by the virtual's acceptance (it is in the balance) before a chain block's.
    expect(rewards[0]).toMatchObject({ accepting_block_hash: null, accepting_height: null, confirmations: 0 });
    const heights = rewards.slice(1).map((r: { accepting_height: number }) => r.accepting_height);
    expect(heights).toEqual([...heights].sort((a, b) => b - a));
    expect(rewards.slice(1).every((r: { confirmations: number }) => r.confirmations > 0)).toBe(true);
    for (const r of rewards) expect(units(r.amount_exact)).toBe(units(r.subsidy_exact) + units(r.fees_exact));

    const received = rewards.reduce((sum: bigint, r: { amount_exact: string }) => sum + units(r.amount_exact), 0n);
    const history = (await t.rpc('get_transaction_history', { address: miner, limit: 100 })).body.result.transactions;
    const spent = history.filter((h: { type: string }) => h.type === 'outgoing').reduce((sum: bigint, h: { amount_exact: string; fee_exact: string }) => sum + units(h.amount_exact) + units(h.fee_exact), 0n);
    const balance = units((await t.rpc('get_balance', { address: miner })).body.result.balance_exact);
    expect(spent).toBeGreaterThan(0n);
    expect(received - spent).toBe(balance);
  });

  it('pages with limit and offset, and knows nothing of an address that never mined', async () => {
    const first = (await t.rpc('get_reward_history', { address: miner, limit: 2 })).body.result;
    const second = (await t.rpc('get_reward_history', { address: miner, limit: 2, offset: 2 })).body.result;
    expect(first.rewards).toHaveLength(2);
    expect(second.rewards[0].block_hash).not.toBe(first.rewards[1].block_hash);
    expect((await t.rpc('get_reward_history', { address: payee })).body.result).toMatchObject({ total: 0, rewards: [] });
    expect((await t.rpc('get_reward_history', { address: 'nope' })).body.error.code).toBeLessThan(0);
  });
});
