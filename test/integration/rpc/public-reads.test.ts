// Public chain data is public (docs/auth.md "Public reads"): an address's committed balance and its history answer
// without credentials over JSON-RPC and REST; asking for the owner view still needs read_balance; a caller whose
// credentials grant read_balance keeps the owner view by default.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeAddress } from '../../../src/crypto/address.ts';
import { startRpcTestNode, type RpcTestNode } from '../../helpers/rpc-node.ts';
import { wallet } from '../../helpers/ledger-fixtures.ts';

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

// REST answers REST-shaped errors (docs/api.md "REST errors"): a status and {"error": {code, message, reason}}, never
// a JSON-RPC envelope — from the routes, from access control and from the rate limiter alike. Runs last: it spends
// the anonymous bucket of 127.0.0.1.
describe('REST errors', () => {
  const restShaped = async (res: Response, status: number, code: number, reason: string) => {
    const body = (await res.json()) as Record<string, any>;
    expect(res.status).toBe(status);
    expect(body).not.toHaveProperty('jsonrpc');
    expect(body.error).toMatchObject({ code, reason });
    expect(typeof body.error.message).toBe('string');
  };

  it('shapes route, credential, unknown-path and rate-limit failures alike', async () => {
    await restShaped(await fetch(`${t.base}/api/v1/blocks/999999`), 404, -40004, 'block_not_found');
    await restShaped(await fetch(`${t.base}/api/v1/addresses/weft1bad/balance`), 400, -40002, 'wrong_network');
    await restShaped(await fetch(`${t.base}/api/v1/nothing-here`), 404, -32601, 'no_such_route');
    await restShaped(await fetch(`${t.base}/api/v1/addresses/${address}/balance`, { headers: { 'x-api-key': 'wk_not_a_key' } }), 401, -32001, 'invalid_api_key');
    let last: Response | undefined;
    for (let i = 0; i < 150; i++) {
      last = await fetch(`${t.base}/api/v1/blocks/latest`);
      if (last.status === 429) break;
      await last.arrayBuffer();
    }
    await restShaped(last!, 429, -32005, 'rate_limited');
    expect(last!.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
