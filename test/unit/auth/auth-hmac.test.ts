// API-key request signatures (docs/auth.md "Request signatures") over a real HTTP server: a good signature passes;
// tampered params, a wrong key, a stale timestamp and a replay each fail with their own -32001 reason; keys can
// require signatures; the canonical JSON is RFC 8785 and the client-side signer in src/auth agrees with the server.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { canonicalize, signingText } from '../../../src/auth/canonical-json.ts';
import { signCall, signedHeaders } from '../../../src/auth/sign-request.ts';
import { createSignatureVerifier } from '../../../server/auth/request-signature.ts';
import { UnauthorizedError } from '../../../src/auth/auth-errors.ts';
import { createManualClock } from '../../../src/util/clock.ts';
import { startAuthApp, type AuthApp } from '../../helpers/auth-app.ts';

let t: AuthApp;
let key: string;
let strictKey: string;

beforeAll(async () => {
  t = await startAuthApp();
  key = (await t.access.keys.create({ label: 'signer', scopes: ['read_balance'] })).key;
  strictKey = (await t.access.keys.create({ label: 'strict', scopes: ['read_balance'], requireSignature: true })).key;
});
afterAll(() => t.close());

const params = { address: 'rweft1qqqsyqcyq5rqwzqfpg9scrgwpugpzysnzs23v9ccrydpk8qarc0jqgj5y5x', privacy_view: 'public' };
const send = (headers: Record<string, string>, body = params, method = 'get_balance') =>
  t.rpc(method, body, headers).then(async (r) => ({ status: r.status, body: (await r.json()) as { error?: { code: number; data: { reason: string } } }, www: r.headers.get('www-authenticate') }));

describe('canonical JSON (RFC 8785)', () => {
  it('sorts keys by UTF-16 code units at every depth, writes no whitespace and ES numbers', () => {
    expect(canonicalize({ b: [3, { z: 1, a: null }], a: 'x', é: 1e21, '\u20ac': 0.1, A: true })).toBe('{"A":true,"a":"x","b":[3,{"a":null,"z":1}],"é":1e+21,"€":0.1}');
    expect(signingText({ method: 'get_balance', params: { privacy_view: 'owner', address: 'a' } }, 1700000000000)).toBe(
      '{"method":"get_balance","params":{"address":"a","privacy_view":"owner"},"timestamp":1700000000000}',
    );
    expect(signingText({ method: 'get_height', params: undefined }, 5)).toBe('{"method":"get_height","params":{},"timestamp":5}');
  });

  it('is the same text whatever order the keys were written in, and reads back as the same value (property)', () => {
    const reversed = (v: unknown): unknown =>
      Array.isArray(v) ? v.map(reversed) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.keys(v).reverse().map((k) => [k, reversed((v as Record<string, unknown>)[k])])) : v;
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalize(value);
        expect(canonicalize(reversed(value))).toBe(text);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        expect(canonicalize(JSON.parse(text))).toBe(text);
      }),
    );
  });

  it('the browser signer equals HMAC-SHA256 over the canonical text', () => {
    const ts = 1_700_000_000_123;
    const expected = createHmac('sha256', key).update(signingText({ method: 'm', params: { b: 1, a: 2 } }, ts)).digest('hex');
    expect(signCall(key, { method: 'm', params: { b: 1, a: 2 } }, ts)).toBe(expected);
  });
});

