// The JSON-RPC listener (server/http/rpc-listener.ts): JSON-RPC POSTs are served on the Node request before Hono,
// under the same access step, deadline and body bound as the Hono routes (docs/auth.md "Request bounds"). A real
// server on 127.0.0.1:0 with a dispatcher over one slow and one quick method.
import { request as httpRequest } from 'node:http';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAccessControl } from '../../../../server/auth/access-control.ts';
import { createRpcListener } from '../../../../server/http/rpc-listener.ts';
import { listenHttp } from '../../../../server/http/start-api.ts';
import { rpcRequestBytesMax } from '../../../../src/limits.ts';
import { createDispatcher } from '../../../../src/rpc/dispatcher.ts';
import { defineMethod } from '../../../../src/rpc/method.ts';
import type { RpcServices } from '../../../../src/rpc/ports.ts';
import { createMemoryStore } from '../../../../src/storage/memory-store.ts';
import { createManualClock } from '../../../../src/util/clock.ts';

// The deadline covers reading the body too: long enough that a loaded 2-core box streams the 1 MiB oversized body
// well inside it (80 ms did not, and answered 504 instead of 413), short enough to keep the timeout test quick.
const deadlineMs = 1_000;
const slowCallMs = 2_500;

const quick = defineMethod({ name: 'quick', summary: 'quick', params: z.strictObject({}), scope: 'public', result: z.object({ ok: z.boolean() }), example: { params: {}, result: { ok: true } }, run: () => ({ ok: true }) });
const slow = defineMethod({
  name: 'slow',
  summary: 'slow',
  params: z.strictObject({}),
  scope: 'public',
  result: z.object({ ok: z.boolean() }),
  example: { params: {}, result: { ok: true } },
  run: () => new Promise<{ ok: boolean }>((done) => setTimeout(() => done({ ok: true }), slowCallMs)),
});

let base: string;
let port: number;
let close: () => Promise<void>;

beforeAll(async () => {
  const access = createAccessControl({ kv: createMemoryStore(), clock: createManualClock(Date.UTC(2030, 0, 1)), timeoutMs: deadlineMs });
  const dispatcher = createDispatcher({ services: {} as RpcServices, version: 't', methods: [quick, slow] });
  const app = new Hono();
  app.use('*', ...access.middleware);
  app.get('/api/v1/rpc', (c) => c.text('hono saw it'));
  app.post('/other', (c) => c.text('hono saw it'));
  const { server, port: p } = await listenHttp(app, createRpcListener({ dispatcher, access }), 0, '127.0.0.1');
  port = p;
  base = `http://127.0.0.1:${p}`;
  close = () => new Promise((done) => {
    server.close(() => done());
    (server as { closeAllConnections?: () => void }).closeAllConnections?.();
  });
});
afterAll(() => close());

const call = (method: string, path = '/api/v1/rpc') =>
  fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', method, params: {}, id: 7 }) });

/** A POST with a chunked body (no Content-Length), `total` bytes sent in 64 KiB chunks. */
function chunkedPost(total: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: '/api/v1/rpc', method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let sent = 0;
    const pump = (): void => {
      while (sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

describe('JSON-RPC listener', () => {
  it('serves the three JSON-RPC paths (query strings ignored) with rate-limit headers', async () => {
    for (const path of ['/api/v1/rpc', '/rpc', '/', '/api/v1/rpc?trace=1']) {
      const res = await call('quick', path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('x-ratelimit-limit'), path).not.toBeNull();
      expect(await res.json()).toMatchObject({ result: { ok: true }, id: 7 });
    }
  });

  it('leaves every other request to the Hono app', async () => {
    expect(await (await fetch(`${base}/api/v1/rpc`)).text()).toBe('hono saw it');
    expect(await (await fetch(`${base}/other`, { method: 'POST', body: '{}' })).text()).toBe('hono saw it');
  });

  it('answers 504 with the JSON-RPC timeout error and the rate-limit headers when a call outlives the deadline', async () => {
    const res = await call('slow');
    expect(res.status).toBe(504);
    expect(res.headers.get('x-ratelimit-remaining')).not.toBeNull();
    expect(await res.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000, data: { reason: 'request_timeout', timeout_ms: deadlineMs } }, id: null });
  });

  it('refuses a declared body over rpcRequestBytesMax with 413 before reading it', async () => {
    const res = await fetch(`${base}/api/v1/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'a'.repeat(rpcRequestBytesMax + 1) });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: { code: -32600, data: { reason: 'request_too_large' } }, id: null });
  });

  it('refuses a chunked body once its streamed bytes pass rpcRequestBytesMax, and keeps serving', async () => {
    const res = await chunkedPost(rpcRequestBytesMax + 128 * 1024);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ error: { data: { reason: 'request_too_large' } } });
    expect((await call('quick')).status).toBe(200);
  });

  it('answers a body that is not JSON with -32700 and a notification with 204', async () => {
    const bad = await fetch(`${base}/rpc`, { method: 'POST', body: '{not json' });
    expect(await bad.json()).toMatchObject({ error: { code: -32700 } });
    const note = await fetch(`${base}/rpc`, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', method: 'quick', params: {} }) });
    expect(note.status).toBe(204);
  });
});
