// Attack class: hostile client input at every API transport (issue 30, "the same for RPC, REST, WebSocket, gRPC and
// A2A inputs"). One real regtest node with its own ledger and mempool gets a table of bad inputs per transport — the
// rows the conformance tests (rpc-http-conformance, rpc-websocket, rpc-tls-grpc, a2a-http, a2a-conformance) do not
// already cover: method names that live on Object.prototype, non-string methods and object ids, deep nesting,
// out-of-range and non-integer numbers, bad and odd-length hex, non-canonical and badly signed raw transactions,
// garbage blocks, over-limit histories and batches, every credential failure, REST path and query abuse, and
// WebSocket frames that are not JSON-RPC, and hostile A2A JSON-RPC requests (gRPC: adversarial-grpc-inputs.test.ts).
// Each row names the code the seed (node-client-protocol.md "Errors",
// docs/auth.md) gives it; after the table the node's chain, mempool and supply are unchanged and it still answers.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { encodeTransaction, signTransfer } from '../../../../src/kinds/transaction-codec.ts';
import { TxKind } from '../../../../src/codec/transaction-kinds.ts';
import { encodeAddress } from '../../../../src/crypto/address.ts';
import { regtestParams } from '../../../../src/consensus/params.ts';
import { rpcBatchCallsMax, rpcHistoryLimitMax } from '../../../../src/limits.ts';
import { concatBytes, toHex } from '../../../../src/util/bytes.ts';
import { wallet } from '../../../helpers/ledger-fixtures.ts';
import { startRpcTestNode, type RpcTestNode } from '../../../helpers/rpc-node.ts';

let t: RpcTestNode;
let apiKey: string;
const alice = wallet(1);
const hrp = 'rweft';
const aliceAddress = encodeAddress(hrp, alice.address);

beforeAll(async () => {
  t = await startRpcTestNode(['--rate-limits=false'], false);
  apiKey = readFileSync(t.node.apiCookiePath, 'utf8').trim();
  await t.mine();
  await t.mine();
}, 60_000);
afterAll(async () => {
  await t?.close();
});

function rawTransfer(overrides: { chainId?: number } = {}): Uint8Array {
  const tx = signTransfer({ kind: TxKind.Transfer, chainId: overrides.chainId ?? regtestParams.chainId, from: alice.address, to: wallet(2).address, amount: 1n, fee: 1_000n, nonce: 0n, useEnergy: false, memo: new Uint8Array() }, alice.privateKey, new Uint8Array(32));
  return encodeTransaction(tx);
}
const hex = (bytes: Uint8Array) => `0x${toHex(bytes)}`;
const flipLast = (bytes: Uint8Array) => Uint8Array.from(bytes, (b, i) => (i === bytes.length - 1 ? b ^ 1 : b));

/** What the node's state looks like to a client: a change here means a bad input got through. */
async function snapshot() {
  const info = (await t.rpc('get_info')).body.result;
  const supply = (await t.rpc('get_supply')).body.result;
  const mempool = (await t.rpc('get_mempool')).body.result;
  return { tip: info.selected_tip as string, blocks: (await t.get('/health')).body.blocks, mempool: info.mempool_size, pool: JSON.stringify(mempool), supply: JSON.stringify(supply) };
}

async function post(path: string, body: string, headers: Record<string, string> = { 'x-api-key': apiKey }) {
  const res = await fetch(t.base + path, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, body: json, text };
}

const call = (method: unknown, params?: unknown, id: unknown = 1) => JSON.stringify({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }), id });

