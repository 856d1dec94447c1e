// The HTTP surface beyond the shared operations: the Agent Card (fields, chain fields, caching, JWS signature),
// JSON-RPC envelope errors and codes, REST statuses and google.rpc.Status bodies, service-parameter headers,
// authentication schemes, the extended card, and push delivery to a real local webhook receiver.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportJWK, generateKeyPair } from 'jose';
import WebSocket from 'ws';
import { verifyAgentCard } from '../../../../src/a2a/card-sign.ts';
import { chainExtensionUri, type AgentCard } from '../../../../src/a2a/card.ts';
import { createChainSignatureVerifier } from '../../../../src/a2a/chain-signature.ts';
import { systemClock } from '../../../../src/util/clock.ts';
import { isPrivateAddress } from '../../../../server/a2a/push/webhook-url.ts';
import { createScriptedExecutor, startA2aServer, type A2aTestServer } from '../../../helpers/a2a-fixtures.ts';
import { testAnonymousKey } from '../../../helpers/a2a-bindings.ts';

const v1 = { 'content-type': 'application/json', 'a2a-version': '1.0', 'a2a-anonymous-key': testAnonymousKey };
let n = 0;
const message = (text: string, extra: object = {}) => ({ messageId: `h-${++n}`, role: 'ROLE_USER', parts: [{ text }], ...extra });
const rpc = (base: string, body: unknown, headers: Record<string, string> = v1) =>
  fetch(`${base}/a2a`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });

