// Settlement survives a node restart (docs/a2a.md "On-chain settlement"): a real node with agent-account and a claim
// session key completes two settled tasks — one whose claim is already in the mempool (pending), one whose escrow's
// dispute window has not passed yet (waiting) — and is closed. A second node on the same datadir then
//   - refuses a new task on either escrow with -32104 `escrow_in_use` and creates no task, and
//   - keeps following both anchors: the pending claim is confirmed, the waiting one goes out once the window passed
//     and is confirmed too, each reaching the task's stored metadata.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeTransaction } from '../../../src/kinds/transaction-codec.ts';
import { encodeAddress } from '../../../src/crypto/address.ts';
import { escrowCreateKind } from '../../../src/kinds/escrow/escrow-create.ts';
import { escrowIdOf } from '../../../src/kinds/escrow/escrow-record.ts';
import { fromHex, toHex } from '../../../src/util/bytes.ts';
import { claimingAgentTransactions, client, owner, signed } from '../../helpers/agent-fixtures.ts';
import { startRpcTestNode, type RpcTestNode } from '../../helpers/rpc-node.ts';
import { testAnonymousKey } from '../../helpers/a2a-bindings.ts';

const hrp = 'rweft';
const dir = mkdtempSync(join(tmpdir(), 'weft-a2a-restart-'));
const nodeArgs = ['--agent-account', encodeAddress(hrp, owner.address), '--agent-session-key-id', '1'];
let t: RpcTestNode;

const nonceOf = (a: Uint8Array) => t.node.ledger.account(a).nonce;
const pendingBytes = () => t.node.api.dispatcher.services.mempool!.pending().map((r) => encodeTransaction(r.tx as Parameters<typeof encodeTransaction>[0]));
/** A block with the mempool's transactions (and `extra`), and one more that accepts them. */
async function confirm(extra: Uint8Array[] = []) {
  await t.mine({ transactions: [...extra, ...pendingBytes()] });
  await t.mine();
}
async function a2a(method: string, params: unknown): Promise<any> {
  const res = await fetch(`${t.base}/a2a`, { method: 'POST', headers: { 'content-type': 'application/json', 'a2a-version': '1.0', 'a2a-anonymous-key': testAnonymousKey }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return res.json();
}
const anchorOf = async (taskId: string) => (await a2a('GetTask', { id: taskId })).result.metadata.taskAnchor;
async function until<T>(what: string, probe: () => Promise<T | undefined>, step: () => Promise<unknown> = () => new Promise((r) => setTimeout(r, 50))): Promise<T> {
  for (let i = 0; i < 40; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await step();
  }
  throw new Error(`timed out waiting for ${what}`);
}
async function lockEscrow(disputeWindow: bigint): Promise<Uint8Array> {
  const nonce = nonceOf(client.address);
  const tip = t.node.chain.selectedTip().header.daaScore;
  await confirm([encodeTransaction(signed(escrowCreateKind, { agent: owner.address, taskHash: new Uint8Array(32).fill(Number(nonce)), amount: 1_500_000n, timeoutDaaScore: BigInt(tip + 500), disputeWindow, arbiter: undefined }, client, nonce))]);
  return escrowIdOf(client.address, nonce);
}
const settlement = (escrowId: Uint8Array) => ({ chainSettlement: { maxCost: 2_000_000, currency: 'WEFT', escrowHash: `0x${toHex(escrowId)}`, agentAccount: encodeAddress(hrp, owner.address), skillId: 'chain-query' } });
let k = 0;
const sendSettled = (escrowId: Uint8Array) => a2a('SendMessage', { message: { messageId: `r-${++k}`, role: 'ROLE_USER', parts: [{ text: 'block height' }] }, metadata: settlement(escrowId) });

beforeAll(async () => {
  t = await startRpcTestNode(nodeArgs, false, dir);
  for (const miner of [owner.address, client.address]) await t.mine({ miner });
  await t.mine();
  const sessionKey = fromHex(((await t.rpc('create_address', {})).body.result.public_key as string).replace(/^0x/, ''));
  const n = nonceOf(owner.address);
  await confirm(claimingAgentTransactions(sessionKey, n).map(encodeTransaction));
}, 60_000);
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('A2A settlement across a node restart', () => {
  it('keeps escrows in use and follows pending and waiting claims to confirmation on the restarted node', async () => {
    // Task 1's escrow has a window of 1 DAA step, passed when it completes: its claim goes to the mempool at once.
    // Task 2's has 20, so its claim waits. Both are locked before either task runs, so no block takes the claim.
    const pendingEscrow = await lockEscrow(1n);
    const waitingEscrow = await lockEscrow(20n);
    const first = await sendSettled(pendingEscrow);
    expect(first.error).toBeUndefined();
    const pendingTask = first.result.task.id as string;
    const pendingClaim = await until('the first claim in the mempool', async () => {
      const claim = (await anchorOf(pendingTask))?.claim;
      return claim?.status === 'pending' ? claim : undefined;
    });
    const second = await sendSettled(waitingEscrow);
    expect(second.error).toBeUndefined();
    const waitingTask = second.result.task.id as string;
    await until('the second task completed and waiting', async () => ((await anchorOf(waitingTask))?.claim?.status === 'waiting' ? true : undefined));
    const tasksBefore = (await a2a('ListTasks', {})).result.totalSize;

    await t.close();
    t = await startRpcTestNode(nodeArgs, false, dir);

    // One escrow, one task, across the restart: -32104 escrow_in_use, and no task made.
    for (const escrowId of [pendingEscrow, waitingEscrow]) {
      const again = await sendSettled(escrowId);
      expect(again.error).toMatchObject({ code: -32104, data: [{ reason: 'CHAIN_ESCROW_FAILED', metadata: { reason: 'escrow_in_use' } }] });
    }
    expect((await a2a('ListTasks', {})).result.totalSize).toBe(tasksBefore);

    // The claim the first process submitted is confirmed by the second's blocks (it is in the restored mempool, or
    // dropped and submitted again: either way the same escrow ends Claimed by this node).
    const confirmed = await until('the pending claim confirmed', async () => {
      const anchor = await anchorOf(pendingTask);
      return anchor.claim?.status === 'confirmed' ? anchor : undefined;
    }, confirm);
    expect(confirmed).toMatchObject({ settlement_status: 'Claimed', claim: { status: 'confirmed', transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/) } });
    expect(pendingClaim.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    const claimTx = (await t.rpc('get_transaction', { hash: confirmed.claim.transaction })).body.result;
    expect(claimTx).toMatchObject({ kind: 'escrow_claim', status: 'confirmed' });

    // The waiting one: blocks pass its window, the restarted node claims, and the anchor follows to Claimed.
    const waited = await until('the waiting claim confirmed', async () => {
      const anchor = await anchorOf(waitingTask);
      return anchor.claim?.status === 'confirmed' ? anchor : undefined;
    }, confirm);
    expect(waited).toMatchObject({ settlement_status: 'Claimed', claim: { status: 'confirmed' } });
    expect((await t.rpc('get_escrow', { escrow_id: `0x${toHex(waitingEscrow)}` })).body.result.escrow).toMatchObject({ status: 'Claimed' });
  }, 120_000);
});
