// Rate limits (docs/auth.md "Rate limits"): token buckets per client identity with the seed's per-tier limits, the
// X-RateLimit-* headers on every response, burst behaviour, the 429 body, and isolation between identities. The
// clock is a manual one: a minute passes in a line, never in a sleep.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ratePolicies, ratePolicyFor } from '../../../src/auth/rate-policy.ts';
import { createRateLimiter } from '../../../src/auth/token-bucket.ts';
import { createManualClock } from '../../../src/util/clock.ts';
import { createWsGuard } from '../../../server/auth/ws-guard.ts';
import { anonymousIdentity } from '../../../src/auth/identity.ts';
import { wsRateLimitStrikesMax } from '../../../src/auth/auth-limits.ts';
import { scopes } from '../../../src/auth/scopes.ts';
import * as grpc from '@grpc/grpc-js';
import { createAccessControl } from '../../../server/auth/access-control.ts';
import { grpcAuthorizer } from '../../../server/auth/grpc-authorize.ts';
import { createMemoryStore } from '../../../src/storage/memory-store.ts';
import { explorerPath, startAuthApp, type AuthApp } from '../../helpers/auth-app.ts';

let t: AuthApp;
let apiKey: string;
let otherKey: string;
let bearer: string;

beforeAll(async () => {
  t = await startAuthApp();
  apiKey = (await t.access.keys.create({ label: 'one', scopes: [] })).key;
  otherKey = (await t.access.keys.create({ label: 'two', scopes: [] })).key;
  // An OAuth access token straight from the grant store (the HTTP flow has its own test file).
  const client = await t.access.clients.create({ name: 'rl', redirectUris: ['http://127.0.0.1/cb'], scopes: [...scopes] });
  const code = t.access.grants.issueCode({ clientId: client.info.id, redirectUri: 'http://127.0.0.1/cb', scopes: ['read_balance'], challenge: null });
  bearer = (await t.access.grants.redeemCode(code, client.info.id, 'http://127.0.0.1/cb', undefined)).access_token;
});
afterAll(() => t.close());

/** In-process requests (app.request: same middleware, no socket) for the thousands of calls; JSON-RPC POSTs go over
 * the socket, since the node serves them before Hono. */
const hit = (path: string, init: RequestInit = {}) => (init.method === 'POST' ? t.request(path, init) : t.app.request(path, init));
const drain = async (n: number, path: string, init: RequestInit = {}): Promise<Response[]> => {
  const out: Response[] = [];
  for (let i = 0; i < n; i++) out.push(await hit(path, init));
  return out;
};
const fresh = () => t.clock.advance(10 * 60_000);

describe('token bucket', () => {
  it('allows exactly the burst from a full bucket, then one more per 60000/perMinute ms', () => {
    const clock = createManualClock(0);
    const limiter = createRateLimiter({ clock });
    const policy = ratePolicies.publicRpc; // 100 a minute, burst 200
    for (let i = 0; i < 200; i++) expect(limiter.take('k', policy).allowed).toBe(true);
    const refused = limiter.take('k', policy);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, limit: 200, retryAfterMs: 600 });
    clock.advance(599);
    expect(limiter.take('k', policy).allowed).toBe(false);
    clock.advance(1);
    expect(limiter.take('k', policy).allowed).toBe(true);
    expect(limiter.take('k', policy).allowed).toBe(false);
    // A full minute brings back the sustained rate (100), not the burst.
    clock.advance(60_000);
    let n = 0;
    while (limiter.take('k', policy).allowed) n++;
    expect(n).toBe(100);
  });

  it('reports Reset as the second the bucket is full again and forgets the least recently used bucket when full', () => {
    const clock = createManualClock(1_000_000);
    const limiter = createRateLimiter({ clock, bucketsMax: 2 });
    const d = limiter.take('a', ratePolicies.unauthenticated);
    expect(d).toMatchObject({ limit: 100, remaining: 99, resetSeconds: Math.ceil((1_000_000 + 600) / 1000) });
    limiter.take('b', ratePolicies.unauthenticated);
    limiter.take('c', ratePolicies.unauthenticated);
    expect(limiter.size()).toBe(2);
  });

  it('maps tier × surface onto the seed table', () => {
    expect(ratePolicyFor('anonymous', 'rpc')).toMatchObject({ perMinute: 100, burst: 100 });
    expect(ratePolicyFor('anonymous', 'public_rpc')).toMatchObject({ perMinute: 100, burst: 200 });
    expect(ratePolicyFor('anonymous', 'explorer')).toMatchObject({ perMinute: 60, burst: 120 });
    expect(ratePolicyFor('anonymous', 'ws')).toMatchObject({ perMinute: 1_000, burst: 2_000 });
    expect(ratePolicyFor('api_key', 'rpc')).toMatchObject({ perMinute: 1_000, burst: 1_000 });
    expect(ratePolicyFor('oauth', 'public_rpc')).toMatchObject({ perMinute: 5_000, burst: 5_000 });
  });
});

