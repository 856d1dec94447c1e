// The typed RPC contract (docs/api.md "Typed results"): every method's result is a zod schema (src/rpc/result-schemas.ts
// and src/rpc/methods/), from which run's type, rpc.discover's result schemas and the web's actions' types
// (packages/client, which the web app uses) all come. Results are not parsed while serving, so this file is where they are checked: each
// example, and a real answer of every method from a running node (regtest, its own ledger, mempool, wallet and
// miners), parse with their schema and carry no field the schema does not name.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import WebSocket from 'ws';
import type { z } from 'zod';
import { encodeBlock } from '../../../src/codec/block.ts';
import { decodeAddress, encodeAddress } from '../../../src/crypto/address.ts';
import { coinsToUnits } from '../../../src/crypto/amount.ts';
import { regtestParams } from '../../../src/consensus/params.ts';
import type { RpcMethodResult } from '../../../src/rpc/method.ts';
import { rpcMethods } from '../../../src/rpc/method-table.ts';
import { getBalance as getBalanceMethod } from '../../../src/rpc/methods/get-balance.ts';
import { getBlock as getBlockMethod } from '../../../src/rpc/methods/get-block.ts';
import { buildOpenRpc } from '../../../src/rpc/openrpc.ts';
import { resultJsonSchema } from '../../../src/rpc/result-schemas.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { actions as clientActions, type GetBalanceReturnType, type GetBlockReturnType, type getInfo, type getMiningStats } from '../../../packages/client/src/index.ts';
import { transfer, wallet } from '../../helpers/ledger-fixtures.ts';
import { startRpcTestNode, type RpcTestNode } from '../../helpers/rpc-node.ts';
import { contractBytes } from '../../helpers/vm-contracts.ts';

const byName = new Map(rpcMethods.map((m) => [m.name, m]));
const checked = new Set<string>();

/** Parses `value` with the method's result schema; the parse strips unknown fields, so equality means there were none. */
function expectResult(name: string, value: unknown): void {
  const method = byName.get(name)!;
  const parsed = method.result.safeParse(value);
  expect(parsed.success ? [] : parsed.error.issues, `${name} result`).toEqual([]);
  expect(parsed.data, `${name}: fields the result schema does not name`).toEqual(value);
  checked.add(name);
}

describe('result schemas', () => {
  it("every method's example result parses with its result schema", () => {
    const withExamples = rpcMethods.filter((m) => m.example !== undefined);
    expect(withExamples.length).toBeGreaterThan(0);
    for (const m of withExamples) {
      const parsed = m.result.safeParse(m.example!.result);
      expect(parsed.success ? [] : parsed.error.issues, m.name).toEqual([]);
      expect(parsed.data, `${m.name}: example fields the schema does not name`).toEqual(m.example!.result);
    }
  });

  it('rpc.discover shows each result schema as JSON Schema, objects without additionalProperties: false', () => {
    const doc = buildOpenRpc(rpcMethods, { version: 'test', network: 'regtest' }) as { methods: { name: string; result: { schema: Record<string, unknown> } }[] };
    for (const m of rpcMethods) {
      const schema = doc.methods.find((d) => d.name === m.name)!.result.schema;
      expect(schema, m.name).toEqual(resultJsonSchema(m.result));
      // An object, or (get_proof's two answers) a choice of objects.
      const shapes = (schema.anyOf as Record<string, unknown>[] | undefined) ?? [schema];
      for (const shape of shapes) expect(shape.type, m.name).toBe('object');
      expect(JSON.stringify(schema), m.name).not.toContain('"additionalProperties":false');
      expect(JSON.stringify(schema), m.name).not.toContain(String(Number.MAX_SAFE_INTEGER));
    }
    const block = doc.methods.find((d) => d.name === 'get_block')!.result.schema as { required: string[]; properties: Record<string, { type?: unknown }> };
    expect(block.required).toEqual(expect.arrayContaining(['height', 'hash', 'previous_hash', 'timestamp', 'difficulty', 'nonce', 'merkle_root', 'transaction_count', 'size', 'miner', 'gpu_mining']));
    expect(block.properties.nonce!.type).toBe('integer');
    expect(block.properties.previous_hash).toMatchObject({ anyOf: expect.arrayContaining([{ type: 'null' }]) });
  });

  it("the client's actions each name the method whose types they take (packages/client, used by the web app)", async () => {
    const named = new Set<string>();
    for (const [name, action] of Object.entries(clientActions)) {
      const wire: string[] = [];
      await action({ request: async (method) => void wire.push(method) }, {} as never);
      // getBlockTemplate ↔ get_block_template: the action's name is its method's in camelCase.
      expect(wire, name).toEqual([name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)]);
      expect(byName.has(wire[0]!), name).toBe(true);
      named.add(wire[0]!);
    }
    // Every method has its action but the WebSocket's own subscribe/unsubscribe (NodeClient.subscribe).
    expect([...named].sort()).toEqual(rpcMethods.map((m) => m.name).filter((n) => n !== 'subscribe' && n !== 'unsubscribe').sort());
  });

  it('gives the actions the types of the schemas', () => {
    expectTypeOf<GetBalanceReturnType>().toEqualTypeOf<z.output<typeof getBalanceMethod.result>>();
    expectTypeOf<GetBlockReturnType>().toEqualTypeOf<RpcMethodResult<typeof getBlockMethod>>();
    expectTypeOf<GetBlockReturnType['nonce']>().toEqualTypeOf<bigint | number>();
    expectTypeOf<Awaited<ReturnType<typeof getInfo>>['address_prefix']>().toEqualTypeOf<string>();
    expectTypeOf<Awaited<ReturnType<typeof getMiningStats>>['hash_rate_series'][number]['network_hashes_per_second']>().toEqualTypeOf<number>();
  });
});

