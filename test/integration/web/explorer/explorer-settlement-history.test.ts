// What the explorer derives about escrows without a read of its own (web/explorer/settlement-history.ts, docs/web.md
// "Agent accounts and escrows"): the id of the escrow a transaction names — a create's computed from its client and
// nonce exactly as acceptance keys the record — and the steps an escrow record says happened, with who may have sent
// each; then the scans of the agent's and the parties' histories on a real node whose wallet made the escrows: an
// agent's escrows a batch at a time, and each escrow's steps with the transactions that made them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { regtestParams } from '../../../../src/consensus/params.ts';
import { txHash } from '../../../../src/kinds/transaction-codec.ts';
import { escrowClaimKind } from '../../../../src/kinds/escrow/escrow-claim.ts';
import { escrowCreateKind } from '../../../../src/kinds/escrow/escrow-create.ts';
import { escrowIdOf } from '../../../../src/kinds/escrow/escrow-record.ts';
import { transactionFields } from '../../../../src/kinds/json-view.ts';
import { decodeAddress, encodeAddress } from '../../../../src/crypto/address.ts';
import { encodeTransaction } from '../../../../src/kinds/transaction-codec.ts';
import { toHash0x } from '../../../../src/util/bytes.ts';
import { escrowHistory, escrowIdOfTransaction, escrowSteps, scanAgentEscrows, type EscrowView } from '../../../../web/explorer/settlement-history.ts';
import type { RpcClient } from '../../../../web/lib/node-client.ts';
import { actor, signed } from '../../../helpers/agent-fixtures.ts';
import { startRpcTestNode, type RpcTestNode } from '../../../helpers/rpc-node.ts';

const hrp = regtestParams.hrp;
const client = actor(1);
const agent = actor(2);
const arbiter = actor(3);
const json = (tx: Parameters<typeof txHash>[0]) => transactionFields(tx, txHash(tx), hrp);

describe('escrowIdOfTransaction', () => {
  it('computes a create’s id from its client and nonce, and reads the id other escrow kinds name', () => {
    const create = signed(escrowCreateKind, { agent: agent.address, taskHash: new Uint8Array(32).fill(7), amount: 5_000n, timeoutDaaScore: 900n, disputeWindow: 0n, arbiter: undefined }, client, 41n);
    const id = toHash0x(escrowIdOf(client.address, 41n));
    expect(escrowIdOfTransaction(json(create))).toBe(id);
    // Another nonce, another escrow.
    const next = signed(escrowCreateKind, { ...create.payload }, client, 42n);
    expect(escrowIdOfTransaction(json(next))).not.toBe(id);
    const claim = signed(escrowClaimKind, { escrowId: escrowIdOf(client.address, 41n), receipt: undefined }, agent, 0n);
    expect(escrowIdOfTransaction(json(claim))).toBe(id);
    expect(escrowIdOfTransaction({ kind: 'transfer', escrow_id: id.slice(2) })).toBeUndefined();
  });
});

describe('escrowSteps', () => {
  const base: EscrowView = {
    escrow_id: toHash0x(new Uint8Array(32).fill(1)), status: 'EscrowLocked', client: encodeAddress(hrp, client.address),
    agent_account: encodeAddress(hrp, agent.address), task_hash: toHash0x(new Uint8Array(32)), amount: 1, amount_exact: '1',
    arbiter: encodeAddress(hrp, arbiter.address), created_daa_score: 10, timeout_daa_score: 100, dispute_window: 0,
    disputed_daa_score: 0, settled_daa_score: 0, agent_share: 0, agent_share_exact: '0', timed_out: false,
  };
  const steps = (over: Partial<EscrowView>) => escrowSteps({ ...base, ...over }).map((s) => [s.status, s.kind, s.daaScore, s.senders]);

  it('follows the transitions table: who sends each step, at the DAA score the record keeps', () => {
    const [c, a, r] = [base.client, base.agent_account, base.arbiter!];
    expect(steps({})).toEqual([['EscrowLocked', 'escrow_create', 10, [c]]]);
    expect(steps({ status: 'Claimed', settled_daa_score: 20 })).toEqual([['EscrowLocked', 'escrow_create', 10, [c]], ['Claimed', 'escrow_claim', 20, [a]]]);
    expect(steps({ status: 'Refunded', settled_daa_score: 120 })).toEqual([['EscrowLocked', 'escrow_create', 10, [c]], ['Refunded', 'escrow_reclaim', 120, [c]]]);
    expect(steps({ status: 'Disputed', disputed_daa_score: 15 })).toEqual([['EscrowLocked', 'escrow_create', 10, [c]], ['Disputed', 'escrow_dispute', 15, [c, a]]]);
    // A disputed escrow that settled was resolved by the arbiter, to either side.
    for (const status of ['Claimed', 'Refunded'] as const) {
      expect(steps({ status, disputed_daa_score: 15, settled_daa_score: 30 })).toEqual([
        ['EscrowLocked', 'escrow_create', 10, [c]], ['Disputed', 'escrow_dispute', 15, [c, a]], [status, 'escrow_resolve', 30, [r]],
      ]);
    }
  });
});

