// Conformance of the node's HTTP interface against the seed (node-client-protocol.md): every JSON-RPC method and
// REST path on a real node (regtest, LMDB, port 0), field names and JSON types from the seed's tables, and every
// error code, with fixtures mined on the chain through submit_block.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeTransaction, txHash } from '../../../../src/kinds/transaction-codec.ts';
import { encodeAddress } from '../../../../src/crypto/address.ts';
import { unitsPerCoin } from '../../../../src/crypto/amount.ts';
import { proofFromJson } from '../../../../src/state/proof.ts';
import { verifyProof } from '../../../../src/state/proof-verify.ts';
import { fromHex, toHash0x } from '../../../../src/util/bytes.ts';
import { rpcMethods } from '../../../../src/rpc/method-table.ts';
import { fieldTypes, seedBalanceFields, seedBlockFields, seedTransactionFields, startRpcTestNode, type RpcTestNode } from '../../../helpers/rpc-node.ts';

let t: RpcTestNode;
let funded: string;
let fundedBytes: Uint8Array;
let sentHash: string;
const hrp = 'rweft';

beforeAll(async () => {
  t = await startRpcTestNode();
  for (let i = 0; i < 3; i++) await t.mine();
  fundedBytes = t.wallet.addKey();
  funded = encodeAddress(hrp, fundedBytes);
  t.ledger.fund(fundedBytes, 10n * unitsPerCoin, 5_000_000n);
}, 60_000);
afterAll(async () => t?.close());

const errorOf = (res: { status: number; body: any }) => {
  expect(res.status).toBe(200);
  return res.body.error as { code: number; message: string; data?: any };
};

describe('chain reads', () => {
  it('get_block_height returns {height} of the selected tip', async () => {
    const res = await t.rpc('get_block_height');
    expect(res.body).toEqual({ jsonrpc: '2.0', result: { height: t.node.chain.selectedTip().height }, id: 1 });
    expect(res.body.result.height).toBe(3);
  });

  it('get_network_info has the seed fields with their types, from chain data', async () => {
    const { body } = await t.rpc('get_network_info', {});
    const r = body.result;
    expect(fieldTypes(r, { network_id: 'string', version: 'string', block_height: 'integer', difficulty: 'integer', hash_rate: 'string', peer_count: 'integer', gpu_mining_ratio: 'number', energy_efficiency: 'number' })).toEqual([]);
    expect(r.network_id).toBe('regtest');
    expect(r.block_height).toBe(3);
    expect(r.hash_rate).toMatch(/^\d+(\.\d+)? [kMGTPE]?H\/s$/);
    // Fixture blocks are 1 s apart at the pow limit (~2 expected hashes each): the estimate comes from their work.
    expect(r.hashes_per_second).toBeGreaterThan(0);
    expect((await t.get('/api/v1/stats')).body.network.block_time_avg).toBe('1.00s');
  });

  it('get_info and get_height describe the node and the tip', async () => {
    const info = (await t.rpc('get_info')).body.result;
    expect(fieldTypes(info, { version: 'string', network_id: 'string', chain_id: 'integer', block_height: 'integer', blocks: 'integer', tips: 'integer', selected_tip: 'hash', synced: 'boolean', peer_count: 'integer', mempool_size: 'integer', uptime_seconds: 'integer' })).toEqual([]);
    expect(info.blocks).toBe(4);
    const height = (await t.rpc('get_height')).body.result;
    expect(height).toMatchObject({ height: 3, hash: toHash0x(t.node.chain.selectedTip().hash), blocks: 4 });
  });

  it('get_block by height and by hash gives the seed Block with DAG fields, nonce exact', async () => {
    const tip = t.node.chain.selectedTip();
    const byHeight = await t.rpc('get_block', { height: 2 });
    const block = byHeight.body.result;
    expect(fieldTypes(block, seedBlockFields)).toEqual([]);
    expect(block.height).toBe(2);
    expect(block.transactions).toEqual([]);
    expect(block.miner.startsWith('rweft1')).toBe(true);
    const byHash = await t.rpc('get_block', { hash: toHash0x(tip.hash), include_transactions: false });
    expect(byHash.body.result.hash).toBe(toHash0x(tip.hash));
    expect(byHash.body.result.previous_hash).toBe(toHash0x(tip.selectedParent!.hash));
    expect(byHash.body.result).not.toHaveProperty('transactions');
    // u64 nonces above 2^53 must travel as exact digits.
    expect(byHash.text).toContain(`"nonce":${tip.header.nonce.toString()}`);
    const latest = (await t.rpc('get_latest_block', { include_transactions: true })).body.result;
    expect(latest.hash).toBe(toHash0x(tip.hash));
  });

  it('answers -40004 for unknown blocks and -32602 for wrong params', async () => {
    expect(errorOf(await t.rpc('get_block', { height: 999 })).code).toBe(-40004);
    expect(errorOf(await t.rpc('get_block', { hash: `0x${'ab'.repeat(32)}` })).code).toBe(-40004);
    const both = errorOf(await t.rpc('get_block', { height: 1, hash: `0x${'ab'.repeat(32)}` }));
    expect(both.code).toBe(-32602);
    const wrongType = errorOf(await t.rpc('get_block', { height: '1' }));
    expect(wrongType).toMatchObject({ code: -32602, message: 'Invalid params' });
    expect(wrongType.data.issues[0].path).toBe('height');
    expect(errorOf(await t.rpc('get_block', { hash: 'zz' })).code).toBe(-32602);
    expect(errorOf(await t.rpc('get_block_height', { extra: 1 })).code).toBe(-32602);
  });
});

