// The explorer's reads of the pool and the supply (docs/api.md "get_mempool", "get_supply"), on a real regtest node
// with its own ledger and mempool: pending transactions highest fee rate first, paged, with the whole pool's totals;
// bad paging refused with -32602; the supply agreeing with the emission schedule and the REST network info.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeAddress } from '../../../src/crypto/address.ts';
import { formatUnits } from '../../../src/crypto/amount.ts';
import { blockSubsidyUnits, halvingIntervalDaa } from '../../../src/consensus/emission.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { transfer, wallet } from '../../helpers/ledger-fixtures.ts';
import { startRpcTestNode, type RpcTestNode } from '../../helpers/rpc-node.ts';

const payer = wallet(91);
const payee = wallet(92);
let t: RpcTestNode;

const call = async (method: string, params: unknown = {}) => (await t.rpc(method, params)).body as { result?: any; error?: { code: number; message: string } };

beforeAll(async () => {
  t = await startRpcTestNode([], false);
  for (let i = 0; i < 4; i++) await t.mine({ miner: payer.address });
});
afterAll(() => t?.close());

describe('get_mempool', () => {
  it('lists pending transactions highest fee rate first, paged, with the totals of the whole pool', async () => {
    const fees = [1_000n, 9_000n, 4_000n];
    const sent: string[] = [];
    for (const [nonce, fee] of fees.entries()) {
      const raw = transfer(payer, payee.address, 10_000n, BigInt(nonce), { fee });
      const answer = await call('send_raw_transaction', { transaction: `0x${toHex(raw)}` });
      expect(answer.error).toBeUndefined();
      sent.push(answer.result.hash);
    }
    const all = (await call('get_mempool')).result;
    expect(all.total).toBe(3);
    expect(all.transactions.map((x: { hash: string }) => x.hash)).toEqual([sent[1], sent[2], sent[0]]);
    const rates = all.transactions.map((x: { fee_rate: number }) => x.fee_rate);
    expect(rates).toEqual([...rates].sort((a, b) => b - a));
    const first = all.transactions[0];
    expect(first).toMatchObject({ status: 'pending', from: encodeAddress(t.node.chain.params.hrp, payer.address), fee_exact: formatUnits(9_000n), block_hash: null });
    expect(first.fee_rate).toBeCloseTo(9_000 / first.size, 3);
    expect(all.total_bytes).toBe(all.transactions.reduce((s: number, x: { size: number }) => s + x.size, 0));
    expect(all.total_fees).toBe(formatUnits(14_000n));
    expect((await call('get_info')).result.mempool_size).toBe(all.total);

    const page = (await call('get_mempool', { limit: 1, offset: 1 })).result;
    expect(page).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(page.transactions.map((x: { hash: string }) => x.hash)).toEqual([sent[2]]);
    expect((await call('get_mempool', { offset: 5 })).result.transactions).toEqual([]);
  });

  it('refuses bad paging with -32602 and changes nothing', async () => {
    for (const params of [{ limit: 0 }, { limit: 1_001 }, { offset: -1 }, { limit: 'ten' }, { extra: 1 }]) {
      expect((await call('get_mempool', params)).error?.code, JSON.stringify(params)).toBe(-32602);
    }
    expect((await call('get_mempool')).result.total).toBe(3);
  });
});

describe('get_supply', () => {
  it('agrees with the emission schedule, the REST network info and itself', async () => {
    const supply = (await call('get_supply')).result;
    const rest = (await t.get('/api/v1/network/info')).body;
    expect(supply.emitted).toBe(rest.circulating_supply);
    expect(supply.max_supply).toBe(rest.total_supply);
    expect(supply.burnt).toBe('0');
    expect(supply.circulating).toBe(supply.emitted);
    const tip = t.node.chain.selectedTip();
    expect(supply.daa_score).toBe(tip.header.daaScore);
    expect(supply.block_subsidy).toBe(formatUnits(blockSubsidyUnits(tip.header.daaScore + 1)));
    expect(supply.next_halving_daa_score).toBe(halvingIntervalDaa);
    // Every block on this one-wide chain paid its subsidy: emitted = Σ subsidies of blocks 1..tip.
    let scheduled = 0n;
    for (let d = 1; d <= tip.header.daaScore; d++) scheduled += blockSubsidyUnits(d);
    expect(supply.emitted).toBe(formatUnits(scheduled));
    expect(Number(supply.fees_total)).toBeGreaterThanOrEqual(0);
  });
});
