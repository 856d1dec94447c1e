// The transport-agnostic JSON-RPC engine (src/rpc/dispatcher.ts) on a real regtest chain in a memory store: the
// JSON-RPC 2.0 envelope edge cases, positional params, error mapping and the call observer.
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { openChain, type Chain } from '../../../src/chain/chain.ts';
import { regtestParams } from '../../../src/consensus/params.ts';
import { createDispatcher, type Dispatcher } from '../../../src/rpc/dispatcher.ts';
import { toErrorObject } from '../../../src/rpc/errors.ts';
import { stringifyJson } from '../../../src/rpc/json.ts';
import { createMemoryStore } from '../../../src/storage/memory-store.ts';
import { systemClock } from '../../../src/util/clock.ts';
import { rpcBatchCallsMax } from '../../../src/limits.ts';

let chain: Chain;
let dispatcher: Dispatcher;
const observed: Array<[string, number]> = [];
const http = { transport: 'http' } as const;

beforeAll(async () => {
  chain = await openChain({ params: regtestParams, store: createMemoryStore(), clock: systemClock });
  dispatcher = createDispatcher({
    services: { chain, node: { version: 't', startedAtMs: 0, clock: systemClock, synced: () => true } },
    version: 't',
    observe: (method, code) => observed.push([method, code]),
  });
});

const call = (payload: unknown) => dispatcher.handle(payload, http);

describe('JSON-RPC 2.0 envelope', () => {
  it('echoes string, number and null ids', async () => {
    for (const id of ['abc', 7, 1.5, null]) {
      expect(await call({ jsonrpc: '2.0', method: 'get_block_height', id })).toEqual({ jsonrpc: '2.0', result: { height: 0 }, id });
    }
  });

  it('refuses ids that are not string, number or null, and params that are not structured', async () => {
    expect(await call({ jsonrpc: '2.0', method: 'get_block_height', id: { a: 1 } })).toMatchObject({ error: { code: -32600 }, id: null });
    expect(await call({ jsonrpc: '2.0', method: 'get_block_height', params: 5, id: 1 })).toMatchObject({ error: { code: -32600 }, id: 1 });
    expect(await call({ jsonrpc: '2.0', method: 'get_block_height', params: null, id: 1 })).toMatchObject({ error: { code: -32600 } });
    expect(await call({ jsonrpc: '2.0', method: 42, id: 1 })).toMatchObject({ error: { code: -32600 }, id: 1 });
    expect(await call({ method: 'get_block_height', id: 1 })).toMatchObject({ error: { code: -32600 } });
  });

  it('takes params by name, as an empty array, or by position', async () => {
    expect(await call({ jsonrpc: '2.0', method: 'get_block_height', params: [], id: 1 })).toMatchObject({ result: { height: 0 } });
    expect(await call({ jsonrpc: '2.0', method: 'get_block', params: [0, null, false], id: 1 })).toMatchObject({ result: { height: 0 } });
    expect(await call({ jsonrpc: '2.0', method: 'get_block_height', params: [1], id: 1 })).toMatchObject({ error: { code: -32602 } });
  });

  it('answers notifications with nothing, even when they fail, and drops them from batches', async () => {
    expect(await call({ jsonrpc: '2.0', method: 'get_block_height' })).toBeUndefined();
    expect(await call({ jsonrpc: '2.0', method: 'no_such_method' })).toBeUndefined();
    expect(await call([{ jsonrpc: '2.0', method: 'get_block_height' }, { jsonrpc: '2.0', method: 'x' }])).toBeUndefined();
    const mixed = await call([{ jsonrpc: '2.0', method: 'get_block_height' }, 1, { jsonrpc: '2.0', method: 'get_block_height', id: 'k' }]);
    expect(mixed).toEqual([
      { jsonrpc: '2.0', error: expect.objectContaining({ code: -32600 }), id: null },
      { jsonrpc: '2.0', result: { height: 0 }, id: 'k' },
    ]);
  });

  it('bounds batches: empty is one -32600, more than the limit is one -32600', async () => {
    expect(await call([])).toMatchObject({ error: { code: -32600, message: 'Invalid Request' }, id: null });
    const big = Array.from({ length: rpcBatchCallsMax + 1 }, (_, i) => ({ jsonrpc: '2.0', method: 'get_block_height', id: i }));
    expect(await call(big)).toMatchObject({ error: { code: -32600, data: { reason: expect.stringContaining(`${rpcBatchCallsMax}`) } } });
  });

  it('turns unparseable text into -32700 and never throws on arbitrary input', async () => {
    expect(JSON.parse((await dispatcher.handleText('{"a":', http))!)).toMatchObject({ error: { code: -32700, message: 'Parse error' }, id: null });
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (value) => {
        const answer = await dispatcher.handleText(JSON.stringify(value), http);
        if (answer !== undefined) expect(() => JSON.parse(answer)).not.toThrow();
      }),
      { numRuns: 200 },
    );
  });

  it('reports each call to the observer with its code', async () => {
    observed.length = 0;
    await call({ jsonrpc: '2.0', method: 'get_block_height', id: 1 });
    await call({ jsonrpc: '2.0', method: 'get_block', params: { height: 5 }, id: 1 });
    expect(observed).toEqual([['get_block_height', 0], ['get_block', -40004]]);
  });
});

describe('errors and JSON', () => {
  it('maps unexpected errors to a bare -32603 without leaking their text', () => {
    expect(toErrorObject(new Error('secret path /etc/x'))).toEqual({ code: -32603, message: 'Internal error' });
  });

  it('prints bigints as exact JSON integers', () => {
    const n = 18_446_744_073_709_551_615n;
    expect(stringifyJson({ nonce: n, s: 'x' })).toBe('{"nonce":18446744073709551615,"s":"x"}');
    // A client string that carries the internal marker never becomes a number.
    expect(stringifyJson({ n: 5n, s: '\u0000weft-bigint:1' })).toBe('{"n":"5","s":"\\u0000weft-bigint:1"}');
  });
});

describe('services that are not wired', () => {
  it('answer their methods with -32603 naming the service, never invented data', async () => {
    const errorOf = async (method: string, params: unknown) => ((await call({ jsonrpc: '2.0', method, params, id: 1 })) as { error?: unknown }).error;
    const { encodeAddress } = await import('../../../src/crypto/address.ts');
    const valid = encodeAddress(regtestParams.hrp, new Uint8Array(33));
    expect(await errorOf('get_balance', { address: valid })).toMatchObject({ code: -32603, data: { service: 'ledger', reason: 'service_not_configured' } });
    expect(await errorOf('create_address', {})).toMatchObject({ code: -32603, data: { service: 'wallet' } });
    expect(await errorOf('send_raw_transaction', { transaction: '0x00' })).toMatchObject({ code: -32603, data: { service: 'mempool' } });
  });
});