describe('envelope over HTTP', () => {
  it('malformed JSON is -32700 with HTTP 200; a non-request is -32600', async () => {
    const parse = await t.post('/api/v1/rpc', '{"jsonrpc":');
    expect(parse.status).toBe(200);
    expect(parse.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null });
    expect(errorOf(await t.post('/rpc', '"hello"')).code).toBe(-32600);
    expect(errorOf(await t.post('/rpc', '{"jsonrpc":"1.0","method":"get_height","id":1}')).code).toBe(-32600);
  });

  it('serves /rpc and the public flow at / (method and params only)', async () => {
    const daemon = await t.post('/rpc', JSON.stringify({ jsonrpc: '2.0', method: 'get_block_height', id: 'x' }));
    expect(daemon.body).toEqual({ jsonrpc: '2.0', result: { height: 3 }, id: 'x' });
    const pub = await t.post('/', JSON.stringify({ method: 'get_block_height', params: [] }));
    expect(pub.body).toEqual({ jsonrpc: '2.0', result: { height: 3 }, id: null });
  });

  it('batches answer each call; an empty batch is one -32600; notifications get nothing', async () => {
    const batch = await t.post('/api/v1/rpc', JSON.stringify([
      { jsonrpc: '2.0', method: 'get_block_height', id: 1 },
      { jsonrpc: '2.0', method: 'get_block_height' },
      { jsonrpc: '2.0', method: 'nope', id: 'n' },
    ]));
    expect(batch.body).toHaveLength(2);
    expect(batch.body[1]).toMatchObject({ id: 'n', error: { code: -32601 } });
    const empty = await t.post('/api/v1/rpc', '[]');
    expect(empty.body).toMatchObject({ error: { code: -32600 }, id: null });
    const note = await t.post('/api/v1/rpc', JSON.stringify({ jsonrpc: '2.0', method: 'get_block_height' }));
    expect(note.status).toBe(204);
    expect(note.text).toBe('');
  });

  it('refuses bodies over the size limit with 413', async () => {
    const res = await t.post('/api/v1/rpc', JSON.stringify({ jsonrpc: '2.0', method: 'x', params: { pad: 'a'.repeat(5 * 1024 * 1024) }, id: 1 }));
    expect(res.status).toBe(413);
  });

  it('rpc.discover lists every method of the table with OpenRPC params', async () => {
    const doc = (await t.rpc('rpc.discover')).body.result;
    expect(doc.openrpc).toMatch(/^1\./);
    const names = doc.methods.map((m: { name: string }) => m.name);
    for (const m of rpcMethods) expect(names).toContain(m.name);
    const send = doc.methods.find((m: { name: string }) => m.name === 'send_transaction');
    expect(send.params.map((p: { name: string }) => p.name)).toEqual(['from', 'to', 'amount', 'fee', 'privacy_level', 'use_energy', 'smart_contract']);
  });

  it('every seed method is served: the privacy methods check their params (-32602), unknown names get -32601', async () => {
    expect(errorOf(await t.rpc('create_confidential_transaction', {})).code).toBe(-32602);
    expect(errorOf(await t.rpc('generate_stealth_address', { public_spend_key: '0x00' })).code).toBe(-32602);
    expect(errorOf(await t.rpc('no_such_method', {})).code).toBe(-32601);
  });
});

