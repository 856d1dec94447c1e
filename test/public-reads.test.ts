// Public chain data is public (docs/auth.md "Public reads"): an address's committed balance and its history answer
// without credentials over JSON-RPC and REST; asking for the owner view still needs read_balance; a caller whose
// credentials grant read_balance keeps the owner view by default.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeAddress } from '../src/crypto/address.ts';
import { startRpcTestNode, type RpcTestNode } from './helpers/rpc-node.ts';
import { wallet } from './helpers/ledger-fixtures.ts';

const miner = wallet(77);
let t: RpcTestNode;
let address: string;

const anonymous = async (method: string, params: unknown) => {
  const res = await fetch(`${t.base}/api/v1/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', method, params, id: 1 }) });
  return { status: res.status, body: (await res.json()) as { result?: Record<string, unknown>; error?: { code: number } } };
};

beforeAll(async () => {
  t = await startRpcTestNode([], false);
  for (let i = 0; i < 3; i++) await t.mine({ miner: miner.address });
  address = encodeAddress(t.node.chain.params.hrp, miner.address);
});
afterAll(() => t?.close());

describe('public reads', () => {
  it('answers an anonymous get_balance with the public view, saying so', async () => {
    const { status, body } = await anonymous('get_balance', { address });
    expect(status).toBe(200);
    expect(body.result).toMatchObject({ address, privacy_view: 'public' });
    expect(body.result!.balance).toBeGreaterThan(0);
    expect(body.result!.pending_balance).toBe(body.result!.balance);
    expect(body.result!.state_root).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('still needs read_balance for the owner view, and gives it by default to a caller who has it', async () => {
    const refused = await anonymous('get_balance', { address, privacy_view: 'owner' });
    expect([refused.status, refused.body.error?.code]).toEqual([401, -32001]);
    const owner = await t.rpc('get_balance', { address });
    expect(owner.body.result).toMatchObject({ address, privacy_view: 'owner' });
  });

  it('answers an anonymous history over JSON-RPC', async () => {
    const { status, body } = await anonymous('get_transaction_history', { address, limit: 5 });
    expect(status).toBe(200);
    expect(body.result).toHaveProperty('transactions');
  });

  it('answers the REST balance and transactions anonymously', async () => {
    const balance = await fetch(`${t.base}/api/v1/addresses/${address}/balance`);
    expect(balance.status).toBe(200);
    const b = (await balance.json()) as Record<string, unknown>;
    expect(b).toMatchObject({ address });
    expect(b.pending_balance).toBe(b.balance);
    const history = await fetch(`${t.base}/api/v1/addresses/${address}/transactions?limit=5`);
    expect(history.status).toBe(200);
    expect(await history.json()).toHaveProperty('transactions');
  });
});
