// HTTPS (TLS 1.3 only) on the https port and gRPC with mutual TLS on the grpc port, with certificates made by
// openssl for this test: a CA, a server certificate for 127.0.0.1 and a client certificate.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeProtoPath, protoLoaderOptions } from '../../../../server/grpc/grpc-server.ts';
import { encodeTransaction } from '../../../../src/kinds/transaction-codec.ts';
import { decodeAddress } from '../../../../src/crypto/address.ts';
import { toHash0x } from '../../../../src/util/bytes.ts';
import { startRpcTestNode, type RpcTestNode } from '../../../helpers/rpc-node.ts';

const dir = mkdtempSync(join(tmpdir(), 'weft-tls-'));
const file = (name: string) => join(dir, name);
const openssl = (...args: string[]) => execFileSync('/usr/bin/openssl', args, { cwd: dir, stdio: 'pipe' });

let t: RpcTestNode;
type NodeClient = grpc.Client & Record<string, (...args: any[]) => any>;
let NodeService: grpc.ServiceClientConstructor;

beforeAll(async () => {
  const { writeFileSync } = await import('node:fs');
  openssl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1', '-subj', '/CN=weft test CA', '-keyout', 'ca.key', '-out', 'ca.pem');
  for (const [name, subject, ext] of [
    ['server', '/CN=127.0.0.1', 'subjectAltName=IP:127.0.0.1,DNS:localhost'],
    ['client', '/CN=weft test client', 'extendedKeyUsage=clientAuth'],
  ] as const) {
    writeFileSync(file(`${name}.ext`), `${ext}\n`);
    openssl('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-subj', subject, '-keyout', `${name}.key`, '-out', `${name}.csr`);
    openssl('x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '1', '-extfile', `${name}.ext`, '-out', `${name}.pem`);
  }
  t = await startRpcTestNode(['--tls-cert', file('server.pem'), '--tls-key', file('server.key'), '--tls-client-ca', file('ca.pem'), '--https-port', '0', '--grpc-port', '0'], false);
  await t.mine();
  const loaded = grpc.loadPackageDefinition(protoLoader.loadSync(nodeProtoPath, protoLoaderOptions)) as any;
  NodeService = loaded.weft.v1.Node;
}, 60_000);
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

function httpsGet(path: string, maxVersion: 'TLSv1.3' | 'TLSv1.2'): Promise<{ status: number; protocol: string | null; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: t.node.api.httpsPort, path, ca: readFileSync(file('ca.pem')), maxVersion },
      (res) => {
        let body = '';
        const protocol = (res.socket as import('node:tls').TLSSocket).getProtocol();
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, protocol, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

function client(withCert: boolean): NodeClient {
  const creds = withCert
    ? grpc.credentials.createSsl(readFileSync(file('ca.pem')), readFileSync(file('client.key')), readFileSync(file('client.pem')))
    : grpc.credentials.createSsl(readFileSync(file('ca.pem')));
  return new NodeService(`127.0.0.1:${t.node.api.grpcPort}`, creds) as unknown as NodeClient;
}

function ownerMetadata(): grpc.Metadata {
  const metadata = new grpc.Metadata();
  metadata.set('x-api-key', readFileSync(t.node.apiCookiePath, 'utf8').trim());
  return metadata;
}

const unaryWith = (c: NodeClient, rpc: string, request: object, metadata: grpc.Metadata) =>
  new Promise<any>((resolve, reject) => c[rpc]!(request, metadata, (error: grpc.ServiceError | null, reply: unknown) => (error ? reject(error) : resolve(reply))));

const unary = (c: NodeClient, rpc: string, request: object) =>
  new Promise<any>((resolve, reject) => c[rpc]!(request, (error: grpc.ServiceError | null, reply: unknown) => (error ? reject(error) : resolve(reply))));

describe('HTTPS', () => {
  it('serves the same API over TLS 1.3', async () => {
    const res = await httpsGet('/health', 'TLSv1.3');
    expect(res.status).toBe(200);
    expect(res.protocol).toBe('TLSv1.3');
    expect(JSON.parse(res.body).height).toBe(1);
  });

  it('refuses a client limited to TLS 1.2', async () => {
    await expect(httpsGet('/health', 'TLSv1.2')).rejects.toThrow();
  });
});

describe('gRPC with mutual TLS', () => {
  it('mirrors JSON-RPC methods with typed and JSON results', async () => {
    const c = client(true);
    try {
      expect(await unary(c, 'GetBlockHeight', {})).toEqual({ height: 1 });
      const tip = t.node.chain.selectedTip();
      const block = await unary(c, 'GetBlock', { hash: toHash0x(tip.hash), include_transactions: false });
      expect(block).toMatchObject({ height: 1, hash: toHash0x(tip.hash), gpu_mining: false });
      expect(BigInt(block.nonce)).toBe(tip.header.nonce);
      const info = await unary(c, 'GetNetworkInfo', {});
      expect(info).toMatchObject({ network_id: 'regtest', block_height: 1 });
      const height = JSON.parse((await unary(c, 'GetHeight', {})).json);
      expect(height.height).toBe(1);
    } finally {
      c.close();
    }
  });

  it('maps JSON-RPC errors to gRPC status with the code in the trailers', async () => {
    const c = client(true);
    try {
      const error = await unary(c, 'GetBlock', { height: 999 }).catch((e: grpc.ServiceError) => e);
      expect(error.code).toBe(grpc.status.NOT_FOUND);
      expect(error.metadata.get('weft-error-code')).toEqual(['-40004']);
      const bad = await unaryWith(c, 'GetBalance', { address: 'nope' }, ownerMetadata()).catch((e: grpc.ServiceError) => e);
      expect(bad.code).toBe(grpc.status.INVALID_ARGUMENT);
    } finally {
      c.close();
    }
  });

  it('checks scopes per call: credentials travel in metadata as on HTTP (docs/auth.md)', async () => {
    const c = client(true);
    try {
      const anonymous = await unary(c, 'StopMining', {}).catch((e: grpc.ServiceError) => e);
      expect(anonymous.code).toBe(grpc.status.UNAUTHENTICATED);
      expect(anonymous.metadata.get('weft-error-code')).toEqual(['-32001']);
      const readOnly = await t.node.access.keys.create({ label: 'grpc-read-only', scopes: ['read_balance'] });
      const metadata = new grpc.Metadata();
      metadata.set('x-api-key', readOnly.key);
      const forbidden = await unaryWith(c, 'StopMining', {}, metadata).catch((e: grpc.ServiceError) => e);
      expect(forbidden.code).toBe(grpc.status.PERMISSION_DENIED);
      expect(forbidden.metadata.get('weft-error-code')).toEqual(['-32002']);
      expect(JSON.parse((await unaryWith(c, 'StopMining', {}, ownerMetadata())).json)).toBeDefined();
    } finally {
      c.close();
    }
  });

  it('streams subscription notifications', async () => {
    const c = client(true);
    try {
      const stream = c.Subscribe!({ topic: 'new_blocks' }) as grpc.ClientReadableStream<{ topic: string; result_json: string }>;
      const first = new Promise<{ topic: string; result_json: string }>((resolve, reject) => {
        stream.once('data', resolve);
        stream.once('error', reject);
      });
      await new Promise((r) => setTimeout(r, 200));
      const { hash } = await t.mine();
      const note = await first;
      expect(note.topic).toBe('new_blocks');
      expect(JSON.parse(note.result_json)).toMatchObject({ hash, height: 2 });
      stream.cancel();
    } finally {
      c.close();
    }
  });

  it('refuses a client without a certificate', async () => {
    const c = client(false);
    try {
      const error = await unary(c, 'GetBlockHeight', {}).catch((e: grpc.ServiceError) => e);
      expect(error.code).toBe(grpc.status.UNAVAILABLE);
    } finally {
      c.close();
    }
  });
});

describe('gRPC JSON-params RPCs generated from the method table', () => {
  const json = async (c: NodeClient, rpc: string, params: unknown) => JSON.parse((await unaryWith(c, rpc, { json: JSON.stringify(params) }, ownerMetadata())).json);
  /** Mines the pending transactions into a block and one more that accepts them. */
  async function confirm() {
    const pending = t.node.api.dispatcher.services.mempool!.pending();
    await t.mine({ transactions: pending.map((r) => encodeTransaction(r.tx as Parameters<typeof encodeTransaction>[0])) });
    await t.mine();
  }

  it('creates an agent account and locks an escrow over mutual TLS, read back with GetAgentAccount and GetEscrow', async () => {
    const c = client(true);
    try {
      const agent = (await unaryWith(c, 'CreateAddress', {}, ownerMetadata())).json;
      const [agentAddress, clientAddress] = [JSON.parse(agent).address as string, JSON.parse((await unaryWith(c, 'CreateAddress', {}, ownerMetadata())).json).address as string];
      const hrp = t.node.chain.params.hrp;
      for (const miner of [agentAddress, clientAddress, clientAddress]) await t.mine({ miner: decodeAddress(miner, hrp) });
      await t.mine();
      expect(await json(c, 'CreateAgentAccount', { agent_account: agentAddress })).toMatchObject({ kind: 'agent_create', status: 'pending', agent_account: agentAddress });
      await confirm();
      // Positional params, as over JSON-RPC: [agent_account].
      const account = await json(c, 'GetAgentAccount', [agentAddress]);
      expect(account.account).toMatchObject({ frozen: false, session_keys: [] });
      const created = await json(c, 'CreateEscrow', { from: clientAddress, agent_account: agentAddress, amount: 0.05, task_id: 'grpc-task', timeout_in: 500, dispute_window: 2 });
      expect(created.escrow_id).toMatch(/^0x[0-9a-f]{64}$/);
      await confirm();
      expect((await json(c, 'GetEscrow', { escrow_id: created.escrow_id })).escrow).toMatchObject({ status: 'EscrowLocked', amount: 0.05, client: clientAddress, agent_account: agentAddress });
      // The same answer as JSON-RPC over HTTP, byte for byte.
      const overHttp = (await t.rpc('get_escrow', { escrow_id: created.escrow_id })).text;
      const overGrpc = (await unaryWith(c, 'GetEscrow', { json: JSON.stringify({ escrow_id: created.escrow_id }) }, ownerMetadata())).json;
      expect(overHttp).toContain(overGrpc);
    } finally {
      c.close();
    }
  }, 60_000);

  it('answers the same errors, scopes and parse failures as JSON-RPC', async () => {
    const c = client(true);
    try {
      const unknown = `0x${'ab'.repeat(32)}`;
      expect((await json(c, 'GetEscrow', { escrow_id: unknown })).escrow).toBeNull();
      // A claim the chain would refuse: the same code and data as over HTTP, with the gRPC status of its kind.
      const overHttp = (await t.rpc('claim_escrow', { escrow_id: unknown })).body.error;
      expect(overHttp.code).toBeLessThan(0);
      const refused = await unaryWith(c, 'ClaimEscrow', { json: JSON.stringify({ escrow_id: unknown }) }, ownerMetadata()).catch((e: grpc.ServiceError) => e);
      expect(refused.metadata.get('weft-error-code')).toEqual([String(overHttp.code)]);
      expect(JSON.parse(refused.metadata.get('weft-error-data')[0] as string)).toEqual(overHttp.data);
      expect(refused.details).toBe(overHttp.message);
      const badParams = await unaryWith(c, 'GetEscrow', { json: '{"escrow_id":"0x12"}' }, ownerMetadata()).catch((e: grpc.ServiceError) => e);
      expect(badParams.code).toBe(grpc.status.INVALID_ARGUMENT);
      expect(badParams.metadata.get('weft-error-code')).toEqual(['-32602']);
      const notJson = await unaryWith(c, 'GetSupply', { json: '{not json' }, ownerMetadata()).catch((e: grpc.ServiceError) => e);
      expect(notJson.metadata.get('weft-error-code')).toEqual(['-32700']);
      // create_escrow needs send_transactions: anonymous is refused before anything runs.
      const anonymous = await unary(c, 'CreateEscrow', { json: '{}' }).catch((e: grpc.ServiceError) => e);
      expect(anonymous.code).toBe(grpc.status.UNAUTHENTICATED);
      expect(anonymous.metadata.get('weft-error-code')).toEqual(['-32001']);
      // A public read needs no credentials, and empty text is no params.
      expect(JSON.parse((await unary(c, 'GetSupply', { json: '' })).json)).toHaveProperty('circulating');
    } finally {
      c.close();
    }
  });
});
