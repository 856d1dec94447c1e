// The three contract methods on a real regtest node with its own ledger, mempool and wallet: deploy the token
// (intrinsic + constructor gas), read its state with a proof, call it as a view and as a transaction (chosen by
// what the call does), and the bad inputs of issue 16 answered -40007 / -32602 / -40002 with nothing changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeBlock } from '../../../src/codec/block.ts';
import { decodeHeader } from '../../../src/codec/header.ts';
import { searchNonce } from '../../../src/consensus/pow.ts';
import { decodeAddress } from '../../../src/crypto/address.ts';
import { proofFromJson } from '../../../src/state/proof.ts';
import { verifyStateRecord } from '../../../src/state/proof-verify.ts';
import { fromHex, toHex } from '../../../src/util/bytes.ts';
import { contractStorageId } from '../../../src/vm/contract-state.ts';
import { callIntrinsicGas, deployIntrinsicGas } from '../../../src/vm/gas-schedule.ts';
import { contractBytes, goldenGas } from '../../helpers/vm-contracts.ts';
import { startRpcTestNode, type RpcTestNode } from '../../helpers/rpc-node.ts';
import { runModule } from '../../helpers/wasm-module.ts';

let t: RpcTestNode;
let owner: string;
let other: string;

/** Mines the pool's transactions through get_block_template, then one more block so a chain block accepts them. */
async function mineTemplate(): Promise<void> {
  const template = (await t.rpc('get_block_template', { miner_address: owner })).body.result;
  const header = decodeHeader(fromHex(template.header.slice(2)));
  const found = searchNonce(fromHex(template.pre_pow_hash.slice(2)), BigInt(template.target), 0n, 5_000_000);
  const block = encodeBlock({ header: { ...header, nonce: found.nonce! }, transactions: template.transactions.map((h: string) => fromHex(h.slice(2))) });
  expect((await t.rpc('submit_block', { block: `0x${toHex(block)}` })).body.result.status).toBe('accepted');
  await t.mine();
}

beforeAll(async () => {
  t = await startRpcTestNode([], false);
  owner = (await t.rpc('create_address', {})).body.result.address;
  other = (await t.rpc('create_address', {})).body.result.address;
  const hrp = t.node.chain.params.hrp;
  for (let i = 0; i < 3; i++) await t.mine({ miner: decodeAddress(owner, hrp) });
});
afterAll(() => t?.close());

describe('deploy_smart_contract, get_contract_state, call_smart_contract', () => {
  let token = '';

  it('deploys the token: the dry run gives intrinsic + constructor gas and the address', async () => {
    const code = contractBytes('token');
    const answer = await t.rpc('deploy_smart_contract', { bytecode: `0x${toHex(code)}`, constructor_params: [1_000_000], gas_limit: 5_000_000, gas_price_units: 1, deployer_address: owner });
    expect(answer.body.error).toBeUndefined();
    expect(answer.body.result).toMatchObject({ status: 'pending', gas_used: Number(deployIntrinsicGas(code.length, 9) + goldenGas.tokenInit) });
    token = answer.body.result.contract_address;
    await mineTemplate();
    const tx = await t.rpc('get_transaction', { hash: answer.body.result.transaction_hash });
    expect(tx.body.result).toMatchObject({ kind: 'contract_deploy', contract_address: token, status: 'confirmed' });
  });

  it('reads a balance by (variable, key) with a proof that verifies against the header', async () => {
    const answer = await t.rpc('get_contract_state', { contract_address: token, variable_name: 'balances', key: owner, proof: true });
    expect(answer.body.result).toMatchObject({ exists: true, value: `0x${toHex(new Uint8Array(new BigUint64Array([1_000_000n]).buffer))}` });
    const hrp = t.node.chain.params.hrp;
    const p = answer.body.result.proof;
    const verified = verifyStateRecord({
      stateRoot: fromHex(p.state_root.slice(2)),
      namespace: 'contract_storage',
      id: contractStorageId(decodeAddress(token, hrp), 'balances', decodeAddress(owner, hrp)),
      proof: proofFromJson(p.proof),
    });
    expect(verified.exists).toBe(true);
    const missing = await t.rpc('get_contract_state', { contract_address: token, variable_name: 'balances', key: other });
    expect(missing.body.result).toMatchObject({ exists: false, value: null });
  });

  it('answers a read-only call as a view, without a transaction', async () => {
    const answer = await t.rpc('call_smart_contract', { contract_address: token, method: 'balance_of', parameters: [owner], caller_address: owner, gas_limit: 1_000_000 });
    expect(answer.body.result).toMatchObject({
      mode: 'view',
      return_value: [{ type: 'u64', value: '1000000' }],
      gas_used: Number(callIntrinsicGas('balance_of'.length, 34) + goldenGas.tokenBalanceOf),
    });
    expect(answer.body.result.transaction_hash).toBeUndefined();
  });

  it('sends a state-changing call as a transaction signed by the caller, which the chain then accepts', async () => {
    const answer = await t.rpc('call_smart_contract', { contract_address: token, method: 'transfer', parameters: [other, '250'], caller_address: owner, gas_limit: 1_000_000 });
    expect(answer.body.result).toMatchObject({ mode: 'transaction', status: 'pending', return_value: [{ type: 'bool', value: true }] });
    await mineTemplate();
    const state = await t.rpc('get_contract_state', { contract_address: token, variable_name: 'balances', key: other });
    expect(state.body.result.value).toBe(`0x${toHex(new Uint8Array(new BigUint64Array([250n]).buffer))}`);
    const dry = await t.rpc('call_smart_contract', { contract_address: token, method: 'transfer', parameters: [other, '1'], caller_address: owner, dry_run: true });
    expect(dry.body.result).toMatchObject({ mode: 'view' });
  });

  it('answers every bad input with a coded error and changes nothing', async () => {
    const before = (await t.rpc('get_balance', { address: owner })).body.result;
    const bad = async (method: string, params: Record<string, unknown>) => (await t.rpc(method, params)).body.error;
    const deploy = (bytecode: Uint8Array, extra: Record<string, unknown> = {}) =>
      bad('deploy_smart_contract', { bytecode: `0x${toHex(bytecode)}`, constructor_params: [], gas_limit: 5_000_000, gas_price_units: 1, deployer_address: owner, ...extra });
    expect(await deploy(runModule([0xa8]))).toMatchObject({ code: -40007, data: { reason: 'module_rejected', rule: 'float' } });
    expect(await deploy(runModule([0xfd, 0x0c, ...new Array(16).fill(0), 0x1a]))).toMatchObject({ code: -40007, data: { rule: 'simd' } });
    expect(await deploy(runModule([], { memory: [0x00, 1] }))).toMatchObject({ code: -40007, data: { rule: 'memory' } });
    expect(await deploy(new Uint8Array(70_000))).toMatchObject({ code: -32602 }); // over the size limit (params bound)
    expect(await deploy(contractBytes('token'), { gas_limit: 50_000_000 })).toMatchObject({ code: -40007, data: { reason: 'gas_limit_too_high' } });
    expect(await deploy(contractBytes('faulty'), { gas_limit: 100_000 })).toMatchObject({ code: -40007, data: { reason: 'gas_limit_too_low' } });
    const call = (method: string, params: unknown[], extra: Record<string, unknown> = {}) =>
      bad('call_smart_contract', { contract_address: token, method, parameters: params, caller_address: owner, ...extra });
    expect(await call('mint', [])).toMatchObject({ code: -40007, data: { reason: 'no_entry' } });
    expect(await call('__start', [])).toMatchObject({ code: -40007, data: { reason: 'no_entry' } });
    expect(await call('transfer', [other, '99999999999'])).toMatchObject({ code: -40007, data: { reason: 'revert', message: 'insufficient balance' } });
    expect(await call('transfer', [{ type: 'u64', value: '-1' }])).toMatchObject({ code: -32602 });
    expect(await bad('get_contract_state', { contract_address: owner, variable_name: 'balances', key: '' })).toMatchObject({ code: -40002 });
    expect(await bad('get_contract_state', { contract_address: token, variable_name: 'bad-name', key: '' })).toMatchObject({ code: -32602 });
    expect((await t.rpc('get_balance', { address: owner })).body.result).toEqual(before);
  });
});

