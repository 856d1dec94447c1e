// The WebSocket interface on a real node: JSON-RPC over ws, subscriptions per docs/design.md "Node APIs and access" with real events from
// the chain, mempool, ledger and mining control, the per-connection limit, unsubscribe, and slow-consumer closing.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { encodeTransaction } from '../../../../src/kinds/transaction-codec.ts';
import { encodeAddress } from '../../../../src/crypto/address.ts';
import { unitsPerCoin } from '../../../../src/crypto/amount.ts';
import { fromHex } from '../../../../src/util/bytes.ts';
import { startWsRpcServer } from '../../../../server/ws/ws-server.ts';
import { createLogger } from '../../../../server/logger.ts';
import { fieldTypes, seedBlockFields, startRpcTestNode, type RpcTestNode } from '../../../helpers/rpc-node.ts';

interface Client {
  readonly ws: WebSocket;
  readonly messages: any[];
  call(method: string, params?: unknown, id?: unknown): Promise<any>;
  next(predicate: (m: any) => boolean, timeoutMs?: number): Promise<any>;
  close(): void;
}

// The node's owner (the api.cookie admin key, docs/auth.md): mining_events and wallet methods need scopes.
function ownerHeaders(): Record<string, string> {
  return t ? { 'x-api-key': readFileSync(t.node.apiCookiePath, 'utf8').trim() } : {};
}

async function connect(port: number, headers: Record<string, string> = ownerHeaders()): Promise<Client> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/`, { headers });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const messages: any[] = [];
  const waiters = new Set<() => void>();
  ws.on('message', (data) => {
    messages.push(JSON.parse(data.toString()));
    for (const w of waiters) w();
  });
  const next = (predicate: (m: any) => boolean, timeoutMs = 10_000) =>
    new Promise<any>((resolve, reject) => {
      const check = () => {
        const i = messages.findIndex(predicate);
        if (i === -1) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(messages.splice(i, 1)[0]);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no matching message in ${timeoutMs} ms; have ${JSON.stringify(messages).slice(0, 500)}`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  return {
    ws,
    messages,
    call(method, params, id = Math.floor(Math.random() * 1e9)) {
      ws.send(JSON.stringify({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }), id }));
      return next((m) => m.id === id && m.method === undefined);
    },
    next,
    close: () => ws.close(),
  };
}

const note = (subscription: unknown) => (m: any) => m.method === 'subscription' && m.params?.subscription === subscription;

let t: RpcTestNode;
let port: number;
const hrp = 'rweft';

beforeAll(async () => {
  t = await startRpcTestNode();
  port = t.node.api.wsPort;
  await t.mine();
}, 60_000);
afterAll(async () => t?.close());

describe('JSON-RPC over WebSocket', () => {
  it('serves the same methods and envelope as HTTP', async () => {
    const c = await connect(port);
    expect(await c.call('get_block_height', {}, 7)).toEqual({ jsonrpc: '2.0', result: { height: 1 }, id: 7 });
    const block = await c.call('get_latest_block', { include_transactions: false }, 'b');
    expect(fieldTypes(block.result, seedBlockFields)).toEqual([]);
    c.ws.send('{oops');
    expect(await c.next((m) => m.error?.code === -32700)).toMatchObject({ id: null });
    c.ws.send(JSON.stringify([{ jsonrpc: '2.0', method: 'get_height', id: 'p' }, { jsonrpc: '2.0', method: 'get_height', id: 'q' }]));
    const batch = await c.next((m) => Array.isArray(m));
    expect(batch.map((r: any) => r.id).sort()).toEqual(['p', 'q']);
    c.close();
  });
});

