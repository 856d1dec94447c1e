// What the explorer derives about escrows without a read of its own (web/explorer/settlement-history.ts, docs/web.md
// "Agent accounts and escrows"): the id of the escrow a transaction names — a create's computed from its client and
// nonce exactly as acceptance keys the record — and the steps an escrow record says happened, with who may have sent
// each. The scans themselves run against a real node in e2e/explorer-agent.spec.ts.
import { describe, expect, it } from 'vitest';
import { regtestParams } from '../src/consensus/params.ts';
import { encodeAddress } from '../src/crypto/address.ts';
import { txHash } from '../src/codec/transaction.ts';
import { escrowClaimKind } from '../src/kinds/escrow/escrow-claim.ts';
import { escrowCreateKind } from '../src/kinds/escrow/escrow-create.ts';
import { escrowIdOf } from '../src/kinds/escrow/escrow-record.ts';
import { transactionFields } from '../src/kinds/json-view.ts';
import { toHash0x } from '../src/util/bytes.ts';
import { escrowIdOfTransaction, escrowSteps, type EscrowView } from '../web/explorer/settlement-history.ts';
import { actor, signed } from './helpers/agent-fixtures.ts';

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