describe('JSON-RPC over HTTP: bad input gets its seed code and changes nothing', () => {
  let before: Awaited<ReturnType<typeof snapshot>>;
  beforeAll(async () => {
    before = await snapshot();
  });

  // [what, body, expected JSON-RPC code, expected HTTP status]
  const rows: Array<[string, () => string, number, number]> = [
    ['a method named __proto__', () => call('__proto__'), -32601, 200],
    ['a method named constructor', () => call('constructor'), -32601, 200],
    ['a method named toString', () => call('toString'), -32601, 200],
    ['a method named hasOwnProperty', () => call('hasOwnProperty', {}), -32601, 200],
    ['a numeric method', () => call(7), -32600, 200],
    ['an object id', () => call('get_height', {}, { a: 1 }), -32600, 200],
    ['params as a string (JSON-RPC 2.0: structured only)', () => call('get_block', 'height=1'), -32600, 200],
    ['JSON nested 100,000 deep', () => `${'['.repeat(100_000)}${']'.repeat(100_000)}`, -32600, 200],
    ['a negative height', () => call('get_block', { height: -1 }), -32602, 200],
    ['a fractional height', () => call('get_block', { height: 1.5 }), -32602, 200],
    ['a height of 1e308', () => call('get_block', { height: 1e308 }), -32602, 200],
    ['a hash with non-hex digits', () => call('get_block', { hash: `0x${'g'.repeat(64)}` }), -32602, 200],
    ['a hash one digit short', () => call('get_transaction', { hash: `0x${'a'.repeat(63)}` }), -32602, 200],
    ['an address of another network', () => call('get_balance', { address: encodeAddress('weft', alice.address) }), -40002, 200],
    ['an address that is not bech32m', () => call('get_transaction_history', { address: 'rweft1qqqq' }), -40002, 200],
    ['a history limit over its maximum', () => call('get_transaction_history', { address: aliceAddress, limit: rpcHistoryLimitMax + 1 }), -32602, 200],
    ['a negative history offset', () => call('get_transaction_history', { address: aliceAddress, offset: -1 }), -32602, 200],
    ['a raw transaction of odd-length hex', () => call('send_raw_transaction', { transaction: '0xabc' }), -32602, 200],
    ['a raw transaction with a trailing byte (non-canonical)', () => call('send_raw_transaction', { transaction: hex(concatBytes(rawTransfer(), Uint8Array.of(0))) }), -32602, 200],
    // Alice holds nothing: the pool's cheapest refusal, the balance, comes before any signature is verified.
    ['a raw transaction with a bad signature from an empty account', () => call('send_raw_transaction', { transaction: hex(flipLast(rawTransfer())) }), -40001, 200],
    ['a raw transaction for another chain', () => call('send_raw_transaction', { transaction: hex(rawTransfer({ chainId: regtestParams.chainId + 1 })) }), -40003, 200],
    ['a raw transaction of an unknown kind', () => call('send_raw_transaction', { transaction: hex(Uint8Array.of(0x7f, ...rawTransfer().subarray(1))) }), -32602, 200],
    ['a garbage block', () => call('submit_block', { block: hex(new Uint8Array(300).fill(0x42)) }), -32602, 200],
    ['a batch one call over its bound', () => JSON.stringify(Array.from({ length: rpcBatchCallsMax + 1 }, (_, i) => JSON.parse(call('get_height', undefined, i)))), -32600, 200],
  ];

  it.each(rows)('%s', async (_what, body, code, status) => {
    const res = await post('/api/v1/rpc', body());
    expect(res.status, res.text.slice(0, 300)).toBe(status);
    const error = Array.isArray(res.body) ? res.body[0]?.error : res.body?.error;
    expect(error?.code, res.text.slice(0, 300)).toBe(code);
    expect(typeof error.message).toBe('string');
  });

  // Credentials (docs/auth.md "Errors"): 401 and -32001 for each way of being nobody, 403 and -32002 for too little.
  const authRows: Array<[string, Record<string, string>, number, number]> = [
    ['no credentials on a protected method', {}, 401, -32001],
    ['an unknown API key', { 'x-api-key': 'k'.repeat(40) }, 401, -32001],
    ['a malformed Authorization header', { authorization: 'Bearer' }, 401, -32001],
    ['a bearer token nobody issued', { authorization: `Bearer ${'t'.repeat(43)}` }, 401, -32001],
    ['both an API key and a token', { 'x-api-key': 'k'.repeat(40), authorization: `Bearer ${'t'.repeat(43)}` }, 401, -32001],
    ['a signature header without its timestamp', { 'x-api-key': 'k'.repeat(40), 'x-signature': 'ab'.repeat(32) }, 401, -32001],
  ];

  it.each(authRows)('%s', async (_what, headers, status, code) => {
    const res = await post('/api/v1/rpc', call('send_transaction', { from: aliceAddress, to: aliceAddress, amount: 1 }), headers);
    expect(res.status, res.text).toBe(status);
    expect(res.body.error.code).toBe(code);
  });

  it('after the whole table the chain, mempool and supply are unchanged', async () => {
    expect(await snapshot()).toEqual(before);
  });
});

