// Issue 20, A2A 1.0 conformance "on the first try": the card validates against the A2A 1.0 AgentCard schema (chain
// fields in the chain extension's params), gRPC error details carry their type URL, @a2a-js/sdk's listTasks works
// as the SDK sends it, statusTimestampAfter is RFC 3339, the push allowlist is configurable, /a2a/ and unknown /a2a
// paths answer JSON-RPC, proto (snake_case) field names are read, and the gRPC interface declares mutual TLS.
import { readFileSync } from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import { Hono } from 'hono';
import protobuf from 'protobufjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientFactory, JsonRpcTransportFactory, RestTransportFactory } from '@a2a-js/sdk/client';
import { SendMessageRequest } from '@a2a-js/sdk';
import { chainExtensionUri, type AgentCard } from '../../src/a2a/card.ts';
import { createChainSignatureVerifier } from '../../src/a2a/chain-signature.ts';
import { isRfc3339 } from '../../src/a2a/protojson.ts';
import { openChain } from '../../src/chain/chain.ts';
import { regtestParams } from '../../src/consensus/params.ts';
import { createMemoryStore } from '../../src/storage/memory-store.ts';
import { createManualClock, systemClock } from '../../src/util/clock.ts';
import { createPushSender } from '../../server/a2a/push-sender.ts';
import { a2aServiceDefinition } from '../../server/a2a/grpc.ts';
import { mountA2a } from '../../server/a2a/http.ts';
import { createNodeA2aService } from '../../server/a2a/node-a2a.ts';
import { loadConfig } from '../../server/config.ts';
import { validateJsonSchema, type JsonSchema } from '../helpers/json-schema.ts';
import { startA2aServer, type A2aTestServer } from '../helpers/a2a-fixtures.ts';
import { fetchWithAnonymousKey, testAnonymousKey } from '../helpers/a2a-bindings.ts';

const schema = JSON.parse(readFileSync(new URL('../fixtures/a2a-1.0-agent-card.schema.json', import.meta.url), 'utf8')) as JsonSchema;
const v1 = { 'content-type': 'application/json', 'a2a-version': '1.0', 'a2a-anonymous-key': testAnonymousKey };
let n = 0;
const message = (text: string, extra: object = {}) => ({ messageId: `ft-${++n}`, role: 'ROLE_USER', parts: [{ text }], ...extra });
const rpcAt = (base: string, path: string, body: unknown) => fetch(`${base}${path}`, { method: 'POST', headers: v1, body: JSON.stringify(body) });

let plain: A2aTestServer;
let full: A2aTestServer;
beforeAll(async () => {
  plain = await startA2aServer();
  full = await startA2aServer({
    auth: {
      required: true,
      apiKey: { location: 'header', name: 'X-API-Key', keys: new Map([['k', 'tester']]) },
      bearer: async () => undefined,
      basic: async () => undefined,
      oauth: { metadataUrl: 'http://127.0.0.1/.well-known/oauth-authorization-server', authorizationUrl: 'http://127.0.0.1/oauth/authorize', tokenUrl: 'http://127.0.0.1/oauth/token', scopes: { read_balance: 'read' } },
      openIdConnectUrl: 'http://127.0.0.1/.well-known/openid-configuration',
      mtls: true,
      chainSignature: createChainSignatureVerifier({ chainId: 1338, clock: systemClock }),
      hrp: 'rweft',
    },
    extendedSkills: [{ id: 'x', name: 'extra', description: 'extended', tags: ['x'] }],
    card: {
      grpcMutualTls: true,
      provider: { url: 'https://weft.dev', organization: 'Weft' },
      chain: { chainId: 1338, network: 'regtest', onChainSettlement: true, identity: { agentAccount: 'rweft1agent', controller: 'rweft1ctl', reputationScoreBps: 9000 } },
      skills: [{ id: 'mine', name: 'Mine', description: 'mines', tags: ['pow'], chainBaseCost: 1000 }],
    },
  });
});
afterAll(async () => {
  await plain?.close();
  await full?.close();
});