describe('HTTP rate limits per tier', () => {
  it('unauthenticated: 100 a minute with headers on every response, then 429 with Retry-After and -32005', async () => {
    fresh();
    const first = await fetch(`${t.base}/health`);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit')).toBe('100');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('99');
    expect(Number(first.headers.get('x-ratelimit-reset'))).toBe(Math.ceil((t.clock.nowMs() + 600) / 1000));
    for (let i = 0; i < 99; i++) expect((await fetch(`${t.base}/health`)).status).toBe(200);
    const limited = await t.rpc('get_block_height');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(await limited.json()).toEqual({
      jsonrpc: '2.0',
      error: {
        code: -32005,
        message: 'Limit exceeded: the unauthenticated rate limit is 100 requests a minute (burst 100)',
        data: { reason: 'rate_limited', policy: 'unauthenticated', limit: 100, per_minute: 100, retry_after_seconds: 1 },
      },
      id: null,
    });
    t.clock.advance(600);
    expect((await t.rpc('get_block_height')).status).toBe(200);
  });

  it("takes no token for the web app's static files, even from a client that spent its budget", async () => {
    fresh();
    await drain(100, '/health');
    expect((await hit('/health')).status).toBe(429);
    for (const path of ['/', '/miner.html', '/assets/index-abc.js', '/web-config.json', '/favicon.ico']) {
      const res = await hit(path);
      expect(res.status, path).not.toBe(429);
      expect(res.headers.get('x-ratelimit-limit'), path).toBeNull();
    }
    expect((await hit('/status')).status).toBe(429); // not one of the app's files
  });

  it('API key: 1,000 a minute', async () => {
    fresh();
    const init = { headers: { 'x-api-key': apiKey } };
    const answers = await drain(1_000, '/health', init);
    expect(answers.every((r) => r.status === 200)).toBe(true);
    expect(answers[0]!.headers.get('x-ratelimit-limit')).toBe('1000');
    expect(answers[999]!.headers.get('x-ratelimit-remaining')).toBe('0');
    const over = await hit('/health', init);
    expect(over.status).toBe(429);
    expect(((await over.json()) as { error: { data: { policy: string } } }).error.data.policy).toBe('api_key');
  });

  it('OAuth: 5,000 a minute', async () => {
    fresh();
    const init = { headers: { authorization: `Bearer ${bearer}` } };
    const answers = await drain(5_000, '/health', init);
    expect(answers.filter((r) => r.status !== 200)).toHaveLength(0);
    expect(answers[0]!.headers.get('x-ratelimit-limit')).toBe('5000');
    expect((await hit('/health', init)).status).toBe(429);
  });

  it('public RPC (POST /): 100 a minute with a burst of 200', async () => {
    fresh();
    const init = { method: 'POST', body: JSON.stringify({ method: 'get_block_height', params: {} }), headers: { 'content-type': 'application/json' } };
    const answers = await drain(200, '/', init);
    expect(answers.every((r) => r.status === 200)).toBe(true);
    expect(answers[0]!.headers.get('x-ratelimit-limit')).toBe('200');
    expect((await hit('/', init)).status).toBe(429);
    t.clock.advance(60_000);
    const again = await drain(101, '/', init);
    expect(again.filter((r) => r.status === 200)).toHaveLength(100);
  });

  it('explorer API: 60 a minute with a burst of 120', async () => {
    fresh();
    const answers = await drain(121, explorerPath);
    expect(answers.slice(0, 120).every((r) => r.status === 200)).toBe(true);
    expect(answers[0]!.headers.get('x-ratelimit-limit')).toBe('120');
    expect(answers[120]!.status).toBe(429);
    t.clock.advance(1_000);
    expect((await hit(explorerPath)).status).toBe(200);
  });

  it('keeps identities apart: one exhausted key does not slow another key, a token or anonymous callers', async () => {
    fresh();
    await drain(1_000, '/health', { headers: { 'x-api-key': apiKey } });
    expect((await hit('/health', { headers: { 'x-api-key': apiKey } })).status).toBe(429);
    expect((await hit('/health', { headers: { 'x-api-key': otherKey } })).status).toBe(200);
    expect((await hit('/health', { headers: { authorization: `Bearer ${bearer}` } })).status).toBe(200);
    expect((await hit('/health')).status).toBe(200);
  });

  it('counts a request with a bad key against its address, not against the key it names', async () => {
    fresh();
    const bad = await hit('/api/v1/rpc', { method: 'POST', headers: { 'x-api-key': 'weft_ak_0000000000000000_x' }, body: '{}' });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('x-ratelimit-limit')).toBe('100');
  });
});