describe('REST: bad paths and queries are 400/404 JSON errors, never 500', () => {
  const rows: Array<[string, number, number | undefined]> = [
    ['/api/v1/blocks/-1', 400, -32602],
    ['/api/v1/blocks/1.5', 400, -32602],
    ['/api/v1/blocks/99999999999999999999999', 400, -32602],
    [`/api/v1/blocks/0x${'z'.repeat(64)}`, 400, -32602],
    [`/api/v1/blocks/0x${'ab'.repeat(32)}`, 404, -40004],
    ['/api/v1/transactions/not-a-hash', 400, -32602],
    ['/api/v1/addresses/rweft1notanaddress/balance', 400, -40002],
    [`/api/v1/addresses/${encodeAddress('weft', alice.address)}/balance`, 400, -40002],
    [`/api/v1/addresses/${aliceAddress}/transactions?limit=-1`, 400, -32602],
    [`/api/v1/addresses/${aliceAddress}/transactions?limit=${rpcHistoryLimitMax + 1}`, 400, -32602],
    [`/api/v1/addresses/${aliceAddress}/transactions?offset=abc`, 400, -32602],
    ['/api/v1/blocks/..%2f..%2fetc%2fpasswd', 400, -32602],
    ['/api/v1/no-such-resource', 404, undefined],
  ];

  it.each(rows)('GET %s', async (path, status, code) => {
    const res = await t.get(path);
    expect(res.status, res.text.slice(0, 300)).toBe(status);
    expect(res.body, res.text.slice(0, 300)).toBeTypeOf('object');
    if (code !== undefined) expect(res.body.error?.code ?? res.body.code, res.text.slice(0, 300)).toBe(code);
  });
});

describe('WebSocket: frames that are not JSON-RPC get their codes; the connection keeps serving', () => {
  let ws: WebSocket;
  const answers: any[] = [];
  beforeAll(async () => {
    ws = new WebSocket(`ws://127.0.0.1:${t.node.api.wsPort}/`, { headers: { 'x-api-key': apiKey } });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    ws.on('message', (data) => answers.push(JSON.parse(data.toString())));
  });
  afterAll(() => ws?.close());

  async function answer(frame: string | Buffer, id: unknown): Promise<any> {
    const from = answers.length;
    ws.send(frame);
    for (let i = 0; i < 100; i++) {
      const hit = answers.slice(from).find((m) => m.id === id || (id === null && m.id === null));
      if (hit) return hit;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no answer to ${String(frame).slice(0, 80)}`);
  }

  const rows: Array<[string, () => string | Buffer, unknown, number]> = [
    ['malformed JSON', () => '{"jsonrpc":"2.0",', null, -32700],
    ['a JSON string', () => '"subscribe"', null, -32600],
    ['a method on Object.prototype', () => call('__proto__', {}, 11), 11, -32601],
    ['subscribe to an unknown topic', () => call('subscribe', { topic: 'everything' }, 12), 12, -32602],
    ['subscribe to address_transactions with a bad address', () => call('subscribe', { topic: 'address_transactions', address: 'rweft1bad' }, 13), 13, -40002],
    ['a negative height', () => call('get_block', { height: -5 }, 15), 15, -32602],
  ];

  it.each(rows)('%s', async (_what, frame, id, code) => {
    const reply = await answer(frame(), id);
    expect(reply.error?.code, JSON.stringify(reply)).toBe(code);
  });

  it('unsubscribing from a subscription that does not exist is a no-op that says so', async () => {
    const reply = await answer(call('unsubscribe', { subscription: 'nope' }, 14), 14);
    expect(reply.result).toEqual({ unsubscribed: false, subscription: 'nope' });
  });

  it('still answers a good call on the same connection', async () => {
    const reply = await answer(call('get_block_height', {}, 99), 99);
    expect(reply.result.height).toBeGreaterThanOrEqual(2);
  });
});

// A method name that is a key of Object.prototype ('constructor', '__proto__') was looked up on the method table's
// prototype chain and answered -32603 (internal error) instead of -32601.
describe('A2A on the node (JSON-RPC binding at /a2a): hostile requests get the A2A codes', () => {
  const rows: Array<[string, () => string, number]> = [
    ['malformed JSON', () => '{"jsonrpc":"2.0","method":', -32700],
    ['a method named __proto__', () => call('__proto__', {}), -32601],
    ['a method named constructor', () => call('constructor', {}), -32601],
    ['JSON nested 100,000 deep', () => `${'['.repeat(100_000)}${']'.repeat(100_000)}`, -32600],
    ['SendMessage without a message', () => call('SendMessage', {}), -32602],
    ['SendMessage whose parts are a string', () => call('SendMessage', { message: { messageId: 'm1', role: 'ROLE_USER', parts: 'hello' } }), -32602],
    ['GetTask of a task that does not exist', () => call('GetTask', { id: 'no-such-task' }), -32001],
    ['CancelTask of a task that does not exist', () => call('CancelTask', { id: 'no-such-task' }), -32001],
    ['GetTask with a numeric id', () => call('GetTask', { id: 7 }), -32602],
  ];

  it.each(rows)('%s', async (_what, body, code) => {
    const res = await post('/a2a', body(), { 'x-api-key': apiKey, 'a2a-version': '1.0' });
    const error = Array.isArray(res.body) ? res.body[0]?.error : res.body?.error;
    expect(error?.code, res.text.slice(0, 300)).toBe(code);
  });
});
