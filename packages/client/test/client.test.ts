// @weft/client against a real regtest node on 127.0.0.1, every port 0: actions over HTTP and WebSocket, the node's
// error codes thrown as the package's classes on each transport, and a subscription iterated and broken out of.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { startRpcTestNode, type RpcTestNode } from '../../../test/helpers/rpc-node.ts';
import {
  BlockNotFoundError,
  createClient,
  getBlock,
  getInfo,
  http,
  InvalidParamsError,
  MethodNotFoundError,
  RpcCallError,
  webSocket,
  type Client,
  type WebSocketConstructor,
  type WebSocketTransport,
} from '../src/index.ts';

let t: RpcTestNode;
let ws: Client<WebSocketTransport>;
const newBlockSubscriptions = () => t.node.api.hub.counts().new_blocks;

beforeAll(async () => {
  t = await startRpcTestNode([], false);
  await t.mine();
  ws = createClient({ transport: webSocket(`ws://127.0.0.1:${t.node.api.wsPort}/`, { WebSocket: WebSocket as unknown as WebSocketConstructor }) });
});
afterAll(async () => {
  ws?.transport.close();
  await t?.close();
});

describe('over HTTP', () => {
  const client = () => createClient({ transport: http(t.base) });

  it('calls methods through the client object, the free actions and request', async () => {
    const info = await client().getInfo();
    expect(info.network_id).toBe('regtest');
    expect((await client().getBlockHeight()).height).toBe(info.block_height);
    const genesis = await getBlock(client().transport, { height: 0, include_transactions: false });
    expect(genesis.height).toBe(0);
    const byHash = await client().request('get_block', { hash: genesis.hash });
    expect(byHash.hash).toBe(genesis.hash);
    expect((await client().getLatestBlock()).height).toBe(info.block_height);
  });

  it('throws the class of the node’s error code', async () => {
    const refusal = await getBlock(http(t.base), { height: 1_000_000 }).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(BlockNotFoundError);
    expect(refusal).toBeInstanceOf(RpcCallError);
    expect(refusal).toMatchObject({ code: -40004, kind: 'block_not_found', method: 'get_block' });
    expect((refusal as Error).message).toMatch(/^get_block: Block not found: no block at height 1000000/);
  });

  it('refuses subscribe on a transport that cannot carry notifications', () => {
    const plain = createClient({ transport: http(t.base) }) as unknown as Client<WebSocketTransport>;
    expect(() => plain.subscribe('new_blocks')).toThrow(MethodNotFoundError);
  });
});

describe('over WebSocket', () => {
  it('calls methods', async () => {
    const info = await getInfo(ws);
    expect(info.network_id).toBe('regtest');
    expect((await ws.getBlock({ height: info.block_height })).height).toBe(info.block_height);
  });

  it('throws the class of the node’s error code', async () => {
    const refusal = await ws.getBlock({}).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(InvalidParamsError);
    expect(refusal).toMatchObject({ code: -32602, kind: 'invalid_params', data: { reason: 'give exactly one of height or hash' } });
  });

  it('iterates new blocks and unsubscribes on break', async () => {
    const blocks = ws.subscribe('new_blocks');
    await blocks.ready;
    expect(newBlockSubscriptions()).toBe(1);
    const mined = [(await t.mine()).hash, (await t.mine()).hash];
    const seen: string[] = [];
    for await (const block of blocks) {
      seen.push(block.hash);
      if (seen.length === mined.length) break;
    }
    expect(seen).toEqual(mined);
    await vi.waitFor(() => expect(newBlockSubscriptions()).toBe(0));
    await t.mine();
    expect(await blocks.next()).toEqual({ value: undefined, done: true });
  });

  it('fails the loop with the node’s refusal of the subscription', async () => {
    const events = ws.subscribe('address_transactions', { address: 'not-an-address' });
    await expect(events.ready).rejects.toBeInstanceOf(RpcCallError);
    await expect(events.next()).rejects.toMatchObject({ code: -40002 });
    expect(await events.next()).toEqual({ value: undefined, done: true });
  });

  it('ends every loop when the transport is closed', async () => {
    const own = createClient({ transport: webSocket(`ws://127.0.0.1:${t.node.api.wsPort}/`, { WebSocket: WebSocket as unknown as WebSocketConstructor }) });
    const blocks = own.subscribe('new_blocks');
    await blocks.ready;
    const next = blocks.next();
    own.transport.close();
    expect(await next).toEqual({ value: undefined, done: true });
    await vi.waitFor(() => expect(newBlockSubscriptions()).toBe(0));
  });
});