describe('signed requests over HTTP', () => {
  it('accepts a good signature (canonical form)', async () => {
    const r = await send(signedHeaders(key, { method: 'get_balance', params }, t.clock.nowMs()));
    expect(r.status).toBe(200);
    expect(r.body.error?.code).not.toBe(-32001);
  });

  it("accepts JavaScript's JSON.stringify({method, params, timestamp}) of the params as sent (the seed's client flow)", async () => {
    const ts = t.clock.nowMs() + 1;
    const unsorted = { privacy_view: 'public', address: params.address };
    const signature = createHmac('sha256', key).update(JSON.stringify({ method: 'get_balance', params: unsorted, timestamp: ts })).digest('hex');
    const r = await send({ 'x-api-key': key, 'x-timestamp': String(ts), 'x-signature': signature }, unsorted);
    expect(r.status).toBe(200);
  });

  it('refuses tampered params: signature_mismatch', async () => {
    const headers = signedHeaders(key, { method: 'get_balance', params }, t.clock.nowMs() + 2);
    const r = await send(headers, { ...params, privacy_view: 'owner' });
    expect(r.status).toBe(401);
    expect(r.body.error).toMatchObject({ code: -32001, data: { reason: 'signature_mismatch' } });
    expect(r.www).toContain('ApiKey realm="weft"');
  });

  it('refuses a signature made with another key (signature_mismatch) and a key the node does not know (invalid_api_key)', async () => {
    const other = (await t.access.keys.create({ label: 'other', scopes: ['read_balance'] })).key;
    const ts = t.clock.nowMs() + 3;
    const r = await send({ 'x-api-key': key, 'x-timestamp': String(ts), 'x-signature': signCall(other, { method: 'get_balance', params }, ts) });
    expect(r.body.error).toMatchObject({ code: -32001, data: { reason: 'signature_mismatch' } });
    const unknown = 'weft_ak_0123456789abcdef_' + 'A'.repeat(43);
    const u = await send(signedHeaders(unknown, { method: 'get_balance', params }, ts));
    expect(u.status).toBe(401);
    expect(u.body.error).toMatchObject({ code: -32001, data: { reason: 'invalid_api_key' } });
  });

  it('refuses a timestamp more than 5 minutes away, either way: timestamp_out_of_window', async () => {
    const stale = await send(signedHeaders(key, { method: 'get_balance', params }, t.clock.nowMs() - 5 * 60_000 - 1));
    expect(stale.body.error).toMatchObject({ code: -32001, data: { reason: 'timestamp_out_of_window' } });
    const future = await send(signedHeaders(key, { method: 'get_balance', params }, t.clock.nowMs() + 5 * 60_000 + 1));
    expect(future.body.error).toMatchObject({ data: { reason: 'timestamp_out_of_window' } });
    const edge = await send(signedHeaders(key, { method: 'get_balance', params }, t.clock.nowMs() - 5 * 60_000));
    expect(edge.status).toBe(200);
  });

  it('refuses a replay of a good request: signature_replayed', async () => {
    const headers = signedHeaders(key, { method: 'get_balance', params }, t.clock.nowMs() + 10);
    expect((await send(headers)).status).toBe(200);
    const replay = await send(headers);
    expect(replay.status).toBe(401);
    expect(replay.body.error).toMatchObject({ code: -32001, data: { reason: 'signature_replayed' } });
  });

  it('refuses malformed headers: signature_malformed', async () => {
    const r = await send({ 'x-api-key': key, 'x-timestamp': 'yesterday', 'x-signature': 'ab' });
    expect(r.body.error).toMatchObject({ data: { reason: 'signature_malformed' } });
  });

  it('a key configured to require signatures refuses unsigned requests (signature_required) and takes signed ones', async () => {
    const unsigned = await send({ 'x-api-key': strictKey });
    expect(unsigned.status).toBe(401);
    expect(unsigned.body.error).toMatchObject({ code: -32001, data: { reason: 'signature_required' } });
    expect((await send(signedHeaders(strictKey, { method: 'get_balance', params }, t.clock.nowMs() + 20))).status).toBe(200);
  });

  it('signs batches as method "batch" with the array as params', async () => {
    const batch = [{ jsonrpc: '2.0', method: 'get_height', id: 1 }, { jsonrpc: '2.0', method: 'get_block_height', id: 2 }];
    const ts = t.clock.nowMs() + 30;
    const res = await fetch(`${t.base}/api/v1/rpc`, { method: 'POST', headers: { 'content-type': 'application/json', ...signedHeaders(key, { method: 'batch', params: batch }, ts) }, body: JSON.stringify(batch) });
    expect(res.status).toBe(200);
    expect(await res.json()).toHaveLength(2);
  });
});

describe('replay cache bounds', () => {
  it('forgets signatures once their timestamp has left the window, and refuses (never forgets) when full of live ones', () => {
    const clock = createManualClock(1_000_000);
    const verifier = createSignatureVerifier({ clock, cacheMax: 2 });
    const input = (ts: number) => ({ apiKey: 'k', keyId: 'id', timestamp: String(ts), signature: signCall('k', { method: 'm', params: {} }, ts), call: { method: 'm', params: {} } });
    verifier.verify(input(1_000_000));
    verifier.verify(input(1_000_001));
    expect(() => verifier.verify(input(1_000_002))).toThrow(expect.objectContaining({ code: -32005 }));
    clock.advance(5 * 60_000 + 2);
    verifier.verify(input(clock.nowMs()));
    expect(verifier.cacheSize()).toBe(1);
    expect(() => verifier.verify(input(clock.nowMs()))).toThrow(UnauthorizedError);
  });
});

// Issue 20: the seed sends X-Timestamp as a decimal string and its client signs what it sends, so the signed object
// may carry `timestamp` as that string; it must be the header's exact text (a different value is a mismatch).
describe('timestamp signed as the X-Timestamp string', () => {
  it('accepts the string form (canonical and JSON.stringify order) and the integer form', async () => {
    const ts = t.clock.nowMs() + 40;
    expect((await send(signedHeaders(key, { method: 'get_balance', params }, ts, 'string'))).status).toBe(200);
    const unsorted = { privacy_view: 'public', address: params.address };
    const seedClient = createHmac('sha256', key).update(JSON.stringify({ method: 'get_balance', params: unsorted, timestamp: String(ts + 1) })).digest('hex');
    expect((await send({ 'x-api-key': key, 'x-timestamp': String(ts + 1), 'x-signature': seedClient }, unsorted)).status).toBe(200);
    expect((await send(signedHeaders(key, { method: 'get_balance', params }, ts + 2, 'number'))).status).toBe(200);
  });

  it('refuses a signed timestamp that differs from X-Timestamp, in either form: signature_mismatch', async () => {
    const ts = t.clock.nowMs() + 50;
    for (const form of ['string', 'number'] as const) {
      const signedFor = signedHeaders(key, { method: 'get_balance', params }, ts + (form === 'string' ? 1 : 2), form);
      const r = await send({ ...signedFor, 'X-Timestamp': String(ts) });
      expect(r.status).toBe(401);
      expect(r.body.error).toMatchObject({ code: -32001, data: { reason: 'signature_mismatch' } });
    }
    // The same digits with leading zeros are another string: what was signed is what must be sent.
    const padded = createHmac('sha256', key).update(signingText({ method: 'get_balance', params }, `0${ts + 3}`)).digest('hex');
    const r = await send({ 'x-api-key': key, 'x-timestamp': String(ts + 3), 'x-signature': padded });
    expect(r.body.error).toMatchObject({ code: -32001, data: { reason: 'signature_mismatch' } });
  });
});