describe('subscriptions', () => {
  it('subscribe answers {subscription, topic} and new_blocks / block_confirmations deliver real blocks', async () => {
    const c = await connect(port);
    expect((await c.call('subscribe', { topic: 'new_blocks' }, 'blocks')).result).toEqual({ subscription: 'blocks', topic: 'new_blocks' });
    await c.call('subscribe', { topic: 'block_confirmations' }, 42);
    await c.call('subscribe', { topic: 'network_stats' }, 'stats');
    const { hash } = await t.mine();
    const n = await c.next(note('blocks'));
    expect(n).toMatchObject({ jsonrpc: '2.0', method: 'subscription', params: { subscription: 'blocks', result: { hash, height: 2, transactions: [] } } });
    const conf = await c.next((m) => note(42)(m) && m.params.result.block_hash === hash);
    expect(fieldTypes(conf.params.result, { block_hash: 'hash', confirmations: 'integer' })).toEqual([]);
    const stats = await c.next(note('stats'));
    expect(stats.params.result.network.block_height).toBe(2);
    c.close();
  });

  it('pending, confirmed and address_transactions follow a transfer from mempool to chain', async () => {
    const c = await connect(port);
    const fromBytes = t.wallet.addKey();
    const toBytes = t.wallet.addKey();
    const from = encodeAddress(hrp, fromBytes);
    const to = encodeAddress(hrp, toBytes);
    t.ledger.fund(fromBytes, 3n * unitsPerCoin);
    await c.call('subscribe', { topic: 'pending_transactions' }, 'pend');
    await c.call('subscribe', { topic: 'confirmed_transactions' }, 'conf');
    await c.call('subscribe', { topic: 'address_transactions', address: to }, 'addr');
    const other = encodeAddress(hrp, t.wallet.addKey());
    await c.call('subscribe', { topic: 'address_transactions', address: other }, 'other');
    const sent = await c.call('send_transaction', { from, to, amount: 1 });
    const hash = sent.result.hash as string;
    const pending = await c.next(note('pend'));
    expect(pending.params.result).toMatchObject({ hash, from, to, amount: 1 });
    expect((await c.next(note('addr'))).params.result).toMatchObject({ address: to, hash, type: 'incoming', status: 'pending' });
    const record = t.mempool.get(fromHex(hash.slice(2)))!;
    const mined = await t.mine({ transactions: [encodeTransaction(record.tx)] });
    t.mempool.remove(record.hash);
    t.ledger.accept(record.tx, fromHex(mined.hash.slice(2)), fromHex(mined.hash.slice(2)), Date.now());
    const confirmed = await c.next(note('conf'));
    expect(confirmed.params.result).toMatchObject({ hash, block_hash: mined.hash });
    expect(fieldTypes(confirmed.params.result, { hash: 'hash', block_height: 'integer', confirmations: 'integer' })).toEqual([]);
    expect((await c.next(note('addr'))).params.result).toMatchObject({ type: 'incoming', status: 'confirmed' });
    expect(c.messages.filter(note('other'))).toEqual([]);
    c.close();
  });

  it('mining_events delivers block_found from a real miner', async () => {
    const c = await connect(port);
    await c.call('subscribe', { topic: 'mining_events' }, 'mine');
    const started = await c.call('start_mining', { threads: 1, gpu_mining: false });
    expect(started.error).toBeUndefined();
    try {
      const found = await c.next((m) => note('mine')(m) && m.params.result.type === 'block_found', 30_000);
      expect(fieldTypes(found.params.result, { block_hash: 'hash' })).toEqual([]);
    } finally {
      await c.call('stop_mining', {});
    }
    c.close();
  }, 40_000);

  it('refuses the 11th subscription with -32005 and duplicate ids with -32600', async () => {
    const c = await connect(port);
    for (let i = 0; i < 10; i++) expect((await c.call('subscribe', { topic: 'new_blocks' }, i)).result).toEqual({ subscription: i, topic: 'new_blocks' });
    expect((await c.call('subscribe', { topic: 'new_blocks' }, 10)).error.code).toBe(-32005);
    expect((await c.call('unsubscribe', { subscription: 3 }, 'u')).result).toEqual({ unsubscribed: true, subscription: 3 });
    expect((await c.call('subscribe', { topic: 'new_blocks' }, 1)).error.code).toBe(-32600);
    expect((await c.call('subscribe', { topic: 'nope' }, 11)).error.code).toBe(-32602);
    expect((await c.call('subscribe', { topic: 'address_transactions' }, 12)).error.code).toBe(-32602);
    c.close();
  });

  it('unsubscribe stops delivery', async () => {
    const c = await connect(port);
    await c.call('subscribe', { topic: 'new_blocks' }, 'a');
    await c.call('subscribe', { topic: 'new_blocks' }, 'b');
    expect((await c.call('unsubscribe', { subscription: 'a' }, 'u1')).result.unsubscribed).toBe(true);
    expect((await c.call('unsubscribe', { subscription: 'a' }, 'u2')).result.unsubscribed).toBe(false);
    await t.mine();
    await c.next(note('b'));
    expect(c.messages.filter(note('a'))).toEqual([]);
    c.close();
  });
});

describe('slow consumers', () => {
  it('a client that stops reading is closed once its send buffer passes the bound', async () => {
    const server = await startWsRpcServer({
      dispatcher: t.node.api.dispatcher,
      hub: t.node.api.hub,
      host: '127.0.0.1',
      port: 0,
      logger: createLogger('silent'),
      sendBufferBytesMax: 64 * 1024,
    });
    try {
      const c = await connect(server.port);
      const closed = new Promise<void>((resolve) => c.ws.once('close', () => resolve()));
      (c.ws as unknown as { _socket: { pause(): void } })._socket.pause();
      // rpc.discover answers are tens of KB: a few hundred fill the kernel buffers and then the bounded queue.
      for (let i = 0; i < 400; i++) c.ws.send(JSON.stringify({ jsonrpc: '2.0', method: 'rpc.discover', id: i }));
      await expect.poll(() => server.connections(), { timeout: 15_000 }).toBe(0);
      (c.ws as unknown as { _socket: { resume(): void } })._socket.resume();
      await closed;
    } finally {
      await server.close();
    }
  }, 30_000);
});