describe('transactions, balances and the wallet', () => {
  it('create_address, sign_message and verify_message round-trip (schnorr and ecdsa)', async () => {
    const created = (await t.rpc('create_address', {})).body.result;
    expect(created).toMatchObject({ wallet_name: 'default', address_type: 'standard', privacy_level: 'medium' });
    for (const signature_type of ['schnorr', 'ecdsa']) {
      const signed = (await t.rpc('sign_message', { address: created.address, message: 'hello weft', signature_type })).body.result;
      expect(signed.signature).toMatch(/^0x[0-9a-f]{128}$/);
      const ok = (await t.rpc('verify_message', { address: created.address, message: 'hello weft', signature: signed.signature, signature_type })).body.result;
      expect(ok.valid).toBe(true);
      const bad = (await t.rpc('verify_message', { address: created.address, message: 'hello weft!', signature: signed.signature, signature_type })).body.result;
      expect(bad.valid).toBe(false);
    }
    expect(errorOf(await t.rpc('sign_message', { address: created.address, message: 'x', signature_type: 'ring' })).code).toBe(-40006);
  });

  it('send_transaction with seed defaults puts a signed transfer in the mempool', async () => {
    const to = encodeAddress(hrp, t.wallet.addKey());
    const res = await t.rpc('send_transaction', { from: funded, to, amount: 1.5 });
    const r = res.body.result;
    expect(r).toMatchObject({ status: 'pending', fee: 0.01, privacy_level: 'medium', amount: 1.5, nonce: 0 });
    sentHash = r.hash;
    const tx = (await t.rpc('get_transaction', { hash: sentHash })).body.result;
    expect(fieldTypes(tx, seedTransactionFields)).toEqual([]);
    expect(tx).toMatchObject({ status: 'pending', confirmations: 0, block_height: null });
    const balance = (await t.rpc('get_balance', { address: funded })).body.result;
    expect(fieldTypes(balance, seedBalanceFields)).toEqual([]);
    expect(balance).toMatchObject({ balance: 10, pending_balance: 8.49, energy: 5_000_000, nonce: 0 });
  });

  it('refuses what cannot be sent with the seed codes', async () => {
    const to = encodeAddress(hrp, t.wallet.addKey());
    expect(errorOf(await t.rpc('send_transaction', { from: funded, to, amount: 100 })).code).toBe(-40001);
    expect(errorOf(await t.rpc('send_transaction', { from: funded, to: to.replace('rweft', 'weft'), amount: 1 })).code).toBe(-40002);
    // A changed last character breaks the bech32m checksum (changed: a key whose address ends in 'q' passed before).
    expect(errorOf(await t.rpc('send_transaction', { from: funded, to: `${to.slice(0, -1)}${to.endsWith('q') ? 'p' : 'q'}`, amount: 1 })).code).toBe(-40002);
    expect(errorOf(await t.rpc('send_transaction', { from: funded, to, amount: 0.123456789 })).code).toBe(-32602);
    expect(errorOf(await t.rpc('send_transaction', { from: funded, to, amount: '1' })).code).toBe(-32602);
    expect(errorOf(await t.rpc('send_transaction', { from: funded, to, amount: 1, privacy_level: 'high' })).code).toBe(-40006);
    expect(errorOf(await t.rpc('send_transaction', { from: funded, to, amount: 1, smart_contract: { code: 'x', parameters: [] } })).code).toBe(-40007);
    expect(errorOf(await t.rpc('send_raw_transaction', { transaction: '0x00' })).code).toBe(-32602);
    expect(errorOf(await t.rpc('get_transaction', { hash: `0x${'cd'.repeat(32)}` }))).toMatchObject({ code: -32000, data: { reason: 'transaction_not_found' } });
    expect(errorOf(await t.rpc('get_balance', { address: 'rweft1notanaddress' })).code).toBe(-40002);
    expect(errorOf(await t.rpc('get_balance', { address: funded, privacy_view: 'encrypted' })).code).toBe(-40006);
  });

  it('a mined, accepted transfer is confirmed with height and confirmations, and listed in history', async () => {
    const record = t.mempool.get(fromHex(sentHash.slice(2)))!;
    const { hash } = await t.mine({ transactions: [encodeTransaction(record.tx)] });
    t.mempool.remove(record.hash);
    const blockHash = fromHex(hash.slice(2));
    t.ledger.accept(record.tx, blockHash, blockHash, Date.now());
    await t.mine();
    const tx = (await t.rpc('get_transaction', { hash: sentHash })).body.result;
    expect(tx).toMatchObject({ status: 'confirmed', block_hash: hash, block_height: 4, amount: 1.5, fee: 0.01 });
    expect(tx.confirmations).toBeGreaterThanOrEqual(2);
    const block = (await t.rpc('get_block', { hash })).body.result;
    expect(block.transaction_count).toBe(1);
    expect(block.transactions[0]).toMatchObject({ hash: sentHash, amount: 1.5, kind: 'transfer' });
    const history = (await t.rpc('get_transaction_history', { address: funded, limit: 10, offset: 0 })).body.result;
    expect(history).toMatchObject({ address: funded, total: 1, limit: 10, offset: 0 });
    expect(history.transactions[0]).toMatchObject({ hash: sentHash, type: 'outgoing' });
    const raw = encodeTransaction(record.tx);
    expect(toHash0x(txHash(record.tx))).toBe(sentHash);
    expect(errorOf(await t.rpc('send_raw_transaction', { transaction: `0x${Buffer.from(raw).toString('hex')}` })).code).toBe(-40003);
  });

  it('get_balance public view and get_proof are checkable against the state root', async () => {
    const pub = (await t.rpc('get_balance', { address: funded, privacy_view: 'public' })).body.result;
    expect(pub.balance).toBe(pub.pending_balance);
    const proof = (await t.rpc('get_proof', { address: funded })).body.result;
    expect(proof.state_root).toBe(pub.state_root);
    const checked = verifyProof(fromHex(proof.state_root.slice(2)), fromHex(proof.key.slice(2)), proofFromJson(proof.proof));
    expect(checked.exists).toBe(true);
    expect(proof.account.balance).toBe(10 - 1.51);
  });
});