describe('the scans, on a real node', () => {
  let t: RpcTestNode;
  let agent: string;
  const ids: Record<'resolved' | 'claimed' | 'locked', string> = { resolved: '', claimed: '', locked: '' };
  const hashes: Record<string, string> = {};
  const ok = async (method: string, params: Record<string, unknown> = {}) => {
    const res = await t.rpc(method, params);
    if (res.body.error) throw new Error(`${method}: ${JSON.stringify(res.body.error)}`);
    return res.body.result;
  };
  const client: RpcClient = { request: (method, params) => ok(method, params) };
  async function confirm() {
    // One payer's transactions in nonce order, as a block must carry them.
    const nonceOf = (r: { tx: unknown }) => (r.tx as { nonce: bigint }).nonce;
    const pending = [...t.node.api.dispatcher.services.mempool!.pending()].sort((a, b) => Number(nonceOf(a) - nonceOf(b)));
    await t.mine({ transactions: pending.map((r) => encodeTransaction(r.tx as Parameters<typeof encodeTransaction>[0])) });
    await t.mine();
  }

  beforeAll(async () => {
    t = await startRpcTestNode([], false);
    agent = (await ok('create_address')).address;
    const payer = (await ok('create_address')).address;
    const arbiter = (await ok('create_address')).address;
    for (const miner of [agent, payer, payer, payer, arbiter]) await t.mine({ miner: decodeAddress(miner, hrp) });
    await t.mine();
    await ok('create_agent_account', { agent_account: agent });
    await confirm();
    const create = (task: string, more: Record<string, unknown>) => ok('create_escrow', { from: payer, agent_account: agent, amount: 0.01, task_id: task, timeout_in: 500, ...more });
    const resolved = await create('a', { arbiter });
    const claimed = await create('b', { dispute_window: 2 });
    const locked = await create('c', {});
    await confirm();
    await t.mine();
    hashes.dispute = (await ok('dispute_escrow', { escrow_id: resolved.escrow_id, from: agent })).hash;
    hashes.claim = (await ok('claim_escrow', { escrow_id: claimed.escrow_id })).hash;
    await confirm();
    hashes.resolve = (await ok('resolve_escrow', { escrow_id: resolved.escrow_id, agent_share: 0.004 })).hash;
    await confirm();
    Object.assign(ids, { resolved: resolved.escrow_id, claimed: claimed.escrow_id, locked: locked.escrow_id });
    Object.assign(hashes, { createResolved: resolved.hash, createClaimed: claimed.hash, createLocked: locked.hash });
  }, 60_000);
  afterAll(() => t?.close());

  it('lists an agent’s escrows newest first, a batch at a time, going on where the last batch stopped', async () => {
    const first = await scanAgentEscrows(client, agent, 0, 2);
    expect(first.creates.map((c) => c.escrow_id)).toEqual([ids.locked, ids.claimed]);
    expect(first.creates.map((c) => c.hash)).toEqual([hashes.createLocked, hashes.createClaimed]);
    expect(first.nextOffset).toBeGreaterThan(0);
    const rest = await scanAgentEscrows(client, agent, first.nextOffset!, 2);
    expect(rest.creates.map((c) => c.escrow_id)).toEqual([ids.resolved]);
    expect(rest.nextOffset).toBeUndefined();
    // The agent's own transactions (create, dispute, claim) are in its history but are no escrows of it.
    expect(first.scanned + rest.scanned).toBe((await ok('get_transaction_history', { address: agent })).total);
  });

  it('finds the transaction of every step, whoever sent it', async () => {
    const stepsOf = async (id: string) => {
      const escrow = (await ok('get_escrow', { escrow_id: id })).escrow as EscrowView;
      const history = await escrowHistory(client, escrow);
      expect(history.unscanned).toEqual([]);
      return history.steps.map((s) => [s.status, s.tx?.hash]);
    };
    // Disputed by the agent, resolved by the arbiter with a share to the agent: Claimed.
    expect(await stepsOf(ids.resolved)).toEqual([['EscrowLocked', hashes.createResolved], ['Disputed', hashes.dispute], ['Claimed', hashes.resolve]]);
    expect(await stepsOf(ids.claimed)).toEqual([['EscrowLocked', hashes.createClaimed], ['Claimed', hashes.claim]]);
    expect(await stepsOf(ids.locked)).toEqual([['EscrowLocked', hashes.createLocked]]);
  });
});