describe('Agent Card against the A2A 1.0 JSON schema', () => {
  const cardOf = async (s: A2aTestServer) => (await (await fetch(`${s.base}/.well-known/agent-card.json`)).json()) as AgentCard;

  it('the schema catches what the old card had: top-level protocolVersion, chain members, chainSignatureSecurityScheme', async () => {
    const card = await cardOf(plain);
    expect(validateJsonSchema(schema, { ...card, protocolVersion: '1.0' })).toEqual(['$.protocolVersion: not allowed (additionalProperties false)']);
    expect(validateJsonSchema(schema, { ...card, capabilities: { ...card.capabilities, chainOnChainSettlement: false } })).toHaveLength(1);
    const chainScheme = { securitySchemes: { chainSignature: { chainSignatureSecurityScheme: { chainId: 1, allowedSigners: ['owner'] } } } };
    expect(validateJsonSchema(schema, { ...card, ...chainScheme }).join()).toContain('chainSignatureSecurityScheme: not allowed');
    expect(validateJsonSchema(schema, { ...card, name: undefined, skills: [{ id: 's' }] }).length).toBeGreaterThan(1);
  });

  it('a plain card, a card with every scheme and chain field, and the node’s card all validate', async () => {
    expect(validateJsonSchema(schema, await cardOf(plain))).toEqual([]);
    const card = await cardOf(full);
    expect(validateJsonSchema(schema, card)).toEqual([]);
    expect(Object.keys(card.securitySchemes!).sort()).toEqual(['apiKey', 'basic', 'bearer', 'mtls', 'oauth2', 'oidc']);
    const chain = await openChain({ params: regtestParams, store: createMemoryStore(), clock: createManualClock(regtestParams.genesis.timestampMs) });
    const node = await createNodeA2aService({ chain, kv: createMemoryStore(), baseUrl: 'http://127.0.0.1:8080', grpcTarget: '127.0.0.1:8082', network: 'regtest', version: '0.1.0' });
    const app = new Hono();
    mountA2a(app, node);
    expect(validateJsonSchema(schema, await (await app.request('/.well-known/agent-card.json')).json())).toEqual([]);
    node.close();
  });

  it('carries the seed’s chain fields, under the seed’s names, in the chain extension’s params', async () => {
    const card = await cardOf(full);
    const ext = card.capabilities.extensions!.find((e) => e.uri === chainExtensionUri)!;
    expect(ext.params).toMatchObject({
      protocolVersion: '1.0',
      chainOnChainSettlement: true,
      chainSignatureSecurityScheme: { chainId: 1338, allowedSigners: ['owner'] },
      chainIdentity: { agentAccount: 'rweft1agent', controller: 'rweft1ctl', reputationScoreBps: 9000 },
      skills: [{ id: 'mine', chainBaseCost: 1000 }],
    });
  });
});

describe('gRPC error details', () => {
  it('carry google.rpc.ErrorInfo with its type URL (Any.type_url), decoded with an independent google.rpc.Status', async () => {
    const Client = grpc.makeGenericClientConstructor(a2aServiceDefinition(), 'A2AService');
    const client = new Client(plain.grpcTarget, grpc.credentials.createInsecure()) as unknown as grpc.Client & Record<string, Function>;
    const metadata = new grpc.Metadata();
    metadata.set('a2a-version', '1.0');
    const error = await new Promise<grpc.ServiceError>((resolve) => client.GetTask!.call(client, { id: 'missing' }, metadata, (e: grpc.ServiceError) => resolve(e)));
    client.close();
    expect(error.code).toBe(grpc.status.NOT_FOUND);
    const root = protobuf.parse(
      'syntax = "proto3"; package google.rpc; message Any { string type_url = 1; bytes value = 2; } message Status { int32 code = 1; string message = 2; repeated Any details = 3; } message ErrorInfo { string reason = 1; string domain = 2; map<string, string> metadata = 3; }',
      { keepCase: true },
    ).root;
    const Status = root.lookupType('google.rpc.Status');
    const status = Status.toObject(Status.decode(error.metadata.get('grpc-status-details-bin')[0] as Buffer)) as { code: number; details: { type_url?: string; value: Uint8Array }[] };
    expect(status.code).toBe(grpc.status.NOT_FOUND);
    expect(status.details).toHaveLength(1);
    expect(status.details[0]!.type_url).toBe('type.googleapis.com/google.rpc.ErrorInfo');
    const ErrorInfo = root.lookupType('google.rpc.ErrorInfo');
    expect(ErrorInfo.toObject(ErrorInfo.decode(status.details[0]!.value))).toMatchObject({ reason: 'TASK_NOT_FOUND', domain: 'a2a-protocol.org' });
  });
});

