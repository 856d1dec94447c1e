// Escrow funds are never locked for good (rules v2, docs/settlement.md "Funds never locked for good"): an arbiter that
// can never sign escrow_resolve is refused at creation, and a dispute no one resolves ends at its deadline (timeout +
// escrowDisputeGraceDaa), after which the client reclaims. Below the activation the version 1 rules hold unchanged.
import { describe, expect, it } from 'vitest';
import { contractAddress, multisigAddress } from '../../../src/crypto/address.ts';
import { escrowCreateKind, type EscrowCreatePayload } from '../../../src/kinds/escrow/escrow-create.ts';
import { escrowDisputeKind } from '../../../src/kinds/escrow/escrow-dispute.ts';
import { escrowReclaimKind } from '../../../src/kinds/escrow/escrow-reclaim.ts';
import { escrowIdOf, EscrowStatus } from '../../../src/kinds/escrow/escrow-record.ts';
import { escrowResolveKind } from '../../../src/kinds/escrow/escrow-resolve.ts';
import { escrowDisputeGraceDaa } from '../../../src/kinds/escrow/escrow-rules-v2.ts';
import { agentLedger, arbiter, client, owner, stranger, type SimLedger } from '../../helpers/agent-fixtures.ts';

const agent = owner.address;
const amount = 50_000n;
const timeout = 100n;
const deadline = Number(timeout + escrowDisputeGraceDaa);
const multisigArbiter = multisigAddress(2, [arbiter.publicKey, stranger.publicKey]);
const contractArbiter = contractAddress(stranger.address, 0n);

function create(sim: SimLedger, arbiterAddress: Uint8Array) {
  const payload: EscrowCreatePayload = { agent, taskHash: new Uint8Array(32).fill(7), amount, timeoutDaaScore: timeout, disputeWindow: 0n, arbiter: arbiterAddress };
  const tx = sim.tx(escrowCreateKind, payload, client);
  return { tx, id: escrowIdOf(tx.payer, tx.nonce) };
}

// Each at its sender's account nonce, so a probe with sim.reason uses none up.
/** The agent disputes at once (role 0: the owner's own key, which never expires). */
const dispute = (sim: SimLedger, id: Uint8Array) => sim.tx(escrowDisputeKind, { escrowId: id }, owner, { nonce: sim.account(owner.address).nonce });
const reclaim = (sim: SimLedger, id: Uint8Array) => sim.tx(escrowReclaimKind, { escrowId: id }, client, { nonce: sim.account(client.address).nonce });
const resolve = (sim: SimLedger, id: Uint8Array) => sim.tx(escrowResolveKind, { escrowId: id, agentShare: amount }, arbiter, { nonce: sim.account(arbiter.address).nonce });

describe('rules v2: an arbiter that can never sign is refused at escrow_create', () => {
  it.each([
    ['multisig', multisigArbiter],
    ['contract', contractArbiter],
  ])('a %s arbiter: escrow_arbiter_cannot_sign, nothing locked', (_type, address) => {
    const sim = agentLedger({ rulesV2At: 0 });
    const before = sim.account(client.address);
    const { tx, id } = create(sim, address);
    expect(sim.reason(tx)).toBe('escrow_arbiter_cannot_sign');
    expect(sim.block([tx])).toEqual([false]);
    expect(sim.escrow(id)).toBeUndefined();
    expect(sim.account(client.address)).toMatchObject({ balance: before.balance, nonce: before.nonce });
  });

  it('a standard arbiter is taken', () => {
    const sim = agentLedger({ rulesV2At: 0 });
    const { tx, id } = create(sim, arbiter.address);
    expect(sim.block([tx])).toEqual([true]);
    expect(sim.escrow(id)?.status).toBe(EscrowStatus.EscrowLocked);
  });
});

describe('rules v2: a dispute no one resolves ends at its deadline (timeout + grace)', () => {
  it('the lock-forever attack: a multisig arbiter named before the activation, an instant dispute, then the client reclaims', () => {
    // Version 1 until DAA 150: the escrow is created and disputed under the old rules, which allowed this arbiter.
    const sim = agentLedger({ rulesV2At: 150 });
    const { tx, id } = create(sim, multisigArbiter);
    expect(sim.block([tx])).toEqual([true]);
    expect(sim.block([dispute(sim, id)])).toEqual([true]);
    const locked = sim.account(client.address).balance;
    // Version 1 at the timeout: still locked (what the landed code answered for good).
    sim.at(Number(timeout));
    expect(sim.reason(reclaim(sim, id))).toBe('escrow_not_locked');
    // Rules v2, before the deadline: the dispute is still open.
    sim.at(deadline - 1);
    expect(sim.reason(reclaim(sim, id))).toBe('escrow_dispute_open');
    sim.at(deadline);
    const tx2 = reclaim(sim, id);
    expect(sim.reason(tx2)).toBeUndefined();
    expect(sim.block([tx2])).toEqual([true]);
    expect(sim.escrow(id)).toMatchObject({ status: EscrowStatus.Refunded, agentShare: 0n, settledDaaScore: BigInt(deadline) });
    expect(sim.account(client.address).balance).toBe(locked + amount - 1_000n);
    expect(sim.agent(agent)?.refunded).toBe(1n);
  });

  it('a standard arbiter that stays silent: resolve until the deadline, reclaim from it, never both', () => {
    const sim = agentLedger({ rulesV2At: 0 });
    const { tx, id } = create(sim, arbiter.address);
    expect(sim.block([tx, dispute(sim, id)])).toEqual([true, true]);
    sim.at(Number(timeout));
    expect(sim.reason(reclaim(sim, id))).toBe('escrow_dispute_open');
    sim.at(deadline - 1);
    expect(sim.reason(resolve(sim, id))).toBeUndefined();
    expect(sim.reason(reclaim(sim, id))).toBe('escrow_dispute_open');
    sim.at(deadline);
    expect(sim.reason(resolve(sim, id))).toBe('escrow_dispute_expired');
    expect(sim.block([resolve(sim, id), reclaim(sim, id)])).toEqual([false, true]);
    expect(sim.escrow(id)?.status).toBe(EscrowStatus.Refunded);
  });
});

describe('below the activation the version 1 rules hold', () => {
  it('a multisig arbiter is taken and a disputed escrow is not reclaimed', () => {
    const sim = agentLedger();
    const { tx, id } = create(sim, multisigArbiter);
    expect(sim.block([tx, dispute(sim, id)])).toEqual([true, true]);
    sim.at(deadline);
    expect(sim.reason(reclaim(sim, id))).toBe('escrow_not_locked');
  });
});