describe('Agent Card', () => {
  let plain: A2aTestServer;
  let chain: A2aTestServer;
  let publicKey: CryptoKey;
  beforeAll(async () => {
    plain = await startA2aServer();
    const keys = await generateKeyPair('ES256');
    publicKey = keys.publicKey as CryptoKey;
    chain = await startA2aServer({
      signing: { key: keys.privateKey as CryptoKey, alg: 'ES256', kid: 'node-key-1' },
      auth: { required: false, chainSignature: createChainSignatureVerifier({ chainId: 1338, clock: systemClock }), hrp: 'rweft' },
      card: {
        chain: { chainId: 1338, network: 'regtest', onChainSettlement: false, identity: { agentAccount: 'rweft1agent', controller: 'rweft1ctl', reputationScoreBps: 9000 } },
        skills: [{ id: 'mine', name: 'Mine', description: 'mines', tags: ['pow'], chainBaseCost: 1000 }],
      },
    });
  });
  afterAll(async () => {
    await plain.close();
    await chain.close();
  });

  it('serves the A2A 1.0 fields with Cache-Control and an ETag, and 304 on If-None-Match', async () => {
    const res = await fetch(`${plain.base}/.well-known/agent-card.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.headers.get('cache-control')).toMatch(/max-age=\d+/);
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]+"$/);
    const card = (await res.json()) as AgentCard;
    expect(card).toMatchObject({ name: 'Test agent', description: 'scripted', version: '0.0.1', capabilities: { streaming: true, pushNotifications: true, extendedAgentCard: false } });
    expect(card).not.toHaveProperty('protocolVersion'); // not an A2A 1.0 card field: the chain extension's params carry it
    expect(card.supportedInterfaces.map((i) => [i.protocolBinding, i.protocolVersion])).toEqual([['JSONRPC', '1.0'], ['HTTP+JSON', '1.0'], ['GRPC', '1.0']]);
    expect(card.defaultInputModes).toContain('text/plain');
    expect(card.skills[0]).toMatchObject({ id: 's', tags: ['test'] });
    const again = await fetch(`${plain.base}/.well-known/agent-card.json`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    // Last-Modified beside the ETag, and If-Modified-Since honoured when If-None-Match is absent (RFC 9110 §13.2.2).
    const lastModified = res.headers.get('last-modified')!;
    expect(new Date(lastModified).toUTCString()).toBe(lastModified);
    expect(Date.parse(lastModified)).toBeLessThanOrEqual(Date.now());
    expect(again.headers.get('last-modified')).toBe(lastModified);
    const since = (headers: Record<string, string>) => fetch(`${plain.base}/.well-known/agent-card.json`, { headers }).then((r) => r.status);
    expect(await since({ 'if-modified-since': lastModified })).toBe(304);
    expect(await since({ 'if-modified-since': new Date(Date.parse(lastModified) - 1000).toUTCString() })).toBe(200);
    expect(await since({ 'if-modified-since': 'not a date' })).toBe(200);
    expect(await since({ 'if-modified-since': lastModified, 'if-none-match': '"other"' })).toBe(200);
    expect((await fetch(`${plain.base}/v1/.well-known/agent-card.json`)).status).toBe(200);
  });

  it('omits every chain field when the chain extension is absent', async () => {
    const text = await (await fetch(`${plain.base}/.well-known/agent-card.json`)).text();
    for (const field of ['chainIdentity', 'chainOnChainSettlement', 'chainBaseCost', 'chainSignatureSecurityScheme', chainExtensionUri, 'signatures', 'securitySchemes']) expect(text).not.toContain(field);
  });

  it('carries the seed’s chain fields in the versioned extension’s params when configured, and a JWS signature that verifies', async () => {
    const card = (await (await fetch(`${chain.base}/.well-known/agent-card.json`)).json()) as AgentCard;
    expect(card.capabilities.extensions).toEqual([
      expect.objectContaining({
        uri: chainExtensionUri,
        required: false,
        params: {
          chainId: 1338,
          network: 'regtest',
          protocolVersion: '1.0',
          chainOnChainSettlement: false,
          chainSignatureSecurityScheme: { chainId: 1338, allowedSigners: ['owner'] },
          chainIdentity: { agentAccount: 'rweft1agent', controller: 'rweft1ctl', reputationScoreBps: 9000 },
          skills: [{ id: 'mine', chainBaseCost: 1000 }],
        },
      }),
    ]);
    // None of them outside the extension: the card stays valid A2A 1.0 (test/journeys/a2a-first-try.test.ts validates it).
    expect(card.skills[0]).not.toHaveProperty('chainBaseCost');
    expect(card.securitySchemes?.chainSignature).toBeUndefined();
    expect(card).not.toHaveProperty('chainIdentity');
    expect(card.capabilities).not.toHaveProperty('chainOnChainSettlement');
    expect(card.signatures).toHaveLength(1);
    const header = JSON.parse(Buffer.from(card.signatures![0]!.protected, 'base64url').toString());
    expect(header).toEqual({ alg: 'ES256', kid: 'node-key-1', typ: 'JOSE' });
    expect(await verifyAgentCard(card, publicKey)).toBe(true);
    expect(await verifyAgentCard({ ...card, name: 'tampered' }, publicKey)).toBe(false);
    expect(await exportJWK(publicKey)).toHaveProperty('kty', 'EC');
  });
});

describe('JSON-RPC envelope and error objects', () => {
  let s: A2aTestServer;
  beforeAll(async () => {
    s = await startA2aServer();
  });
  afterAll(() => s.close());

  it('answers parse errors, invalid requests, unknown methods and bad params with the JSON-RPC codes (HTTP 200)', async () => {
    const parse = await rpc(s.base, '{nope');
    expect(parse.status).toBe(200);
    expect((await parse.json()).error.code).toBe(-32700);
    expect((await (await rpc(s.base, { jsonrpc: '1.0', id: 1, method: 'GetTask' })).json()).error.code).toBe(-32600);
    expect((await (await rpc(s.base, [{ jsonrpc: '2.0', id: 1, method: 'GetTask' }])).json()).error.code).toBe(-32600);
    const unknown = await (await rpc(s.base, { jsonrpc: '2.0', id: 'u', method: 'message/send', params: {} })).json();
    expect(unknown).toMatchObject({ jsonrpc: '2.0', id: 'u', error: { code: -32601 } });
    expect((await (await rpc(s.base, { jsonrpc: '2.0', id: 2, method: 'SendMessage', params: {} })).json()).error.code).toBe(-32602);
  });

  it('puts a google.rpc.ErrorInfo in error.data and uses the A2A codes', async () => {
    const body = await (await rpc(s.base, { jsonrpc: '2.0', id: 7, method: 'GetTask', params: { id: 'missing' } })).json();
    expect(body).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32001, message: 'task not found: missing', data: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_FOUND', domain: 'a2a-protocol.org', metadata: { taskId: 'missing' } }] },
    });
    const noVersion = await (await rpc(s.base, { jsonrpc: '2.0', id: 8, method: 'GetTask', params: { id: 'x' } }, { 'content-type': 'application/json' })).json();
    expect(noVersion.error.code).toBe(-32009);
    const cancel = await (await rpc(s.base, { jsonrpc: '2.0', id: 9, method: 'SendMessage', params: { message: message('complete') } })).json();
    const notCancelable = await (await rpc(s.base, { jsonrpc: '2.0', id: 10, method: 'CancelTask', params: { id: cancel.result.task.id } })).json();
    expect(notCancelable.error.code).toBe(-32002);
  });

  it('accepts the seed’s SetTaskPushNotificationConfig as an alias of Create', async () => {
    const task = (await (await rpc(s.base, { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: message('input') } })).json()).result.task;
    const set = await (await rpc(s.base, { jsonrpc: '2.0', id: 2, method: 'SetTaskPushNotificationConfig', params: { taskId: task.id, url: 'http://127.0.0.1:9/x' } })).json();
    expect(set.result).toMatchObject({ taskId: task.id, url: 'http://127.0.0.1:9/x' });
  });

  it('streams SSE frames that echo the request id, with text/event-stream', async () => {
    const res = await rpc(s.base, { jsonrpc: '2.0', id: 'abc', method: 'SendStreamingMessage', params: { message: message('complete') } });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const frames = (await res.text()).split('\n\n').filter(Boolean).map((f) => JSON.parse(f.replace(/^data: /, '')));
    expect(frames).toHaveLength(4);
    expect(frames.every((f) => f.id === 'abc' && f.jsonrpc === '2.0')).toBe(true);
  });

  it('does not answer notifications (no id)', async () => {
    const res = await rpc(s.base, { jsonrpc: '2.0', method: 'GetTask', params: { id: 'x' } });
    expect(res.status).toBe(204);
  });
});

describe('HTTP+JSON statuses and bodies', () => {
  let s: A2aTestServer;
  beforeAll(async () => {
    s = await startA2aServer();
  });
  afterAll(() => s.close());

  it('maps errors to spec 1.0.1 statuses with a google.rpc.Status body', async () => {
    const missing = await fetch(`${s.base}/tasks/nope`, { headers: v1 });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({
      error: { code: 404, status: 'NOT_FOUND', message: 'task not found: nope', details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_FOUND', domain: 'a2a-protocol.org', metadata: { taskId: 'nope' } }] },
    });
    const bad = await fetch(`${s.base}/message:send`, { method: 'POST', headers: v1, body: '{}' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.details[0].reason).toBe('INVALID_PARAMS');
    const version = await fetch(`${s.base}/tasks/nope`);
    expect(version.status).toBe(400);
    expect((await version.json()).error.details[0].reason).toBe('VERSION_NOT_SUPPORTED');
    expect((await fetch(`${s.base}/tasks/nope?A2A-Version=1.0`)).status).toBe(404);
  });

  it('answers application/a2a+json only when Accept names it', async () => {
    const body = JSON.stringify({ message: message('complete') });
    const a2a = await fetch(`${s.base}/message:send`, { method: 'POST', headers: { ...v1, accept: 'application/a2a+json, application/json' }, body });
    expect(a2a.headers.get('content-type')).toBe('application/a2a+json');
    const json = await fetch(`${s.base}/message:send`, { method: 'POST', headers: v1, body });
    expect(json.headers.get('content-type')).toBe('application/json');
  });

  it('serves SubscribeToTask as GET as well as POST (A2A#1574)', async () => {
    const executor = createScriptedExecutor();
    const t = await startA2aServer({ executor });
    const task = (await (await fetch(`${t.base}/message:send`, { method: 'POST', headers: v1, body: JSON.stringify({ message: message('wait get'), configuration: { returnImmediately: true } }) })).json()).task;
    const res = await fetch(`${t.base}/tasks/${task.id}:subscribe`, { headers: v1 });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    executor.gates.release('get');
    const frames = (await res.text()).split('\n\n').filter(Boolean).map((f) => JSON.parse(f.replace(/^data: /, '')));
    expect(Object.keys(frames[0])).toEqual(['task']);
    expect(frames.at(-1).statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
    await t.close();
  });

  it('refuses bodies over the size bound with 413', async () => {
    const res = await rpc(s.base, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: message('x'.repeat(1_100_000)) } }));
    expect(res.status).toBe(413);
  });
});

describe('A2A-Extensions', () => {
  it('echoes activated extensions and requires a required one (-32008)', async () => {
    const s = await startA2aServer({ card: { chain: { chainId: 1338, network: 'regtest', extensionRequired: true } } });
    const without = await (await rpc(s.base, { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } })).json();
    expect(without.error.code).toBe(-32008);
    const res = await rpc(s.base, { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } }, { ...v1, 'a2a-extensions': `https://other.example/ext, ${chainExtensionUri}` });
    expect(res.headers.get('a2a-extensions')).toBe(chainExtensionUri);
    expect((await res.json()).error.code).toBe(-32001);
    await s.close();
  });
});

describe('authentication schemes', () => {
  let s: A2aTestServer;
  beforeAll(async () => {
    s = await startA2aServer({
      auth: {
        required: true,
        apiKey: { location: 'header', name: 'X-API-Key', keys: new Map([['k-alice', 'alice']]) },
        bearer: async (token) => (token === 'tok-bob' ? { id: 'bearer:bob', scheme: 'bearer', scopes: [] } : undefined),
        basic: async (user, pass) => (user === 'carol' && pass === 'pw' ? { id: 'basic:carol', scheme: 'basic', scopes: [] } : undefined),
        oauth: { metadataUrl: 'http://127.0.0.1/.well-known/oauth-authorization-server', authorizationUrl: 'http://127.0.0.1/oauth/authorize', tokenUrl: 'http://127.0.0.1/oauth/token', scopes: { read_balance: 'read' } },
        openIdConnectUrl: 'http://127.0.0.1/.well-known/openid-configuration',
        mtls: true,
      },
      extendedSkills: [{ id: 'admin', name: 'Admin', description: 'for signed-in callers', tags: ['admin'] }],
    });
  });
  afterAll(() => s.close());

  it('declares every scheme in the card with requirements', async () => {
    const card = (await (await fetch(`${s.base}/.well-known/agent-card.json`)).json()) as AgentCard;
    expect(Object.keys(card.securitySchemes!).sort()).toEqual(['apiKey', 'basic', 'bearer', 'mtls', 'oauth2', 'oidc']);
    expect(card.securitySchemes!.apiKey).toEqual({ apiKeySecurityScheme: { location: 'header', name: 'X-API-Key' } });
    expect(card.securitySchemes!.oauth2).toMatchObject({ oauth2SecurityScheme: { oauth2MetadataUrl: 'http://127.0.0.1/.well-known/oauth-authorization-server', flows: { authorizationCode: { tokenUrl: 'http://127.0.0.1/oauth/token' } } } });
    expect(card.securityRequirements).toContainEqual({ schemes: { oauth2: { list: ['read_balance'] } } });
    expect(card.capabilities.extendedAgentCard).toBe(true);
  });

  it('refuses calls without credentials (401 + WWW-Authenticate) and with wrong ones', async () => {
    const res = await rpc(s.base, { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('Bearer');
    expect((await res.json()).error.data[0].reason).toBe('UNAUTHENTICATED');
    for (const headers of [{ 'x-api-key': 'wrong' }, { authorization: 'Bearer nope' }, { authorization: `Basic ${btoa('carol:bad')}` }] as Record<string, string>[]) {
      expect((await rpc(s.base, { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } }, { ...v1, ...headers })).status).toBe(401);
    }
    expect((await fetch(`${s.base}/tasks`, { headers: v1 })).status).toBe(401);
  });

  it('accepts API key, bearer and basic credentials, and shows each principal only its own tasks', async () => {
    const as = (headers: Record<string, string>) => (method: string, params: object) => rpc(s.base, { jsonrpc: '2.0', id: 1, method, params }, { ...v1, ...headers }).then((r) => r.json());
    const alice = as({ 'x-api-key': 'k-alice' });
    const bob = as({ authorization: 'Bearer tok-bob' });
    const carol = as({ authorization: `Basic ${btoa('carol:pw')}` });
    const task = (await alice('SendMessage', { message: message('complete') })).result.task;
    expect((await alice('GetTask', { id: task.id })).result.id).toBe(task.id);
    expect((await bob('GetTask', { id: task.id })).error.code).toBe(-32001);
    expect((await carol('CancelTask', { id: task.id })).error.code).toBe(-32001);
    expect((await bob('ListTasks', {})).result.tasks).toEqual([]);
    expect((await alice('ListTasks', {})).result.totalSize).toBe(1);
  });

  it('reads API keys from the query or a cookie when the scheme says so', async () => {
    for (const location of ['query', 'cookie'] as const) {
      const t = await startA2aServer({ auth: { required: true, apiKey: { location, name: 'api_key', keys: new Map([['k1', 'k']]) } } });
      const ok = location === 'query' ? await fetch(`${t.base}/tasks?api_key=k1`, { headers: v1 }) : await fetch(`${t.base}/tasks`, { headers: { ...v1, cookie: 'other=1; api_key=k1' } });
      expect(ok.status).toBe(200);
      expect((await fetch(`${t.base}/tasks`, { headers: v1 })).status).toBe(401);
      await t.close();
    }
  });

  it('serves the extended card to authenticated callers only', async () => {
    const anon = await startA2aServer({ extendedSkills: [{ id: 'x', name: 'x', description: 'x', tags: ['x'] }] });
    const res = await fetch(`${anon.base}/extendedAgentCard`, { headers: v1 });
    expect(res.status).toBe(401);
    await anon.close();
    const card = await (await fetch(`${s.base}/extendedAgentCard`, { headers: { ...v1, 'x-api-key': 'k-alice' } })).json();
    expect(card.skills.map((k: { id: string }) => k.id)).toEqual(['s', 'admin']);
  });

  it('authenticates the WebSocket at the upgrade and negotiates its version there', async () => {
    const url = `${s.base.replace('http', 'ws')}/a2a/ws`;
    const refused = await new Promise<number>((resolve) => new WebSocket(url, { headers: { 'a2a-version': '1.0', 'a2a-anonymous-key': testAnonymousKey } }).on('unexpected-response', (_req, res) => resolve(res.statusCode!)));
    expect(refused).toBe(401);
    const noVersion = await new Promise<number>((resolve) => new WebSocket(url, { headers: { 'x-api-key': 'k-alice' } }).on('unexpected-response', (_req, res) => resolve(res.statusCode!)));
    expect(noVersion).toBe(400);
    const ws = new WebSocket(`${url}?A2A-Version=1.0`, { headers: { 'x-api-key': 'k-alice' } });
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} }));
    const reply = JSON.parse((await new Promise((r) => ws.once('message', r))) as string);
    expect(reply.result.totalSize).toBeGreaterThanOrEqual(1);
    ws.close();
  });
});

