// Issue 20, "works as users expect on the first try", on a real node: a mining node pays its own wallet, so the
// coins it mined can be sent with send_transaction at once; get_mining_info names the reward address; the agent
// card's gRPC interface says it needs the mutual TLS that the gRPC port enforces.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainExtensionUri, type AgentCard } from '../../src/a2a/card.ts';
import { a2aServiceDefinition } from '../../server/a2a/grpc.ts';
import { startRpcTestNode, type RpcTestNode } from '../helpers/rpc-node.ts';

let t: RpcTestNode;
beforeAll(async () => {
  // --mine with no --miner-address, and the node's own wallet (no test ports): what `npm start` does.
  t = await startRpcTestNode(['--mine', '--threads', '1'], false);
});
afterAll(async () => {
  await t?.close();
});

const result = async (method: string, params?: unknown, path = '/api/v1/rpc') => {
  const res = await t.post(path, JSON.stringify({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }), id: 1 }));
  if (res.body?.error) throw new Error(`${method}: ${JSON.stringify(res.body.error)}`);
  return res.body.result;
};

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('mined coins are spendable out of the box', () => {
  it('mines to the wallet’s first address, named by get_mining_info, and sends from it over JSON-RPC; REST shows it', async () => {
    const info = await result('get_mining_info');
    expect(info.running).toBe(true);
    expect(info.reward_address).toMatch(/^rweft1/);
    expect(info.miner_address).toBe(info.reward_address);
    const miner = info.reward_address as string;
    // The node's wallet holds it: signing with it works (it is not a key outside the wallet).
    expect((await result('sign_message', { address: miner, message: 'mine', signature_type: 'schnorr' })).signature).toBeTruthy();

    // The two transfers below take 1.52 coins: 2 leaves a margin without waiting for ~13 more one-a-second blocks.
    await until('mined coins', async () => ((await result('get_balance', { address: miner })).balance >= 2 ? true : undefined));
    const receiver = (await result('create_address', { wallet_name: 'default' })).address as string;
    expect(receiver).not.toBe(miner);
    // Both JSON-RPC paths (client flow /api/v1/rpc, daemon flow /rpc) send from the mined address.
    const sent = await result('send_transaction', { from: miner, to: receiver, amount: 1, fee: 0.01 });
    expect(sent.hash).toMatch(/^0x[0-9a-f]{64}$/);
    const again = await result('send_transaction', { from: miner, to: receiver, amount: 0.5, fee: 0.01 }, '/rpc');
    expect(again.hash).toMatch(/^0x[0-9a-f]{64}$/);

    // REST reads (the seed's REST API is read-only) see the mined balance and, once mined into a block, the transfer.
    const balance = await t.get(`/api/v1/addresses/${miner}/balance`);
    expect(balance.status).toBe(200);
    expect(balance.body.address).toBe(miner);
    expect(balance.body.balance).toBeGreaterThan(0);
    const tx = await until('the transfer over REST', async () => {
      const res = await t.get(`/api/v1/transactions/${sent.hash}`);
      return res.status === 200 && res.body.block_hash ? res.body : undefined;
    });
    expect(tx).toMatchObject({ hash: sent.hash, from: miner, to: receiver, amount: 1 });
    const received = await until('the receiver’s balance over REST', async () => {
      const res = await t.get(`/api/v1/addresses/${receiver}/balance`);
      return res.body.balance >= 1.5 ? res.body : undefined;
    });
    expect(received.address).toBe(receiver);
  }, 180_000);
});

describe('the card’s gRPC interface declares the mutual TLS the gRPC port enforces', () => {
  const dir = mkdtempSync(join(tmpdir(), 'weft-mtls-card-'));
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('/usr/bin/openssl', args, { cwd: dir, stdio: 'pipe' });
  let tls: RpcTestNode;
  beforeAll(async () => {
    openssl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1', '-subj', '/CN=weft test CA', '-keyout', 'ca.key', '-out', 'ca.pem');
    for (const [name, subject, ext] of [
      ['server', '/CN=127.0.0.1', 'subjectAltName=IP:127.0.0.1,DNS:localhost'],
      ['client', '/CN=weft test client', 'extendedKeyUsage=clientAuth'],
    ] as const) {
      writeFileSync(file(`${name}.ext`), `${ext}\n`);
      openssl('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-subj', subject, '-keyout', `${name}.key`, '-out', `${name}.csr`);
      openssl('x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '1', '-extfile', `${name}.ext`, '-out', `${name}.pem`);
    }
    tls = await startRpcTestNode(['--tls-cert', file('server.pem'), '--tls-key', file('server.key'), '--tls-client-ca', file('ca.pem'), '--https-port', '0', '--grpc-port', '0']);
  }, 60_000);
  afterAll(async () => {
    await tls?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('names mtls as the GRPC interface’s security requirement, and a call without a client certificate never reaches A2A', async () => {
    const card = (await tls.get('/.well-known/agent-card.json')).body as AgentCard;
    const grpcInterface = card.supportedInterfaces.find((i) => i.protocolBinding === 'GRPC')!;
    expect(grpcInterface.url).toBe(`127.0.0.1:${tls.node.api.grpcPort}`);
    expect(card.securitySchemes!.mtls).toEqual({ mtlsSecurityScheme: { description: expect.stringContaining(`GRPC interface ${grpcInterface.url}`) } });
    const ext = card.capabilities.extensions!.find((e) => e.uri === chainExtensionUri)!;
    expect(ext.params!.interfaceSecurityRequirements).toEqual([{ url: grpcInterface.url, protocolBinding: 'GRPC', securityRequirements: [{ schemes: { mtls: { list: [] } } }] }]);

    const Client = grpc.makeGenericClientConstructor(a2aServiceDefinition(), 'A2AService');
    const call = (creds: grpc.ChannelCredentials) =>
      new Promise<grpc.ServiceError>((resolve) => {
        const client = new Client(grpcInterface.url, creds) as unknown as grpc.Client & Record<string, Function>;
        const md = new grpc.Metadata();
        md.set('a2a-version', '1.0');
        client.GetTask!.call(client, { id: 'missing' }, md, { deadline: Date.now() + 5000 }, (e: grpc.ServiceError) => (client.close(), resolve(e)));
      });
    const ca = readFileSync(file('ca.pem'));
    expect((await call(grpc.credentials.createSsl(ca))).code).not.toBe(grpc.status.NOT_FOUND); // refused in the TLS handshake
    expect((await call(grpc.credentials.createSsl(ca, readFileSync(file('client.key')), readFileSync(file('client.pem'))))).code).toBe(grpc.status.NOT_FOUND);
  });
});
