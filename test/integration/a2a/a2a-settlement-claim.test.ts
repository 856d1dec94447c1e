// The agent's node claims a settled task's escrow when the task completes (docs/a2a.md "On-chain settlement"): a
// real node started with agent-account and agent-session-key-id, its session key in the node wallet, takes a
// SendMessage carrying chainSettlement over JSON-RPC; the task completes; once the escrow's dispute window has
// passed the node submits the claim signed by the session key, and the task anchor follows the chain to Claimed and
// `claim.status: confirmed`, in GetTask and in the task's push notifications. A failed task submits nothing.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeTransaction } from '../../../src/kinds/transaction-codec.ts';
import { encodeAddress } from '../../../src/crypto/address.ts';
import { escrowCreateKind } from '../../../src/kinds/escrow/escrow-create.ts';
import { escrowIdOf } from '../../../src/kinds/escrow/escrow-record.ts';
import { fromHex, toHex } from '../../../src/util/bytes.ts';
import { claimingAgentTransactions, client, owner, signed } from '../../helpers/agent-fixtures.ts';
import { startRpcTestNode, type RpcTestNode } from '../../helpers/rpc-node.ts';
import { testAnonymousKey } from '../../helpers/a2a-bindings.ts';

describe('the node claims the escrow of a completed settled task', () => {
  let t: RpcTestNode;
  let hrp: string;
  const pushes: any[] = [];
  const receiver = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      pushes.push(JSON.parse(body));
      res.end();
    });
  });
  const nonceOf = (a: Uint8Array) => t.node.ledger.account(a).nonce;
  async function confirm(extra: Uint8Array[] = []) {
    const pending = t.node.api.dispatcher.services.mempool!.pending().map((r) => encodeTransaction(r.tx as Parameters<typeof encodeTransaction>[0]));
    await t.mine({ transactions: [...extra, ...pending] });
    await t.mine();
  }
  const a2a = async (method: string, params: unknown) => {
    const res = await fetch(`${t.base}/a2a`, { method: 'POST', headers: { 'content-type': 'application/json', 'a2a-version': '1.0', 'a2a-anonymous-key': testAnonymousKey }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
    return (await res.json()) as any;
  };
  async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, step?: () => Promise<void>): Promise<T> {
    for (let i = 0; i < 60; i++) {
      const value = await probe();
      if (value !== undefined) return value;
      if (step) await step();
      else await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${what}`);
  }

  beforeAll(async () => {
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    hrp = 'rweft';
    t = await startRpcTestNode(['--agent-account', encodeAddress(hrp, owner.address), '--agent-session-key-id', '1', '--push-allow-hosts', '127.0.0.1'], false);
    hrp = t.node.chain.params.hrp;
    for (const miner of [owner.address, client.address]) await t.mine({ miner });
    await t.mine();
    // The agent's session key lives in the node wallet; the owner key stays with the test (the agent's operator).
    const sessionKey = fromHex(((await t.rpc('create_address', {})).body.result.public_key as string).replace(/^0x/, ''));
    const n = nonceOf(owner.address);
    await confirm(claimingAgentTransactions(sessionKey, n).map(encodeTransaction));
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    receiver.close();
  });

  async function lockEscrow(amount: bigint) {
    const nonce = nonceOf(client.address);
    const tip = t.node.chain.selectedTip().header.daaScore;
    await confirm([encodeTransaction(signed(escrowCreateKind, { agent: owner.address, taskHash: new Uint8Array(32).fill(Number(nonce)), amount, timeoutDaaScore: BigInt(tip + 500), disputeWindow: 3n, arbiter: undefined }, client, nonce))]);
    return escrowIdOf(client.address, nonce);
  }
  const settlement = (escrowId: Uint8Array) => ({ chainSettlement: { maxCost: 2_000_000, currency: 'WEFT', escrowHash: `0x${toHex(escrowId)}`, agentAccount: encodeAddress(hrp, owner.address), skillId: 'chain-query' } });

  it('completes the task, claims with the session key, and follows the escrow to Claimed', async () => {
    const escrowId = await lockEscrow(1_500_000n);
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const sent = await a2a('SendMessage', {
      message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'block height' }] },
      configuration: { taskPushNotificationConfig: { url } },
      metadata: settlement(escrowId),
    });
    expect(sent.error).toBeUndefined();
    const taskId = sent.result.task.id as string;
    const done = await until('completion', async () => {
      const task = (await a2a('GetTask', { id: taskId })).result;
      return task.status.state === 'TASK_STATE_COMPLETED' ? task : undefined;
    });
    expect(done.metadata.taskAnchor).toMatchObject({ escrow_id: `0x${toHex(escrowId)}`, settlement_status: 'EscrowLocked' });
    expect(['waiting', 'pending']).toContain(done.metadata.taskAnchor.claim.status);
    const agentBefore = t.node.ledger.account(owner.address).balance;
    // Blocks pass the dispute window; the node's claim lands in the mempool and a block accepts it.
    const settled = await until(
      'the claim confirmed',
      async () => {
        const anchor = (await a2a('GetTask', { id: taskId })).result.metadata.taskAnchor;
        return anchor.settlement_status === 'Claimed' ? anchor : undefined;
      },
      () => confirm(),
    );
    expect(settled.claim).toMatchObject({ status: 'confirmed', transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    const claimTx = (await t.rpc('get_transaction', { hash: settled.claim.transaction })).body.result;
    expect(claimTx).toMatchObject({ kind: 'escrow_claim', signer_role: 'session_key', session_key_id: '1' });
    // Exactly the amount, less the claim's fee when the balance paid it.
    expect(t.node.ledger.account(owner.address).balance - agentBefore).toBe(1_500_000n - (claimTx.use_energy ? 0n : BigInt(Math.round(claimTx.fee * 1e8))));
    const statuses = pushes.filter((p) => p.statusUpdate?.taskId === taskId).map((p) => p.statusUpdate.metadata?.taskAnchor?.claim?.status).filter(Boolean);
    await until('the confirmed push', () => (pushes.some((p) => p.statusUpdate?.taskId === taskId && p.statusUpdate.metadata?.taskAnchor?.claim?.status === 'confirmed') ? true : undefined));
    expect(statuses[0]).toBe('waiting');
  });

  it('submits nothing for a task that does not complete', async () => {
    const escrowId = await lockEscrow(1_500_000n);
    // Asking for something the agent cannot do ends the task without completing it (INPUT_REQUIRED), then cancel.
    const sent = await a2a('SendMessage', { message: { messageId: 'm2', role: 'ROLE_USER', parts: [{ text: 'prepare a payment' }] }, metadata: settlement(escrowId) });
    const taskId = sent.result.task.id as string;
    await a2a('CancelTask', { id: taskId });
    for (let i = 0; i < 5; i++) await confirm();
    expect(t.node.api.dispatcher.services.mempool!.size()).toBe(0);
    const escrow = (await t.rpc('get_escrow', { escrow_id: `0x${toHex(escrowId)}` })).body.result.escrow;
    expect(escrow.status).toBe('EscrowLocked');
    const anchor = (await a2a('GetTask', { id: taskId })).result.metadata.taskAnchor;
    expect(anchor).toMatchObject({ settlement_status: 'EscrowLocked' });
    expect(anchor.claim).toBeUndefined();
  });
});