describe('ListTasks as clients send it', () => {
  const bindings = [
    // With an anonymous key (docs/a2a.md "Visibility"), so the list holds the task this client created.
    ['JSONRPC', () => new ClientFactory({ transports: [new JsonRpcTransportFactory({ fetchImpl: fetchWithAnonymousKey })], preferredTransports: ['JSONRPC'] })],
    ['HTTP+JSON', () => new ClientFactory({ transports: [new RestTransportFactory({ fetchImpl: fetchWithAnonymousKey })], preferredTransports: ['HTTP+JSON'] })],
  ] as const;

  it.each(bindings)('@a2a-js/sdk 1.3.0 client.listTasks({ pageSize: 50 }) over %s lists the tasks (unset status = no filter)', async (_name, factory) => {
    const client = await factory().createFromUrl(plain.base);
    const sent = (await client.sendMessage(SendMessageRequest.fromJSON({ message: message('complete') }))) as { id: string };
    // The SDK's own call, exactly as its README shows it: JSON-RPC serialises the unset status as "UNRECOGNIZED".
    const list = await client.listTasks({ pageSize: 50 } as Parameters<typeof client.listTasks>[0]);
    expect(list.tasks.map((t) => t.id)).toContain(sent.id);
  });

  it('reads TASK_STATE_UNSPECIFIED, 0 and "UNRECOGNIZED" as no filter; a real state still filters; junk is -32602', async () => {
    await rpcAt(plain.base, '/a2a', { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: message('input') } });
    const list = async (status: unknown) => (await (await rpcAt(plain.base, '/a2a', { jsonrpc: '2.0', id: 2, method: 'ListTasks', params: { status } })).json()) as any;
    const all = (await list(undefined)).result.totalSize as number;
    for (const unset of ['TASK_STATE_UNSPECIFIED', 0, 'UNRECOGNIZED']) expect((await list(unset)).result.totalSize).toBe(all);
    const waiting = (await list('TASK_STATE_INPUT_REQUIRED')).result;
    expect(waiting.totalSize).toBeLessThan(all);
    expect(waiting.tasks.every((t: any) => t.status.state === 'TASK_STATE_INPUT_REQUIRED')).toBe(true);
    expect((await list('SLEEPING')).error.code).toBe(-32602);
  });

  it('refuses a statusTimestampAfter that is not RFC 3339 with -32602 (JSON-RPC and HTTP+JSON)', async () => {
    const list = async (statusTimestampAfter: string) =>
      (await (await rpcAt(plain.base, '/a2a', { jsonrpc: '2.0', id: 3, method: 'ListTasks', params: { statusTimestampAfter } })).json()) as any;
    for (const loose of ['2025', '2025-01-01', 'Jan 1 2025', '2025-01-01 00:00:00Z', '2025-02-30T00:00:00Z', '2025-01-01T00:00:00', '1735689600000']) {
      const res = await list(loose);
      expect(res.error?.code, loose).toBe(-32602);
      expect(res.error.message).toContain('statusTimestampAfter');
    }
    for (const good of ['2025-01-01T00:00:00Z', '2025-01-01T00:00:00.123456789+02:00', '2024-02-29t23:59:60z']) {
      expect(isRfc3339(good), good).toBe(true);
      expect((await list(good)).result, good).toBeDefined();
    }
    const rest = await fetch(`${plain.base}/tasks?statusTimestampAfter=yesterday`, { headers: { 'a2a-version': '1.0', 'a2a-anonymous-key': testAnonymousKey } });
    expect(rest.status).toBe(400);
    expect(((await rest.json()) as any).error.details[0].reason).toBe('INVALID_PARAMS');
  });
});

