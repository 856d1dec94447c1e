// Attack class: hostile client input over gRPC (issue 30, "the same for RPC, REST, WebSocket, gRPC and A2A inputs";
// the HTTP, REST and WebSocket rows are in adversarial-api-inputs.test.ts). A real regtest node with mutual TLS gets
// the rows rpc-tls-grpc.test.ts does not cover — bad hex, short hashes, bad addresses, non-canonical, badly signed
// and unknown-kind raw transactions, odd-length hex, every credential failure, a request over the message bound and
// a method the service does not have — each refused with its gRPC status and the seed's JSON-RPC code in the
// `weft-error-code` trailer, and the chain and mempool unchanged afterwards.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeProtoPath, protoLoaderOptions } from '../../../../server/grpc/grpc-server.ts';
import { encodeTransaction, signTransfer } from '../../../../src/kinds/transaction-codec.ts';
import { TxKind } from '../../../../src/codec/transaction-kinds.ts';
import { regtestParams } from '../../../../src/consensus/params.ts';
import { encodeAddress } from '../../../../src/crypto/address.ts';
import { grpcMessageBytesMax } from '../../../../src/limits.ts';
import { concatBytes, toHex } from '../../../../src/util/bytes.ts';
import { wallet } from '../../../helpers/ledger-fixtures.ts';
import { startRpcTestNode, type RpcTestNode } from '../../../helpers/rpc-node.ts';

const dir = mkdtempSync(join(tmpdir(), 'weft-adversarial-grpc-'));
const file = (name: string) => join(dir, name);
const openssl = (...args: string[]) => execFileSync('/usr/bin/openssl', args, { cwd: dir, stdio: 'pipe' });
type NodeClient = grpc.Client & Record<string, (...args: any[]) => any>;