describe('contract fees as paid (issue 32)', () => {
  const units = (coins: string): bigint => {
    const [whole, fraction = ''] = coins.split('.');
    return BigInt(whole!) * 100_000_000n + BigInt(fraction.padEnd(8, '0'));
  };

  it("takes gas_price in coins (the seed's form) and shows the fee paid, which get_supply's fees_total counts", async () => {
    const feesBefore = units((await t.rpc('get_supply', {})).body.result.fees_total);
    const code = contractBytes('token');
    const answer = await t.rpc('deploy_smart_contract', { bytecode: `0x${toHex(code)}`, constructor_params: [5], gas_limit: 5_000_000, gas_price: 0.00000002, deployer_address: owner });
    expect(answer.body.error).toBeUndefined();
    const pending = (await t.rpc('get_transaction', { hash: answer.body.result.transaction_hash })).body.result;
    // Before acceptance the fee is the most it may pay.
    expect(pending).toMatchObject({ status: 'pending', fee_exact: '0.1', max_fee_exact: '0.1', gas_price: 0.00000002, gas_price_exact: '0.00000002', gas_price_units: '2' });
    await mineTemplate();
    const tx = (await t.rpc('get_transaction', { hash: answer.body.result.transaction_hash })).body.result;
    const paid = BigInt(tx.receipt.gas_used) * 2n;
    expect(paid).toBeLessThan(5_000_000n * 2n);
    expect(units(tx.fee_exact)).toBe(paid);
    expect(tx).toMatchObject({ status: 'confirmed', max_fee_exact: '0.1', gas_limit: 5_000_000, gas_used: tx.receipt.gas_used, fee: Number(tx.fee_exact) });
    const block = (await t.rpc('get_block', { hash: tx.block_hash })).body.result;
    const inBlock = block.transactions.find((b: { hash: string }) => b.hash === tx.hash);
    expect(inBlock).toMatchObject({ fee_exact: tx.fee_exact, max_fee_exact: '0.1', gas_used: tx.receipt.gas_used });
    const feesAfter = units((await t.rpc('get_supply', {})).body.result.fees_total);
    expect(feesAfter - feesBefore).toBe(paid);
  });

  it('refuses a gas price with more than 8 decimals, or given both ways, with -32602 and sends nothing', async () => {
    const before = (await t.rpc('get_balance', { address: owner })).body.result;
    const deploy = (extra: Record<string, unknown>) =>
      t.rpc('deploy_smart_contract', { bytecode: `0x${toHex(contractBytes('token'))}`, constructor_params: [5], gas_limit: 5_000_000, deployer_address: owner, ...extra });
    expect((await deploy({ gas_price: 0.000000001 })).body.error).toMatchObject({ code: -32602, data: { reason: expect.stringContaining('gas_price') } });
    expect((await deploy({ gas_price: 0.000001, gas_price_units: 100 })).body.error).toMatchObject({ code: -32602 });
    expect((await t.rpc('get_balance', { address: owner })).body.result).toEqual(before);
  });
});
