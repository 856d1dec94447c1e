// Escrow settlement (docs/settlement.md "Escrows", "Transitions", "Reasons"): the full transition table
// None → EscrowLocked → Claimed | Refunded | Disputed → Claimed | Refunded with the coins each step moves, every
// refusal as a coded reason that changes nothing, and the completion receipt as a proof the block checks.
import { describe, expect, it } from 'vitest';
import { decodeTransaction, encodeTransaction, verifyTransactionSignatures } from '../../../src/kinds/transaction-codec.ts';
import { nobleVerifier } from '../../../src/crypto/verifier.ts';
import { agentFreezeKind } from '../../../src/kinds/agent/agent-freeze.ts';
import { reputationScoreBps } from '../../../src/kinds/agent/agent-record.ts';
import type { AgentTransaction } from '../../../src/kinds/agent/envelope.ts';
import { signCompletionReceipt } from '../../../src/kinds/escrow/completion-receipt.ts';
import { escrowClaimKind, type EscrowClaimPayload } from '../../../src/kinds/escrow/escrow-claim.ts';
import { escrowCreateKind, type EscrowCreatePayload } from '../../../src/kinds/escrow/escrow-create.ts';
import { escrowDisputeKind } from '../../../src/kinds/escrow/escrow-dispute.ts';
import { escrowReclaimKind } from '../../../src/kinds/escrow/escrow-reclaim.ts';
import { escrowIdOf, EscrowStatus, escrowStatusName } from '../../../src/kinds/escrow/escrow-record.ts';
import { escrowResolveKind } from '../../../src/kinds/escrow/escrow-resolve.ts';
import { agentLedger, arbiter, chainId, client, controller, owner, session, stranger, type Actor, type SimLedger } from '../../helpers/agent-fixtures.ts';

const agent = owner.address;
const amount = 50_000n;
const fee = 1_000n;

function create(sim: SimLedger, terms: Partial<EscrowCreatePayload> = {}, by: Actor = client) {
  const payload: EscrowCreatePayload = {
    agent,
    taskHash: new Uint8Array(32).fill(7),
    amount,
    timeoutDaaScore: 100n,
    disputeWindow: 10n,
    arbiter: arbiter.address,
    ...terms,
  };
  const tx = sim.tx(escrowCreateKind, payload, by);
  return { tx, id: escrowIdOf(tx.payer, tx.nonce) };
}

/** An escrow created and accepted at DAA score 2 (window 10 → claimable without receipt from 12; timeout 100). */
function locked(terms: Partial<EscrowCreatePayload> = {}) {
  const sim = agentLedger();
  const { tx, id } = create(sim, terms);
  expect(sim.block([tx])).toEqual([true]);
  return { sim, id };
}

const receipt = (id: Uint8Array, signer: Actor = client): EscrowClaimPayload['receipt'] => ({
  clientKey: signer.publicKey,
  signature: signCompletionReceipt(chainId, id, signer.privateKey, new Uint8Array(32)),
});
const bySession = { payer: agent, role: 2, sessionKeyId: 1n } as const;
const claim = (sim: SimLedger, id: Uint8Array, withReceipt = true) => sim.tx(escrowClaimKind, { escrowId: id, receipt: withReceipt ? receipt(id) : undefined }, session, bySession);
const reclaim = (sim: SimLedger, id: Uint8Array, by: Actor = client) => sim.tx(escrowReclaimKind, { escrowId: id }, by);
const dispute = (sim: SimLedger, id: Uint8Array, by: Actor = client) => sim.tx(escrowDisputeKind, { escrowId: id }, by);
const resolve = (sim: SimLedger, id: Uint8Array, agentShare: bigint, by: Actor = arbiter) => sim.tx(escrowResolveKind, { escrowId: id, agentShare }, by);

function expectRefused(sim: SimLedger, tx: AgentTransaction, reason: string): void {
  expect(sim.reason(tx)).toBe(reason);
  const records = new Map(sim.records);
  const payer = sim.account(tx.payer);
  expect(sim.block([tx])).toEqual([false]);
  expect(new Map(sim.records)).toEqual(records);
  expect(sim.account(tx.payer)).toMatchObject({ balance: payer.balance, nonce: payer.nonce });
}

const unknownId = new Uint8Array(32).fill(0xee);