describe('mining methods', () => {
  it('get_block_template + a ground nonce + submit_block extends the chain', async () => {
    const miner = encodeAddress(hrp, t.wallet.addKey());
    const template = (await t.rpc('get_block_template', { miner_address: miner })).body.result;
    expect(fieldTypes(template, { header: 'string', pre_pow_hash: 'hash', target: 'string', bits: 'integer', transactions: 'array' })).toEqual([]);
    const header = fromHex(template.header.slice(2));
    const { decodeHeader } = await import('../../../../src/codec/header.ts');
    const { blockHash, compactToTarget, hashMeetsTarget } = await import('../../../../src/consensus/pow.ts');
    const { encodeBlock } = await import('../../../../src/codec/block.ts');
    let h = decodeHeader(header);
    for (let nonce = 0n; ; nonce++) {
      h = { ...h, nonce };
      if (hashMeetsTarget(blockHash(h), compactToTarget(h.bits))) break;
    }
    const block = `0x${Buffer.from(encodeBlock({ header: h, transactions: [] })).toString('hex')}`;
    const before = t.node.chain.selectedTip().height;
    const res = (await t.rpc('submit_block', { block })).body.result;
    expect(res).toMatchObject({ status: 'accepted', height: before + 1 });
    expect((await t.rpc('submit_block', { block })).body.result.status).toBe('duplicate');
    const { makeBlock } = await import('../../../helpers/chain-fixtures.ts');
    const broken = makeBlock(t.node.chain, { mutate: (x) => ({ ...x, blueScore: x.blueScore + 1 }) });
    const rejected = errorOf(await t.rpc('submit_block', { block: `0x${Buffer.from(encodeBlock(broken)).toString('hex')}` }));
    expect(rejected).toMatchObject({ code: -40005, data: { reason: 'block_rejected', rule: 'context.blue-score.mismatch' } });
    expect(errorOf(await t.rpc('get_block_template', { miner_address: 'bad' })).code).toBe(-40002);
  });

  it('mining info and stats come from mining control; bad params are refused', async () => {
    const info = (await t.rpc('get_mining_info')).body.result;
    expect(info).toHaveProperty('running', false);
    const stats = await t.rpc('get_mining_stats', { period: '1h' });
    expect(stats.body.result).toBeTypeOf('object');
    expect(errorOf(await t.rpc('get_mining_stats', { period: '2h' })).code).toBe(-32602);
    expect(errorOf(await t.rpc('start_mining', { miner_address: 'weft1xyz' })).code).toBe(-40002);
    expect(errorOf(await t.rpc('start_mining', { threads: 0 })).code).toBe(-32602);
  });

  it('get_peers lists the p2p layer\'s peers (none on a lone node)', async () => {
    expect((await t.rpc('get_peers')).body.result).toEqual({ count: 0, peers: [] });
  });

  it('subscribe over HTTP is refused (WebSocket only)', async () => {
    expect(errorOf(await t.rpc('subscribe', { topic: 'new_blocks' }))).toMatchObject({ code: -32601 });
  });
});