describe('proto (snake_case) field names', () => {
  it('reads context_id, task_id and history_length as contextId, taskId and historyLength', async () => {
    const post = async (method: string, params: unknown) => (await (await rpcAt(plain.base, '/a2a', { jsonrpc: '2.0', id: 1, method, params })).json()) as any;
    const first = (await post('SendMessage', { message: { message_id: `sn-${++n}`, context_id: 'ctx-snake', role: 'ROLE_USER', parts: [{ text: 'input' }] } })).result.task;
    expect(first.contextId).toBe('ctx-snake');
    const follow = await post('SendMessage', { message: { message_id: `sn-${++n}`, task_id: first.id, context_id: 'ctx-snake', role: 'ROLE_USER', parts: [{ text: 'more' }] } });
    expect(follow.result.task.id).toBe(first.id); // task_id continued the task instead of starting a new one
    expect(follow.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    const got = (await post('GetTask', { id: first.id, history_length: 1 })).result;
    expect(got.history).toHaveLength(1);
    const listed = (await post('ListTasks', { context_id: 'ctx-snake' })).result;
    expect(listed.tasks.map((t: any) => t.id)).toEqual([first.id]);
    const rest = (await (await fetch(`${plain.base}/tasks/${first.id}?history_length=0`, { headers: { 'a2a-version': '1.0', 'a2a-anonymous-key': testAnonymousKey } })).json()) as any;
    expect(rest.history ?? []).toHaveLength(0);
    const cfg = await post('CreateTaskPushNotificationConfig', { task_id: first.id, url: 'http://127.0.0.1:9/hook' });
    expect(cfg.result.taskId).toBe(first.id);
  });

  it('refuses both spellings of one field with different values: -32602 naming the snake_case field', async () => {
    const res = (await (await rpcAt(plain.base, '/a2a', { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x', historyLength: 1, history_length: 2 } })).json()) as any;
    expect(res.error.code).toBe(-32602);
    expect(res.error.message).toContain('history_length');
    const rest = await fetch(`${plain.base}/tasks?contextId=a&context_id=b`, { headers: { 'a2a-version': '1.0', 'a2a-anonymous-key': testAnonymousKey } });
    expect(rest.status).toBe(400);
    expect(((await rest.json()) as any).error.message).toContain('context_id');
  });
});

describe('paths under /a2a', () => {
  it('POST /a2a/ (trailing slash) is the JSON-RPC endpoint, also under /v1', async () => {
    for (const path of ['/a2a/', '/v1/a2a/']) {
      const res = await rpcAt(plain.base, path, { jsonrpc: '2.0', id: 9, method: 'GetTask', params: { id: 'missing' } });
      expect(res.status, path).toBe(200);
      expect(((await res.json()) as any).error.code).toBe(-32001);
    }
  });

  it('unknown paths and methods under /a2a answer a JSON-RPC error object, not a plain 404', async () => {
    const unknown = await rpcAt(plain.base, '/a2a/nope', { jsonrpc: '2.0', id: 1, method: 'GetTask', params: {} });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toContain('application/json');
    expect(await unknown.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32601 } });
    const get = await fetch(`${plain.base}/a2a`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(await get.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect(((await (await fetch(`${plain.base}/v1/a2a/tasks/x`)).json()) as any).error.code).toBe(-32601);
  });
});

describe('push notification allowlist from the node config', () => {
  it('push-allow-hosts (repeatable, comma-separated; host, IP or IPv4 CIDR) reaches the SSRF guard; the default still refuses private addresses', async () => {
    const config = loadConfig(['--network', 'regtest', '--push-allow-hosts', 'receiver.lan, 10.1.2.3', '--push-allow-hosts', '192.168.0.0/16']);
    expect(config.pushAllowHosts).toEqual(['receiver.lan', '10.1.2.3', '192.168.0.0/16']);
    expect(loadConfig(['--network', 'regtest']).pushAllowHosts).toEqual([]);
    expect(() => loadConfig(['--push-allow-hosts', 'http://x/'])).toThrow(/push-allow-hosts/);
    const allowed = createPushSender({ allowHosts: config.pushAllowHosts });
    await allowed.validate('http://10.1.2.3:9000/hook');
    await allowed.validate('http://192.168.7.20/hook');
    await allowed.validate('https://receiver.lan/hook');
    await expect(allowed.validate('http://10.1.2.4/hook')).rejects.toMatchObject({ code: -32602 });
    await expect(allowed.validate('http://169.254.169.254/latest')).rejects.toMatchObject({ code: -32602 });
    const strict = createPushSender();
    for (const url of ['http://127.0.0.1/x', 'http://10.1.2.3/x', 'http://192.168.7.20/x', 'http://[::1]/x']) await expect(strict.validate(url)).rejects.toMatchObject({ code: -32602 });
  });

  it('the node’s A2A service refuses a private webhook by default and takes it when the host is allowed', async () => {
    const chain = await openChain({ params: regtestParams, store: createMemoryStore(), clock: createManualClock(regtestParams.genesis.timestampMs) });
    const create = async (pushAllowHosts?: string[]) => {
      const service = await createNodeA2aService({ chain, kv: createMemoryStore(), baseUrl: 'http://127.0.0.1:8080', network: 'regtest', version: '0', ...(pushAllowHosts ? { pushAllowHosts } : {}) });
      const app = new Hono();
      mountA2a(app, service);
      const call = async (method: string, params: unknown) =>
        (await (await app.request('/a2a', { method: 'POST', headers: v1, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })).json()) as any;
      const task = (await call('SendMessage', { message: message('send 5') })).result.task;
      const result = await call('CreateTaskPushNotificationConfig', { taskId: task.id, url: 'http://10.0.0.7:8000/hook' });
      service.close();
      return result;
    };
    expect((await create()).error.code).toBe(-32602);
    expect((await create(['10.0.0.0/8'])).result.url).toBe('http://10.0.0.7:8000/hook');
  });
});