describe('push notifications', () => {
  it('POSTs every task event as a StreamResponse with the config’s Authorization and token, retrying on failure', async () => {
    const received: { headers: IncomingMessage['headers']; body: any }[] = [];
    let failFirst = true;
    const receiver = createServer((req, res) => {
      let data = '';
      req.on('data', (c) => (data += c));
      req.on('end', () => {
        if (failFirst) {
          failFirst = false;
          res.statusCode = 503;
          return res.end();
        }
        received.push({ headers: req.headers, body: JSON.parse(data) });
        res.end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const s = await startA2aServer();
    const res = await rpc(s.base, {
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: message('complete'), configuration: { taskPushNotificationConfig: { url, token: 'tok-1', authentication: { scheme: 'Bearer', credentials: 'secret' } } } },
    });
    const task = (await res.json()).result.task;
    await s.service.push!.idle();
    expect(received.map((r) => Object.keys(r.body)[0])).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'statusUpdate']);
    expect(received.every((r) => r.headers.authorization === 'Bearer secret' && r.headers['x-a2a-notification-token'] === 'tok-1')).toBe(true);
    expect(received[0]!.headers['content-type']).toBe('application/a2a+json');
    expect(received[0]!.body.task.id).toBe(task.id);
    expect(received.at(-1)!.body.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
    await s.close();
    receiver.close();
  });

  it('refuses private webhook targets unless allowlisted (SSRF guard)', async () => {
    const s = await startA2aServer({ push: {} });
    const task = (await (await rpc(s.base, { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: message('input') } })).json()).result.task;
    for (const url of ['http://127.0.0.1:9/x', 'http://10.1.2.3/x', 'http://[::1]/x', 'http://169.254.169.254/latest', 'file:///etc/passwd']) {
      const body = await (await rpc(s.base, { jsonrpc: '2.0', id: 2, method: 'CreateTaskPushNotificationConfig', params: { taskId: task.id, url } })).json();
      expect(body.error?.code, url).toBe(-32602);
    }
    await s.close();
    expect(['192.168.1.1', '172.20.0.1', '100.64.0.1', '::ffff:127.0.0.1', 'fd00::1', 'fe80::1', '0.0.0.0'].every(isPrivateAddress)).toBe(true);
    expect(['8.8.8.8', '2001:4860:4860::8888', '172.32.0.1'].some(isPrivateAddress)).toBe(false);
  });

  it('answers -32003 when push notifications are off', async () => {
    const s = await startA2aServer({ push: false });
    const body = await (await rpc(s.base, { jsonrpc: '2.0', id: 1, method: 'GetTaskPushNotificationConfig', params: { taskId: 't', id: 'c' } })).json();
    expect(body.error.code).toBe(-32003);
    await s.close();
  });
});