describe('escrow transitions', () => {
  it('None → EscrowLocked: the client’s amount and fee leave its balance and the record holds the terms', () => {
    const sim = agentLedger();
    const before = sim.account(client.address).balance;
    const { tx, id } = create(sim);
    expect(sim.escrow(id)).toBeUndefined();
    expect(sim.block([tx])).toEqual([true]);
    expect(sim.account(client.address).balance).toBe(before - amount - fee);
    expect(sim.escrow(id)).toMatchObject({ amount, status: EscrowStatus.EscrowLocked, createdDaaScore: 2n, timeoutDaaScore: 100n, disputeWindow: 10n, agentShare: 0n });
    expect(escrowStatusName(sim.escrow(id)!.status)).toBe('EscrowLocked');
  });

  it('EscrowLocked → Claimed with the client’s receipt, signed by a session key scoped for claims', () => {
    const { sim, id } = locked();
    const agentBefore = sim.account(agent).balance;
    expect(sim.block([claim(sim, id)])).toEqual([true]);
    expect(sim.account(agent).balance).toBe(agentBefore + amount - fee);
    expect(sim.escrow(id)).toMatchObject({ status: EscrowStatus.Claimed, agentShare: amount, settledDaaScore: 3n });
    expect(sim.agent(agent)).toMatchObject({ claimed: 1n, refunded: 0n, resolved: 0n });
    expect(reputationScoreBps(sim.agent(agent)!)).toBe(10_000);
  });

  it('EscrowLocked → Claimed without a receipt once the dispute window elapsed, by the controller', () => {
    const { sim, id } = locked();
    sim.at(12);
    expect(sim.block([sim.tx(escrowClaimKind, { escrowId: id, receipt: undefined }, controller, { payer: agent, role: 1 })])).toEqual([true]);
    expect(sim.escrow(id)!.status).toBe(EscrowStatus.Claimed);
  });

  it('EscrowLocked → Refunded by the client’s reclaim at the timeout', () => {
    const { sim, id } = locked();
    sim.at(100);
    const before = sim.account(client.address).balance;
    expect(sim.block([reclaim(sim, id)])).toEqual([true]);
    expect(sim.account(client.address).balance).toBe(before + amount - fee);
    expect(sim.escrow(id)).toMatchObject({ status: EscrowStatus.Refunded, agentShare: 0n, settledDaaScore: 100n });
    expect(reputationScoreBps(sim.agent(agent)!)).toBe(0);
  });

  it('EscrowLocked → Disputed (client or agent) → Claimed by the arbiter’s split, or Refunded by a zero share', () => {
    for (const [by, payer] of [[client, undefined], [owner, undefined]] as const) {
      const { sim, id } = locked();
      expect(sim.block([sim.tx(escrowDisputeKind, { escrowId: id }, by, payer)])).toEqual([true]);
      expect(sim.escrow(id)).toMatchObject({ status: EscrowStatus.Disputed, disputedDaaScore: 3n });
      // Disputed blocks every other way out, the timeout included.
      sim.at(100);
      expectRefused(sim, claim(sim, id), 'escrow_not_locked');
      expectRefused(sim, reclaim(sim, id), 'escrow_not_locked');
      const agentBefore = sim.account(agent).balance;
      const clientBefore = sim.account(client.address).balance;
      expect(sim.block([resolve(sim, id, 20_000n)])).toEqual([true]);
      expect(sim.account(agent).balance).toBe(agentBefore + 20_000n);
      expect(sim.account(client.address).balance).toBe(clientBefore + amount - 20_000n);
      expect(sim.escrow(id)).toMatchObject({ status: EscrowStatus.Claimed, agentShare: 20_000n });
      expect(sim.agent(agent)).toMatchObject({ claimed: 0n, resolved: 1n });
    }
    const { sim, id } = locked();
    expect(sim.block([dispute(sim, id), resolve(sim, id, 0n)])).toEqual([true, true]);
    expect(sim.escrow(id)).toMatchObject({ status: EscrowStatus.Refunded, agentShare: 0n });
  });

  it('settled escrows are final: nothing claims, reclaims, disputes or resolves them again', () => {
    const { sim, id } = locked();
    expect(sim.block([claim(sim, id)])).toEqual([true]);
    expectRefused(sim, claim(sim, id), 'escrow_not_locked');
    expectRefused(sim, dispute(sim, id), 'escrow_not_locked');
    expectRefused(sim, resolve(sim, id, 0n), 'escrow_not_disputed');
    sim.at(100);
    expectRefused(sim, reclaim(sim, id), 'escrow_not_locked');
  });
});

type Case = readonly [reason: string, build: () => { sim: SimLedger; tx: AgentTransaction }];
const onLocked = (make: (sim: SimLedger, id: Uint8Array) => AgentTransaction, at?: number, terms?: Partial<EscrowCreatePayload>) => () => {
  const { sim, id } = locked(terms);
  if (at !== undefined) sim.at(at);
  return { sim, tx: make(sim, id) };
};
const onFresh = (make: (sim: SimLedger) => AgentTransaction) => () => {
  const sim = agentLedger();
  return { sim, tx: make(sim) };
};