describe('WebSocket message limits', () => {
  it('allows 2,000 messages at once, answers -32005 with the call id after that, and closes with 1008 on abuse', () => {
    const clock = createManualClock(0);
    const guard = createWsGuard({ identity: anonymousIdentity('10.0.0.1'), limiter: createRateLimiter({ clock }) });
    const message = JSON.stringify({ jsonrpc: '2.0', method: 'get_block_height', id: 7 });
    for (let i = 0; i < 2_000; i++) expect(guard.check(message).action).toBe('pass');
    const refused = guard.check(message);
    expect(refused.action).toBe('reply');
    expect(JSON.parse((refused as { text: string }).text)).toMatchObject({ error: { code: -32005, data: { policy: 'public_websocket' } }, id: 7 });
    for (let i = 1; i < wsRateLimitStrikesMax; i++) expect(guard.check(message).action).toBe('reply');
    expect(guard.check(message)).toEqual({ action: 'close', code: 1008, reason: 'rate limit exceeded repeatedly' });
  });

  it('refills at 1,000 a minute and forgives a client that slowed down', () => {
    const clock = createManualClock(0);
    const guard = createWsGuard({ identity: anonymousIdentity('10.0.0.2'), limiter: createRateLimiter({ clock }) });
    const message = '{"jsonrpc":"2.0","method":"get_height","id":1}';
    for (let i = 0; i < 2_000 + wsRateLimitStrikesMax; i++) guard.check(message);
    clock.advance(60);
    expect(guard.check(message).action).toBe('pass');
    expect(guard.check(message).action).toBe('reply');
  });

  it('checks scopes per message: anonymous send_transaction gets -32001 with its id', () => {
    const guard = createWsGuard({ identity: anonymousIdentity('10.0.0.3'), limiter: createRateLimiter({ clock: createManualClock(0) }) });
    const verdict = guard.check(JSON.stringify({ jsonrpc: '2.0', method: 'send_transaction', params: {}, id: 'tx' }));
    expect(JSON.parse((verdict as { text: string }).text)).toMatchObject({ error: { code: -32001, data: { reason: 'authentication_required', scope: 'send_transactions' } }, id: 'tx' });
  });
});

describe('rate-limits=false', () => {
  // A private node or a test network (config `rate-limits=false`): no surface meters its callers. The WebSocket and gRPC
  // surfaces used to keep theirs, so a browser test's sixteen page loads from one address ran out the WebSocket's.
  it('meters no WebSocket message and no gRPC call', async () => {
    const access = createAccessControl({ kv: createMemoryStore(), clock: createManualClock(0), rateLimits: false });
    expect(access.limiter).toBeUndefined();
    const guard = createWsGuard({ identity: anonymousIdentity('10.0.0.9'), limiter: access.limiter });
    const message = JSON.stringify({ jsonrpc: '2.0', method: 'get_block_height', id: 1 });
    for (let i = 0; i < 2_500; i++) expect(guard.check(message).action).toBe('pass');
    const authorize = grpcAuthorizer(access);
    for (let i = 0; i < 150; i++) await expect(authorize(new grpc.Metadata(), '10.0.0.9:5000', 'get_block_height', {})).resolves.toMatchObject({ tier: 'anonymous' });
  });
});

describe('request bounds', () => {
  it('answers 504 with a JSON-RPC error when a handler runs past the time limit, still with rate-limit headers', async () => {
    const slow = await startAuthApp({
      timeoutMs: 50,
      extra: (app) => app.get('/slow', async (c) => {
        await new Promise((r) => setTimeout(r, 300));
        return c.json({ late: true });
      }),
    });
    try {
      const res = await fetch(`${slow.base}/slow`);
      expect(res.status).toBe(504);
      expect(res.headers.get('x-ratelimit-limit')).toBe('100');
      expect(await res.json()).toMatchObject({ error: { code: -32000, data: { reason: 'request_timeout', timeout_ms: 50 } } });
      expect((await fetch(`${slow.base}/health`)).status).toBe(200);
    } finally {
      await slow.close();
    }
  });

  it('refuses OAuth form bodies over 16 KiB with 413', async () => {
    const res = await fetch(`${t.base}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `grant_type=refresh_token&refresh_token=${'x'.repeat(17 * 1024)}` });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: { data: { reason: 'request_too_large', limit_bytes: 16 * 1024 } } });
  });
});