describe('REST', () => {
  it('network info has the seed REST fields, supplies as strings', async () => {
    const { status, body } = await t.get('/api/v1/network/info');
    expect(status).toBe(200);
    expect(fieldTypes(body, { network_id: 'string', version: 'string', block_height: 'integer', difficulty: 'integer', total_supply: 'string', circulating_supply: 'string' })).toEqual([]);
    expect(Object.keys(body).sort()).toEqual(['block_height', 'circulating_supply', 'difficulty', 'network_id', 'total_supply', 'version']);
  });

  it('blocks by latest, height and hash; errors 400 and 404 as JSON', async () => {
    const latest = await t.get('/api/v1/blocks/latest');
    expect(fieldTypes(latest.body, seedBlockFields)).toEqual([]);
    const byHeight = await t.get('/api/v1/blocks/1');
    expect(byHeight.body.height).toBe(1);
    const byHash = await t.get(`/api/v1/blocks/${byHeight.body.hash}`);
    expect(byHash.body.hash).toBe(byHeight.body.hash);
    const missing = await t.get('/api/v1/blocks/9999');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe(-40004);
    const bad = await t.get('/api/v1/blocks/nothex');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe(-32602);
  });

  it('transactions, balances and history', async () => {
    const tx = await t.get(`/api/v1/transactions/${sentHash}`);
    expect(fieldTypes(tx.body, seedTransactionFields)).toEqual([]);
    const unknown = await t.get(`/api/v1/transactions/0x${'ee'.repeat(32)}`);
    expect(unknown.status).toBe(404);
    const balance = await t.get(`/api/v1/addresses/${funded}/balance`);
    expect(Object.keys(balance.body).sort()).toEqual(['address', 'balance', 'energy', 'nonce', 'pending_balance']);
    expect(fieldTypes(balance.body, seedBalanceFields)).toEqual([]);
    const badAddress = await t.get('/api/v1/addresses/weft1bad/balance');
    expect(badAddress.status).toBe(400);
    expect(badAddress.body.error.code).toBe(-40002);
    const page = await t.get(`/api/v1/addresses/${funded}/transactions?limit=5&offset=0`);
    expect(page.body).toMatchObject({ total: 1, limit: 5, offset: 0 });
    expect((await t.get(`/api/v1/addresses/${funded}/transactions?limit=abc`)).status).toBe(400);
    expect((await t.get(`/api/v1/addresses/${funded}/transactions?limit=0`)).status).toBe(400);
  });

  it('stats, OpenAPI, health and metrics', async () => {
    const stats = (await t.get('/api/v1/stats')).body;
    expect(fieldTypes(stats.network, { block_height: 'integer', block_time_avg: 'string', hashrate: 'string', difficulty: 'integer', active_addresses: 'integer', total_transactions: 'integer' })).toEqual([]);
    expect(fieldTypes(stats.mining, { traditional_hashrate: 'string', mining_hashrate: 'string', mining_percentage: 'number', active_miners: 'integer' })).toEqual([]);
    expect(stats.network.block_height).toBe(t.node.chain.selectedTip().height);
    const openapi = (await t.get('/api/v1/openapi.json')).body;
    expect(Object.keys(openapi.paths)).toEqual(expect.arrayContaining(['/api/v1/network/info', '/api/v1/blocks/{id}', '/api/v1/addresses/{address}/transactions']));
    const health = (await t.get('/health')).body;
    expect(health).toMatchObject({ status: 'ok', synced: true, peers: 0, height: t.node.chain.selectedTip().height });
    expect((await t.get('/health/ready')).status).toBe(200);
    const metrics = await t.get('/metrics');
    expect(metrics.text).toMatch(/weft_rpc_requests_total\{method="get_block_height",code="0",transport="http"\} \d+/);
    expect(metrics.text).toMatch(/weft_block_height \d+/);
    expect(metrics.text).toContain('weft_hash_rate_hashes_per_second{scope="network"}');
    // The chain's caches (docs/storage.md "Caches"): each one's size, capacity from --cache-mb, and hit ratio.
    for (const cache of ['block-ids', 'ghostdag', 'reachability', 'block-index', 'selected-chain']) {
      expect(metrics.text).toMatch(new RegExp(`weft_cache_entries\\{cache="${cache}"\\} [1-9]\\d*`));
      expect(metrics.text).toMatch(new RegExp(`weft_cache_capacity_entries\\{cache="${cache}"\\} [1-9]\\d*`));
      expect(metrics.text).toMatch(new RegExp(`weft_cache_hit_ratio\\{cache="${cache}"\\} (0|1|0\\.\\d+)`));
    }
    // The status page always answers at /status; '/' is the web app once `npm run build` made dist/web.
    expect((await t.get('/status')).text).toContain('<title>Weft node</title>');
    expect((await t.get('/')).text).toMatch(/<title>Weft (explorer|node)<\/title>/);
  });
});
