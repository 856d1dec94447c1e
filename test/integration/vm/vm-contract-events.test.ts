// Contract receipts and events on a real regtest node (issue 16): deploy the token, subscribe to its
// `contract_events` over WebSocket, transfer, and receive the Transfer event once a chain block accepts the call;
// get_transaction then shows the call's receipt (status, gas used, events, decoded return value) and the deploy's.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { encodeBlock } from '../../../src/codec/block.ts';
import { decodeHeader } from '../../../src/codec/header.ts';
import { searchNonce } from '../../../src/consensus/pow.ts';
import { decodeAddress } from '../../../src/crypto/address.ts';
import { fromHex, toHex } from '../../../src/util/bytes.ts';
import { encodeAbiValues } from '../../../src/vm/abi.ts';
import { callIntrinsicGas, deployIntrinsicGas } from '../../../src/vm/gas-schedule.ts';
import { contractBytes, goldenGas } from '../../helpers/vm-contracts.ts';
import { startRpcTestNode, type RpcTestNode } from '../../helpers/rpc-node.ts';

let t: RpcTestNode;
let owner: string;
let other: string;
let ws: WebSocket;
const messages: any[] = [];

async function mineTemplate(): Promise<void> {
  const template = (await t.rpc('get_block_template', { miner_address: owner })).body.result;
  const header = decodeHeader(fromHex(template.header.slice(2)));
  const found = searchNonce(fromHex(template.pre_pow_hash.slice(2)), BigInt(template.target), 0n, 5_000_000);
  const block = encodeBlock({ header: { ...header, nonce: found.nonce! }, transactions: template.transactions.map((h: string) => fromHex(h.slice(2))) });
  expect((await t.rpc('submit_block', { block: `0x${toHex(block)}` })).body.result.status).toBe('accepted');
  await t.mine();
}

function nextMessage(predicate: (m: any) => boolean, timeoutMs = 10_000): Promise<any> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = (): void => {
      const i = messages.findIndex(predicate);
      if (i !== -1) resolve(messages.splice(i, 1)[0]);
      else if (Date.now() - started > timeoutMs) reject(new Error(`no matching message; have ${JSON.stringify(messages).slice(0, 400)}`));
      else setTimeout(poll, 20);
    };
    poll();
  });
}

beforeAll(async () => {
  t = await startRpcTestNode([], false);
  owner = (await t.rpc('create_address', {})).body.result.address;
  other = (await t.rpc('create_address', {})).body.result.address;
  for (let i = 0; i < 3; i++) await t.mine({ miner: decodeAddress(owner, t.node.chain.params.hrp) });
  ws = new WebSocket(`ws://127.0.0.1:${t.node.api.wsPort}/`, { headers: { 'x-api-key': readFileSync(t.node.apiCookiePath, 'utf8').trim() } });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  ws.on('message', (data) => messages.push(JSON.parse(data.toString())));
}, 60_000);
afterAll(async () => {
  ws?.close();
  await t?.close();
});

describe('contract receipts and the contract_events topic', () => {
  it('publishes a transfer event to the contract subscribers and keeps the receipt', async () => {
    const code = contractBytes('token');
    const deploy = (await t.rpc('deploy_smart_contract', { bytecode: `0x${toHex(code)}`, constructor_params: [1_000_000], gas_limit: 5_000_000, gas_price_units: 1, deployer_address: owner })).body.result;
    const token: string = deploy.contract_address;
    await mineTemplate();

    ws.send(JSON.stringify({ jsonrpc: '2.0', method: 'subscribe', params: { topic: 'contract_events', address: token }, id: 'tok' }));
    expect((await nextMessage((m) => m.id === 'tok')).result).toEqual({ subscription: 'tok', topic: 'contract_events' });
    // A second subscription to another contract's events must stay silent.
    ws.send(JSON.stringify({ jsonrpc: '2.0', method: 'subscribe', params: { topic: 'contract_events', address: other }, id: 'none' }));
    await nextMessage((m) => m.id === 'none');

    const call = (await t.rpc('call_smart_contract', { contract_address: token, method: 'transfer', parameters: [other, '250'], caller_address: owner, gas_limit: 1_000_000 })).body.result;
    expect(call.mode).toBe('transaction');
    await mineTemplate();

    const hrp = t.node.chain.params.hrp;
    const eventData = `0x${toHex(encodeAbiValues([{ type: 'address', value: decodeAddress(owner, hrp) }, { type: 'address', value: decodeAddress(other, hrp) }, { type: 'u64', value: 250n }]))}`;
    const note = await nextMessage((m) => m.method === 'subscription' && m.params.subscription === 'tok');
    expect(note.params.result).toMatchObject({
      contract_address: token,
      transaction_hash: call.transaction_hash,
      method: 'transfer',
      index: 0,
      topic: `0x${toHex(new TextEncoder().encode('Transfer'))}`,
      topic_text: 'Transfer',
      data: eventData,
    });
    expect(typeof note.params.result.block_height).toBe('number');
    expect(messages.filter((m) => m.params?.subscription === 'none')).toEqual([]);

    const gasUsed = Number(callIntrinsicGas('transfer'.length, 34 + 9) + goldenGas.tokenTransfer);
    const tx = (await t.rpc('get_transaction', { hash: call.transaction_hash })).body.result;
    expect(tx.receipt).toEqual({
      contract_address: token,
      method: 'transfer',
      status: 'ok',
      gas_used: gasUsed,
      events: [{ topic: note.params.result.topic, topic_text: 'Transfer', data: eventData }],
      return_data: '0x0301',
      return_value: [{ type: 'bool', value: true }],
      revert_message: null,
    });
    const deployed = (await t.rpc('get_transaction', { hash: deploy.transaction_hash })).body.result;
    expect(deployed.receipt).toMatchObject({ contract_address: token, method: 'init', status: 'ok', gas_used: Number(deployIntrinsicGas(code.length, 9) + goldenGas.tokenInit) });
  });

  it('has no receipt for a plain transfer', async () => {
    const answer = (await t.rpc('send_transaction', { from: owner, to: other, amount: 0.1 })).body;
    expect(answer.error).toBeUndefined();
    const sent = answer.result;
    await mineTemplate();
    const tx = (await t.rpc('get_transaction', { hash: sent.hash })).body.result;
    expect(tx.status).not.toBe('pending');
    expect(tx.receipt).toBeUndefined();
  });
});