describe('real answers match their schemas', () => {
  let t: RpcTestNode;
  beforeAll(async () => {
    t = await startRpcTestNode([], false);
  });
  afterAll(async () => {
    await t?.close();
  });

  const result = async (method: string, params?: unknown): Promise<any> => {
    const res = await t.rpc(method, params);
    if (res.body.error) throw new Error(`${method}: ${JSON.stringify(res.body.error)}`);
    expectResult(method, res.body.result);
    return res.body.result;
  };
  async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  it('of every method, over HTTP and the WebSocket', async () => {
    const hrp = regtestParams.hrp;
    const miner = (await result('create_address', {})).address as string;
    const outsider = wallet(77);
    const outsiderText = encodeAddress(hrp, outsider.address);

    await result('start_mining', { miner_address: miner, threads: 1, gpu_mining: false });
    await until('mined coins', async () => ((await result('get_balance', { address: miner })).balance >= 2 ? true : undefined));
    await result('get_mining_info');
    const sent = await result('send_transaction', { from: miner, to: outsiderText, amount: 1.25, fee: 0.01 });
    await result('get_transaction', { hash: sent.hash }); // pending or already in a block
    const confirmed = await until('confirmation', async () => {
      const tx = await result('get_transaction', { hash: sent.hash });
      return tx.confirmations >= 1 ? tx : undefined;
    });
    expect(confirmed.status).toMatch(/confirmed|final/);

    // Contracts (docs/contracts.md): deploy the counter, read its state once mined, call it as a view and as a transaction.
    const deployed = await result('deploy_smart_contract', { bytecode: `0x${toHex(contractBytes('counter'))}`, constructor_params: [5], gas_limit: 2_000_000, gas_price_units: 1, deployer_address: miner });
    const counter = { contract_address: deployed.contract_address, variable_name: 'count', key: '' };
    await until('the deployed counter', async () => ((await t.rpc('get_contract_state', counter)).body.result?.exists ? true : undefined));
    await result('get_contract_state', { ...counter, proof: true });
    // A contract transaction's own fields, in its transaction and in its block (named by the schemas, always checked).
    const deployTx = await result('get_transaction', { hash: deployed.transaction_hash });
    expect(deployTx).toMatchObject({ kind: 'contract_deploy', contract_address: deployed.contract_address, code_size: contractBytes('counter').length });
    await result('get_block', { hash: deployTx.block_hash });
    expect((await result('call_smart_contract', { contract_address: deployed.contract_address, method: 'get', parameters: [], caller_address: miner })).mode).toBe('view');
    expect((await result('call_smart_contract', { contract_address: deployed.contract_address, method: 'increment', parameters: [], caller_address: miner })).mode).toBe('transaction');

    // Agent accounts and escrows from the node wallet (docs/settlement.md): the miner is the agent, a second wallet
    // address the client, a third the arbiter; each method's answer is checked once it succeeds.
    const clientAddr = (await result('create_address', {})).address as string;
    const arbiterAddr = (await result('create_address', {})).address as string;
    const sessionPub = (await result('create_address', {})).public_key as string;
    const toClient = await result('send_transaction', { from: miner, to: clientAddr, amount: 0.3, fee: 0.001 });
    await result('send_transaction', { from: miner, to: arbiterAddr, amount: 0.01, fee: 0.001 });
    await until('the client funded', async () => ((await result('get_transaction', { hash: toClient.hash })).confirmations >= 1 ? true : undefined));
    await result('create_agent_account', { agent_account: miner, fee: 0.001 });
    await until('the agent account', async () => ((await result('get_agent_account', { agent_account: miner })).exists ? true : undefined));
    await result('add_session_key', { agent_account: miner, public_key: sessionPub, allowed_kinds: ['escrow_claim'], tx_cap: 1, total_cap: 1, expiry_daa_score: 1_000_000, fee: 0.001 });
    await result('fund_energy_pool', { from: clientAddr, agent_account: miner, amount: 0.01, fee: 0.001 });
    const paid = await result('create_escrow', { from: clientAddr, agent_account: miner, amount: 0.01, task_id: 'schemas-1', timeout_in: 300, dispute_window: 1, fee: 0.001 });
    const disputed = await result('create_escrow', { from: clientAddr, agent_account: miner, amount: 0.01, task_id: 'schemas-2', timeout_in: 300, arbiter: arbiterAddr, fee: 0.001 });
    const lapsed = await result('create_escrow', { from: clientAddr, agent_account: miner, amount: 0.01, task_id: 'schemas-3', timeout_in: 4, fee: 0.001 });
    const escrowStatus = async (id: string) => (await result('get_escrow', { escrow_id: id, proof: true })).escrow?.status as string | undefined;
    await until('the escrows', async () => ((await escrowStatus(disputed.escrow_id)) === 'EscrowLocked' && (await escrowStatus(paid.escrow_id)) === 'EscrowLocked' ? true : undefined));
    await result('claim_escrow', { escrow_id: paid.escrow_id, fee: 0.001 });
    await result('dispute_escrow', { escrow_id: disputed.escrow_id, from: clientAddr, fee: 0.001 });
    await until('the dispute', async () => ((await escrowStatus(disputed.escrow_id)) === 'Disputed' ? true : undefined));
    await result('resolve_escrow', { escrow_id: disputed.escrow_id, agent_share: 0.004, fee: 0.001 });
    await until('the timeout', async () => ((await result('get_escrow', { escrow_id: lapsed.escrow_id })).escrow?.timed_out ? true : undefined));
    await result('reclaim_escrow', { escrow_id: lapsed.escrow_id, fee: 0.001 });
    await result('set_agent_controller', { agent_account: miner, controller: sessionPub, fee: 0.001 });
    await result('revoke_session_key', { agent_account: miner, revoke_session_key_id: 1, fee: 0.001 });
    await result('freeze_agent_account', { agent_account: miner, frozen: true, fee: 0.001 });
    await until('settled', async () => ((await escrowStatus(paid.escrow_id)) === 'Claimed' && (await escrowStatus(lapsed.escrow_id)) === 'Refunded' ? true : undefined));
    await result('stop_mining');

    // A transfer signed outside the node, left pending (mining is stopped).
    const raw = transfer(outsider, decodeAddress(miner, hrp), coinsToUnits(0.5), 0n);
    const pending = await result('send_raw_transaction', { transaction: `0x${toHex(raw)}` });
    expect((await result('get_transaction', { hash: pending.hash })).status).toBe('pending');
    expect((await result('get_mempool', {})).transactions.map((x: { hash: string }) => x.hash)).toContain(pending.hash);
    await result('get_supply');
    const history = await result('get_transaction_history', { address: outsiderText, include_pending: true });
    expect(history.transactions.map((x: { type: string }) => x.type)).toEqual(['outgoing', 'incoming']);
    expect((await result('get_reward_history', { address: miner, limit: 5 })).rewards.length).toBeGreaterThan(0);
    await result('get_transaction_proof', { hash: sent.hash });

    expect((await result('get_balance', { address: outsiderText, privacy_view: 'owner' })).privacy_view).toBe('owner');
    expect((await result('get_balance', { address: outsiderText, privacy_view: 'public' })).privacy_view).toBe('public');
    await result('get_proof', { address: outsiderText });
    await result('get_agent_account', { agent_account: outsiderText, proof: true });
    await result('get_escrow', { escrow_id: `0x${'07'.repeat(32)}`, proof: true });

    const carrier = await result('get_block', { hash: confirmed.block_hash });
    expect(carrier.transactions.map((x: { hash: string }) => x.hash)).toContain(sent.hash);
    await result('get_block', { height: 0, include_transactions: false });
    await result('get_latest_block', {});
    await result('get_network_info');
    await result('get_info');
    await result('get_height');
    await result('get_block_height');
    await result('get_mining_stats', { period: '1h' });
    await result('get_peers');

    // Privacy (docs/privacy.md "RPC"): a stealth account, a one-time key for it, a shield left pending, a ring signature.
    const stealth = await result('create_address', { address_type: 'stealth' });
    await result('generate_stealth_address', { public_spend_key: stealth.public_spend_key, public_view_key: stealth.public_view_key, payment_id: '0x0102030405060708' });
    const shield = await result('create_confidential_transaction', { inputs: [{ address: miner, amount: 0.011 }], outputs: [{ address: stealth.address, amount: 0.01 }], fee: 0.001 });
    expect(shield).toMatchObject({ kind: 'shield', status: 'pending' });
    expect((await result('get_balance', { address: stealth.address, privacy_view: 'encrypted' })).confidential_outputs).toEqual([]);
    expect((await result('get_transaction', { hash: shield.hash })).kind).toBe('shield');

    // Every kind's own fields, in its block and as a transaction: every block of this chain and the mempool.
    const kinds = new Set<string>();
    for (let height = (await result('get_block_height')).height; height > 0; height--) {
      for (const x of (await result('get_block', { height })).transactions as { hash: string; kind: string }[]) {
        kinds.add(x.kind);
        await result('get_transaction', { hash: x.hash });
      }
    }
    for (const { hash } of (await result('get_mempool', {})).transactions as { hash: string }[]) kinds.add((await result('get_transaction', { hash })).kind);
    expect([...kinds]).toEqual(expect.arrayContaining(['transfer', 'contract_deploy', 'contract_call', 'agent_create', 'agent_add_session_key', 'escrow_create', 'escrow_claim', 'escrow_dispute', 'escrow_resolve', 'escrow_reclaim', 'agent_fund_energy_pool', 'agent_set_controller', 'agent_revoke_session_key', 'agent_freeze', 'shield']));
    // No confidential output is on chain yet (the shield is pending): no ring can hide the signer, so none is made.
    expect((await t.rpc('sign_message', { address: stealth.address, message: 'typed results', signature_type: 'ring' })).body.error).toMatchObject({ code: -40006, data: { reason: 'not_enough_decoys' } });
    expect(await result('verify_message', { address: stealth.address, message: 'typed results', signature: '0x00', signature_type: 'ring' })).toMatchObject({ valid: false, ring_size: null });

    const signed = await result('sign_message', { address: miner, message: 'typed results' });
    expect((await result('verify_message', { address: miner, message: 'typed results', signature: signed.signature })).valid).toBe(true);

    await result('get_block_template', { miner_address: miner });
    const tip = t.node.chain.selectedTip();
    expect((await result('submit_block', { block: `0x${toHex(encodeBlock(t.node.chain.getBlock(tip.id)!))}` })).status).toBe('duplicate');

    const ws = new WebSocket(`ws://127.0.0.1:${t.node.api.wsPort}/`, { headers: { 'x-api-key': readFileSync(t.node.apiCookiePath, 'utf8').trim() } });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const answers: any[] = [];
    ws.on('message', (data) => answers.push(JSON.parse(data.toString())));
    const wsCall = async (method: string, params: unknown, id: number) => {
      ws.send(JSON.stringify({ jsonrpc: '2.0', method, params, id }));
      const answer = await until(`${method} over ws`, async () => answers.find((a) => a.id === id), 10_000);
      expect(answer.error).toBeUndefined();
      expectResult(method, answer.result);
    };
    await wsCall('subscribe', { topic: 'new_blocks' }, 41);
    await wsCall('unsubscribe', { subscription: 41 }, 42);
    ws.close();

    expect([...checked].sort()).toEqual(rpcMethods.map((m) => m.name).sort());
  }, 180_000);
});