let t: RpcTestNode;
let c: NodeClient;
const alice = wallet(1);

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
  t = await startRpcTestNode(['--tls-cert', file('server.pem'), '--tls-key', file('server.key'), '--tls-client-ca', file('ca.pem'), '--https-port', '0', '--grpc-port', '0', '--rate-limits=false'], false);
  await t.mine();
  const loaded = grpc.loadPackageDefinition(protoLoader.loadSync(nodeProtoPath, protoLoaderOptions)) as any;
  const creds = grpc.credentials.createSsl(readFileSync(file('ca.pem')), readFileSync(file('client.key')), readFileSync(file('client.pem')));
  c = new loaded.weft.v1.Node(`127.0.0.1:${t.node.api.grpcPort}`, creds, { 'grpc.max_send_message_length': 16 << 20 }) as NodeClient;
}, 60_000);
afterAll(async () => {
  c?.close();
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

function metadata(headers: Record<string, string>): grpc.Metadata {
  const m = new grpc.Metadata();
  for (const [k, v] of Object.entries(headers)) m.set(k, v);
  return m;
}

const refusal = (rpc: string, request: object, headers: Record<string, string> = {}) =>
  new Promise<grpc.ServiceError>((resolve, reject) =>
    c[rpc]!(request, metadata(headers), (error: grpc.ServiceError | null) => (error ? resolve(error) : reject(new Error(`${rpc} succeeded`)))),
  );

function raw(overrides: { chainId?: number } = {}): Uint8Array {
  return encodeTransaction(signTransfer({ kind: TxKind.Transfer, chainId: overrides.chainId ?? regtestParams.chainId, from: alice.address, to: wallet(2).address, amount: 1n, fee: 1_000n, nonce: 0n, useEnergy: false, memo: new Uint8Array() }, alice.privateKey, new Uint8Array(32)));
}
const hex = (bytes: Uint8Array) => `0x${toHex(bytes)}`;

describe('gRPC: bad input gets its status and seed code and changes nothing', () => {
  let before: unknown;
  beforeAll(async () => {
    before = { info: (await t.rpc('get_info')).body.result.selected_tip, pool: (await t.rpc('get_mempool')).body.result };
  });

  // [what, rpc, request, gRPC status, JSON-RPC code in the trailer]
  const rows: Array<[string, string, () => object, grpc.status, string]> = [
    ['a hash with non-hex digits', 'GetBlock', () => ({ hash: `0x${'g'.repeat(64)}` }), grpc.status.INVALID_ARGUMENT, '-32602'],
    ['a hash one digit short', 'GetTransaction', () => ({ hash: `0x${'a'.repeat(63)}` }), grpc.status.INVALID_ARGUMENT, '-32602'],
    ['a height past the tip', 'GetBlock', () => ({ height: 1_000_000 }), grpc.status.NOT_FOUND, '-40004'],
    ['an address that is not bech32m', 'GetBalance', () => ({ address: 'rweft1notanaddress' }), grpc.status.INVALID_ARGUMENT, '-40002'],
    ['an address of another network', 'GetBalance', () => ({ address: encodeAddress('weft', alice.address) }), grpc.status.INVALID_ARGUMENT, '-40002'],
    ['a raw transaction of odd-length hex', 'SendRawTransaction', () => ({ transaction: '0xabc' }), grpc.status.INVALID_ARGUMENT, '-32602'],
    ['a raw transaction with a trailing byte', 'SendRawTransaction', () => ({ transaction: hex(concatBytes(raw(), Uint8Array.of(0))) }), grpc.status.INVALID_ARGUMENT, '-32602'],
    ['a raw transaction of an unknown kind', 'SendRawTransaction', () => ({ transaction: hex(Uint8Array.of(0x7f, ...raw().subarray(1))) }), grpc.status.INVALID_ARGUMENT, '-32602'],
    ['a raw transaction for another chain', 'SendRawTransaction', () => ({ transaction: hex(raw({ chainId: regtestParams.chainId + 1 })) }), grpc.status.FAILED_PRECONDITION, '-40003'],
  ];

  it.each(rows)('%s', async (_what, rpc, request, status, code) => {
    const error = await refusal(rpc, request());
    expect({ status: grpc.status[error.code], code: error.metadata.get('weft-error-code')[0] }, error.details).toEqual({ status: grpc.status[status], code });
  });

  const authRows: Array<[string, Record<string, string>]> = [
    ['no credentials on a protected method', {}],
    ['an unknown API key', { 'x-api-key': 'k'.repeat(40) }],
    ['a malformed authorization', { authorization: 'Bearer' }],
    ['both an API key and a token', { 'x-api-key': 'k'.repeat(40), authorization: `Bearer ${'t'.repeat(43)}` }],
  ];

  it.each(authRows)('%s: UNAUTHENTICATED, -32001', async (_what, headers) => {
    const error = await refusal('SendTransaction', { from: encodeAddress('rweft', alice.address), to: encodeAddress('rweft', alice.address), amount: 1 }, headers);
    expect(error.code).toBe(grpc.status.UNAUTHENTICATED);
    expect(error.metadata.get('weft-error-code')).toEqual(['-32001']);
  });

  it('a request over the message bound is refused by the transport (RESOURCE_EXHAUSTED)', async () => {
    const error = await refusal('SendRawTransaction', { transaction: `0x${'ab'.repeat(grpcMessageBytesMax / 2 + 1024)}` });
    expect(error.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
  });

  it('a method the service does not have is UNIMPLEMENTED', async () => {
    const error = await new Promise<grpc.ServiceError>((resolve) =>
      c.makeUnaryRequest('/weft.v1.Node/NoSuchMethod', (x: Buffer) => x, (x: Buffer) => x, Buffer.from([]), (e) => resolve(e as grpc.ServiceError)),
    );
    expect(error.code).toBe(grpc.status.UNIMPLEMENTED);
  });

  it('after the table the chain and mempool are unchanged, and a good call is answered', async () => {
    expect({ info: (await t.rpc('get_info')).body.result.selected_tip, pool: (await t.rpc('get_mempool')).body.result }).toEqual(before);
    const height = await new Promise<any>((resolve, reject) => c.GetBlockHeight!({}, (e: grpc.ServiceError | null, r: unknown) => (e ? reject(e) : resolve(r))));
    expect(height.height).toBe(1);
  });
});
