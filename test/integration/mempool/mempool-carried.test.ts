// A transaction a block carries, before a chain block accepts it, stays pending to the API: the pool takes it out of
// its candidates (no template carries it twice, test/integration/mempool/mempool-state-rules.test.ts) but not out of sight — history with
// include_pending and get_transaction keep showing it until the merging block confirms it. Before, it vanished from
// both for a block (history empty, get_transaction "dropped: invalidated") although it was about to be confirmed.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { mineOneBlock } from '../../../e2e/helpers/submit-block.ts';
import { startRpcTestNode, type RpcTestNode } from '../../helpers/rpc-node.ts';

let node: RpcTestNode | undefined;
afterEach(async () => {
  await node?.close();
  node = undefined;
});

describe('a carried transaction', () => {
  it('stays pending in history and get_transaction until a chain block accepts it, then is confirmed once', async () => {
    node = await startRpcTestNode([], false);
    const n = node;
    const key = readFileSync(n.node.apiCookiePath, 'utf8').trim();
    const address = (await n.rpc('create_address', {})).body.result.address as string;
    for (let i = 0; i < 2; i++) await mineOneBlock(n.base, key, address);
    const hashes: string[] = [];
    for (let i = 0; i < 3; i++) hashes.push((await n.rpc('send_transaction', { from: address, to: address, amount: 0.001 })).body.result.hash);
    const history = async () => (await n.rpc('get_transaction_history', { address, limit: 20, include_pending: true })).body.result;
    const statusOf = async (hash: string) => (await n.rpc('get_transaction', { hash })).body.result?.status as string | undefined;

    await mineOneBlock(n.base, key, address); // carries the three; no chain block has accepted them yet
    expect((await history()).transactions).toHaveLength(3);
    for (const hash of hashes) expect(await statusOf(hash)).toBe('pending');

    await mineOneBlock(n.base, key, address); // merges the carrier: accepted
    const after = await history();
    expect(after.total).toBe(3);
    expect(after.transactions.map((t: { hash: string }) => t.hash).sort()).toEqual([...hashes].sort());
    for (const hash of hashes) expect(['confirmed', 'final']).toContain(await statusOf(hash));
  }, 60_000);
});
