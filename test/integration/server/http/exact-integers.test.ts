// Integers past 2^53 never pass through a JSON number alone (docs/api.md "Exact integers"): a block may carry a
// validly signed transfer whose nonce is past 2^53 and whose amount is past the supply (it is simply never accepted),
// and every view of it still answers — with the exact values as decimal strings that round-trip.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeTransaction, txHash, type Transaction } from '../../../../src/kinds/transaction-codec.ts';
import { encodeAddress } from '../../../../src/crypto/address.ts';
import { toHash0x, toHex } from '../../../../src/util/bytes.ts';
import { encodeBlock } from '../../../../src/codec/block.ts';
import { makeBlock } from '../../../helpers/chain-fixtures.ts';
import { startRpcTestNode, type RpcTestNode } from '../../../helpers/rpc-node.ts';
import { transfer, wallet } from '../../../helpers/ledger-fixtures.ts';

const alice = wallet(91);
const bob = wallet(92);
const nonce = (1n << 60n) + 1n;
const amount = (1n << 63n) + 12_345n;
let t: RpcTestNode;

beforeAll(async () => {
  t = await startRpcTestNode([], false);
  await t.mine({ miner: alice.address });
});
afterAll(() => t?.close());

describe('exact integers', () => {
  it('shows a carried transfer with nonce 2^60+1 and an amount past the supply exactly in every view', async () => {
    const bytes = transfer(alice, bob.address, amount, nonce, { chainId: t.node.chain.params.chainId });
    const hash = toHash0x(txHash(decodeTransaction(bytes) as Transaction));
    const block = makeBlock(t.node.chain, { transactions: [bytes] });
    const submitted = await t.rpc('submit_block', { block: `0x${toHex(encodeBlock(block))}` });
    expect(submitted.body.result.status).toBe('accepted');
    await t.mine();

    const got = await t.rpc('get_block', { hash: submitted.body.result.hash, include_transactions: true });
    const inBlock = got.body.result.transactions[0];
    expect(inBlock.hash).toBe(hash);
    expect(BigInt(inBlock.nonce_exact)).toBe(nonce);
    expect(BigInt(inBlock.nonce)).not.toBe(nonce); // the JSON number alone has rounded it
    expect(inBlock.amount_exact).toBe('92233720368.54788153');

    const viewed = await t.rpc('get_transaction', { hash });
    expect(viewed.body.result).toMatchObject({ hash, nonce_exact: nonce.toString(), amount_exact: '92233720368.54788153', status: 'dropped' });
    const rest = (await t.get(`/api/v1/transactions/${hash}`)).body;
    expect(BigInt(rest.nonce_exact)).toBe(nonce);
  });

  it('gives balances, energy and nonces as exact strings too', async () => {
    const balance = (await t.rpc('get_balance', { address: encodeAddress(t.node.chain.params.hrp, alice.address) })).body.result;
    expect(balance.balance_exact).toBe(String(balance.balance));
    expect(balance.pending_balance_exact).toBe(String(balance.pending_balance));
    expect(balance).toMatchObject({ nonce_exact: '0', energy_exact: String(balance.energy) });
  });
});