const cases: Case[] = [
  ['amount_zero', onFresh((sim) => create(sim, { amount: 0n }).tx)],
  ['agent_unknown', onFresh((sim) => create(sim, { agent: stranger.address }).tx)],
  ['escrow_client_is_agent', onFresh((sim) => create(sim, {}, owner).tx)],
  ['escrow_arbiter_is_party', onFresh((sim) => create(sim, { arbiter: client.address }).tx)],
  ['escrow_arbiter_is_party', onFresh((sim) => create(sim, { arbiter: agent }).tx)],
  ['escrow_timeout_passed', onFresh((sim) => create(sim, { timeoutDaaScore: 1n }).tx)],
  ['escrow_window_past_timeout', onFresh((sim) => create(sim, { timeoutDaaScore: 20n, disputeWindow: 19n }).tx)],
  ['balance', onFresh((sim) => create(sim, { amount: 10n ** 13n }).tx)],
  ['escrow_unknown', onFresh((sim) => claim(sim, unknownId))],
  ['escrow_not_agent', onLocked((sim, id) => sim.tx(escrowClaimKind, { escrowId: id, receipt: receipt(id) }, stranger))],
  ['escrow_timed_out', onLocked((sim, id) => claim(sim, id), 100)],
  ['receipt_not_client', onLocked((sim, id) => sim.tx(escrowClaimKind, { escrowId: id, receipt: receipt(id, stranger) }, session, bySession))],
  ['escrow_receipt_required', onLocked((sim, id) => claim(sim, id, false), 50, { disputeWindow: 0n })],
  ['escrow_window_open', onLocked((sim, id) => claim(sim, id, false), 11)],
  ['escrow_unknown', onFresh((sim) => reclaim(sim, unknownId))],
  ['escrow_not_client', onLocked((sim, id) => reclaim(sim, id, stranger), 100)],
  ['escrow_not_timed_out', onLocked((sim, id) => reclaim(sim, id), 99)],
  ['escrow_unknown', onFresh((sim) => dispute(sim, unknownId))],
  ['escrow_not_party', onLocked((sim, id) => dispute(sim, id, stranger))],
  ['escrow_not_party', onLocked((sim, id) => dispute(sim, id, arbiter))],
  ['escrow_no_arbiter', onLocked((sim, id) => dispute(sim, id), undefined, { arbiter: undefined })],
  ['escrow_timed_out', onLocked((sim, id) => dispute(sim, id), 100)],
  ['escrow_unknown', onFresh((sim) => resolve(sim, unknownId, 0n))],
  ['escrow_not_disputed', onLocked((sim, id) => resolve(sim, id, 0n))],
];

describe('escrow kinds: every refusal is a coded reason and changes nothing', () => {
  it.each(cases.map(([reason, build], i) => [`${reason} (#${i})`, reason, build] as const))('%s', (_name, reason, build) => {
    const { sim, tx } = build();
    expectRefused(sim, tx, reason);
  });

  it('escrow_not_arbiter and escrow_share_exceeds_amount: only the arbiter splits, within the amount', () => {
    const { sim, id } = locked();
    expect(sim.block([dispute(sim, id)])).toEqual([true]);
    expectRefused(sim, resolve(sim, id, 0n, client), 'escrow_not_arbiter');
    expectRefused(sim, resolve(sim, id, 0n, stranger), 'escrow_not_arbiter');
    expectRefused(sim, resolve(sim, id, amount + 1n), 'escrow_share_exceeds_amount');
  });

  it('agent_frozen: no escrow is created for a frozen agent, and a frozen agent claims nothing', () => {
    const { sim, id } = locked();
    expect(sim.block([sim.tx(agentFreezeKind, { frozen: true }, owner)])).toEqual([true]);
    expectRefused(sim, create(sim).tx, 'agent_frozen');
    expectRefused(sim, claim(sim, id), 'agent_frozen');
    // The client's coins stay reclaimable at the timeout.
    sim.at(100);
    expect(sim.block([reclaim(sim, id)])).toEqual([true]);
  });
});

describe('the completion receipt', () => {
  it('is a proof the block checks: a forged or misplaced receipt fails signature verification', () => {
    const { sim, id } = locked();
    const good = claim(sim, id);
    const decoded = decodeTransaction(encodeTransaction(good));
    expect(decoded).toEqual(good);
    expect(verifyTransactionSignatures(decoded, nobleVerifier)).toBe(true);
    const forged = { ...good, payload: { ...good.payload, receipt: { ...good.payload.receipt!, signature: receipt(unknownId)!.signature } } };
    expect(verifyTransactionSignatures(forged, nobleVerifier)).toBe(false);
    const noSignature = { ...good, signature: new Uint8Array(64) };
    expect(verifyTransactionSignatures(noSignature, nobleVerifier)).toBe(false);
  });
});
