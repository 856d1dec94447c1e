// The whole ledger path on one real node with its own ledger, mempool and wallet (no test ports): the wallet's
// address mines coins, send_transaction pays another wallet address, the transfer is confirmed in the chain, the
// balances move by exactly amount and fee, and get_proof answers a proof that verifies against the header.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transaction } from '../../src/kinds/transaction-codec.ts';
import { decodeAddress, encodeAddress } from '../../src/crypto/address.ts';
import type { LightProofError } from '../../src/light/errors.ts';
import { verifyTransactionProof } from '../../src/light/verify-transaction.ts';
import { coinsToUnits } from '../../src/crypto/amount.ts';
import { regtestParams } from '../../src/consensus/params.ts';
import { decodeAccount } from '../../src/state/account-codec.ts';
import { proofFromJson } from '../../src/state/proof.ts';
import { verifyProof } from '../../src/state/proof-verify.ts';
import { fromHex, toHash0x } from '../../src/util/bytes.ts';
import { startRpcTestNode, type RpcTestNode } from '../helpers/rpc-node.ts';

let t: RpcTestNode;
beforeAll(async () => {
  t = await startRpcTestNode([], false);
});
afterAll(async () => {
  await t?.close();
});

const result = async (method: string, params?: unknown) => {
  const res = await t.rpc(method, params);
  if (res.body.error) throw new Error(`${method}: ${JSON.stringify(res.body.error)}`);
  return res.body.result;
};

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('wallet → mining → transfer → confirmation → proof', () => {
  it('moves exactly amount + fee and proves the receiver balance against the chain', async () => {
    const miner = (await result('create_address', { wallet_name: 'default' })).address as string;
    const receiver = (await result('create_address', { wallet_name: 'default' })).address as string;
    await result('start_mining', { miner_address: miner, threads: 1, gpu_mining: false });
    await until('mined coins', async () => {
      const balance = await result('get_balance', { address: miner });
      return balance.balance >= 2 ? balance : undefined;
    });
    await result('stop_mining');

    const before = await result('get_balance', { address: miner });
    const sent = await result('send_transaction', { from: miner, to: receiver, amount: 1.25, fee: 0.01 });
    expect(sent.hash).toMatch(/^0x[0-9a-f]{64}$/);
    // The transfer is pending until blocks carry and merge it: mine again to confirm it.
    await result('start_mining', { miner_address: receiver, threads: 1, gpu_mining: false });
    const tx = await until('confirmation', async () => {
      const got = await t.rpc('get_transaction', { hash: sent.hash });
      return got.body.result?.confirmations >= 1 ? got.body.result : undefined;
    });
    await result('stop_mining');
    expect(tx).toMatchObject({ hash: sent.hash, from: miner, to: receiver, amount: 1.25, fee: 0.01 });

    const received = await result('get_balance', { address: receiver });
    // The receiver also mined after the transfer, so compare the transfer's share through the history.
    const history = await result('get_transaction_history', { address: receiver, limit: 10, offset: 0 });
    expect(JSON.stringify(history)).toContain(sent.hash);
    expect(received.balance).toBeGreaterThanOrEqual(1.25);
    const after = await result('get_balance', { address: miner });
    // The miner stopped before sending, and no block of its own was found after: it lost exactly amount + fee.
    expect(coinsToUnits(before.balance) - coinsToUnits(after.balance)).toBe(coinsToUnits(1.26));

    const proof = await result('get_proof', { address: receiver });
    const block = await result('get_block', { hash: proof.block_hash, include_transactions: false });
    expect(block.hash).toBe(proof.block_hash);
    const header = t.node.chain.get(proof.block_hash.slice(2))!.header;
    const verified = verifyProof(header.stateRoot, fromHex(proof.key.slice(2)), proofFromJson(proof.proof));
    expect(verified.exists).toBe(true);
    if (verified.exists) expect(decodeAccount(verified.value).balance).toBeGreaterThan(0n);
    expect(decodeAddress(receiver, regtestParams.hrp).length).toBe(33);

    // The transfer's inclusion proof, checked the way a light client does: bytes → hash, path → the header's tx
    // root, the transfer read from its own bytes. A bent path and another transaction's hash are refused.
    const txProof = await result('get_transaction_proof', { hash: sent.hash });
    const included = verifyTransactionProof(t.node.chain, sent.hash, txProof);
    expect(included.blockHash).toBe(txProof.block_hash);
    expect(encodeAddress(regtestParams.hrp, (included.tx as Transaction).to)).toBe(receiver);
    expect((included.tx as Transaction).amount).toBe(coinsToUnits(1.25));
    const reasonOf = (f: () => unknown) => { try { f(); return 'accepted'; } catch (e) { return (e as LightProofError).reason; } };
    const stranger = toHash0x(new Uint8Array(32).fill(9));
    const bent = txProof.path.length > 0
      ? { ...txProof, path: [stranger, ...txProof.path.slice(1)] }
      : { ...txProof, leaf_count: 2, path: [stranger] }; // a one-transaction block: claim a sibling it does not have
    expect(reasonOf(() => verifyTransactionProof(t.node.chain, sent.hash, bent))).toBe('root-mismatch');
    expect(reasonOf(() => verifyTransactionProof(t.node.chain, sent.hash, { ...txProof, block_hash: toHash0x(new Uint8Array(32)) }))).toBe('header-unknown');
    expect(reasonOf(() => verifyTransactionProof(t.node.chain, toHash0x(new Uint8Array(32).fill(1)), txProof))).toBe('proof-invalid');

    // Pending (mining is stopped) and unknown transactions have no inclusion proof: -32000 with the reason.
    const pending = await result('send_transaction', { from: miner, to: receiver, amount: 0.5, fee: 0.01 });
    const refused = await t.rpc('get_transaction_proof', { hash: pending.hash });
    expect(refused.body.error).toMatchObject({ code: -32000, data: { reason: 'transaction_pending' } });
    const unknown = await t.rpc('get_transaction_proof', { hash: toHash0x(new Uint8Array(32).fill(3)) });
    expect(unknown.body.error).toMatchObject({ code: -32000, data: { reason: 'transaction_not_found' } });
  }, 180_000);
});

describe('the A2A endpoint on the running node', () => {
  it('serves the agent card with the node OAuth server and answers A2A JSON-RPC at /a2a', async () => {
    const card = await t.get('/.well-known/agent-card.json');
    expect(card.status).toBe(200);
    expect(card.headers.get('etag')).toBeTruthy();
    expect(card.body.supportedInterfaces.map((i: { protocolBinding: string }) => i.protocolBinding)).toEqual(expect.arrayContaining(['JSONRPC', 'HTTP+JSON']));
    expect(JSON.stringify(card.body.securitySchemes)).toContain('/.well-known/oauth-authorization-server');
    const res = await fetch(`${t.base}/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'no-such-task' } }),
    });
    const body = (await res.json()) as { error?: { code: number } };
    expect(body.error?.code).toBe(-32001);
  });
});
