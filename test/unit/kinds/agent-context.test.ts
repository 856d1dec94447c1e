// Every state rule of the agent kinds and of the shared authority (docs/settlement.md "Reasons"): each refusal is a
// coded snake_case reason from checkContext (read through a view that throws on any write), and the same
// transaction in a block is not accepted and changes no record and not the payer's account.
import { describe, expect, it } from 'vitest';
import { agentAddSessionKeyKind } from '../../../src/kinds/agent/agent-add-session-key.ts';
import { agentCreateKind } from '../../../src/kinds/agent/agent-create.ts';
import { agentFreezeKind } from '../../../src/kinds/agent/agent-freeze.ts';
import { agentFundEnergyPoolKind } from '../../../src/kinds/agent/agent-fund-energy-pool.ts';
import { sessionScopeBit, sessionScopeMask } from '../../../src/kinds/agent/agent-record.ts';
import { agentRevokeSessionKeyKind } from '../../../src/kinds/agent/agent-revoke-session-key.ts';
import { agentSetControllerKind } from '../../../src/kinds/agent/agent-set-controller.ts';
import type { AgentTransaction } from '../../../src/kinds/agent/envelope.ts';
import { escrowCreateKind } from '../../../src/kinds/escrow/escrow-create.ts';
import { TxKind } from '../../../src/codec/transaction-kinds.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { agentLedger, client, controller, owner, session, stranger, sessionTotalCap, sessionTxCap, type SimLedger } from '../../helpers/agent-fixtures.ts';

const agent = owner.address;

const addKey = (expiryDaaScore = 1000n, allowedKinds = sessionScopeMask) => ({ publicKey: stranger.publicKey, allowedKinds, txCap: 10n, totalCap: 10n, expiryDaaScore });
const fund = (amount = 100n, to = agent) => ({ agent: to, amount });

type Case = readonly [reason: string, build: (sim: SimLedger) => AgentTransaction];

const cases: Case[] = [
  // Shared authority rules (src/kinds/agent/authority.ts).
  ['nonce', (sim) => sim.tx(agentFundEnergyPoolKind, fund(), owner, { nonce: 99n })],
  ['signer_role_not_allowed', (sim) => sim.tx(agentSetControllerKind, { controller: stranger.publicKey }, controller, { payer: agent, role: 1 })],
  ['signer_role_not_allowed', (sim) => sim.tx(agentAddSessionKeyKind, addKey(), session, { payer: agent, role: 2, sessionKeyId: 1n })],
  ['agent_unknown', (sim) => sim.tx(agentFundEnergyPoolKind, fund(), controller, { payer: client.address, role: 1 })],
  ['signer_not_controller', (sim) => sim.tx(agentAddSessionKeyKind, addKey(), stranger, { payer: agent, role: 1 })],
  ['session_key_unknown', (sim) => sim.tx(agentFundEnergyPoolKind, fund(), session, { payer: agent, role: 2, sessionKeyId: 7n })],
  ['session_key_mismatch', (sim) => sim.tx(agentFundEnergyPoolKind, fund(), stranger, { payer: agent, role: 2, sessionKeyId: 1n })],
  ['session_key_tx_cap', (sim) => sim.tx(agentFundEnergyPoolKind, fund(sessionTxCap), session, { payer: agent, role: 2, sessionKeyId: 1n })],
  ['balance', (sim) => sim.tx(agentFundEnergyPoolKind, fund(10n ** 13n), owner)],
  ['energy_pool', (sim) => sim.tx(agentFundEnergyPoolKind, fund(), owner, { useEnergy: true, fee: 5_001n })],
  ['energy', (sim) => sim.tx(agentFundEnergyPoolKind, fund(), stranger, { useEnergy: true, fee: 10n ** 9n })],
  // The agent kinds' own rules.
  ['agent_exists', (sim) => sim.tx(agentCreateKind, { controller: controller.publicKey, identityProofHash: undefined }, owner)],
  ['agent_unknown', (sim) => sim.tx(agentSetControllerKind, { controller: stranger.publicKey }, client)],
  ['agent_unknown', (sim) => sim.tx(agentAddSessionKeyKind, addKey(), client)],
  ['agent_unknown', (sim) => sim.tx(agentRevokeSessionKeyKind, { revokedKeyId: 1n }, client)],
  ['agent_unknown', (sim) => sim.tx(agentFreezeKind, { frozen: true }, client)],
  ['agent_unknown', (sim) => sim.tx(agentFundEnergyPoolKind, fund(100n, client.address), owner)],
  ['session_key_expiry_passed', (sim) => sim.tx(agentAddSessionKeyKind, addKey(BigInt(sim.daaScore)), owner)],
  ['session_key_unknown', (sim) => sim.tx(agentRevokeSessionKeyKind, { revokedKeyId: 2n }, controller, { payer: agent, role: 1 })],
  ['agent_not_frozen', (sim) => sim.tx(agentFreezeKind, { frozen: false }, owner)],
  ['amount_zero', (sim) => sim.tx(agentFundEnergyPoolKind, fund(0n), owner)],
];

function expectRefused(sim: SimLedger, tx: AgentTransaction, reason: string): void {
  expect(sim.reason(tx)).toBe(reason);
  const records = new Map(sim.records);
  const payer = sim.account(tx.payer);
  expect(sim.block([tx])).toEqual([false]);
  expect(new Map(sim.records)).toEqual(records);
  expect(sim.account(tx.payer)).toMatchObject({ balance: payer.balance, nonce: payer.nonce });
}

describe('agent kinds: every refusal is a coded reason and changes nothing', () => {
  it.each(cases.map(([reason, build], i) => [`${reason} (#${i})`, reason, build] as const))('%s', (_name, reason, build) => {
    const sim = agentLedger();
    expectRefused(sim, build(sim), reason);
  });

  it('session_key_total_cap: the caps count amount + fee across transactions', () => {
    const sim = agentLedger();
    const first = sim.tx(agentFundEnergyPoolKind, fund(sessionTxCap - 1_000n), session, { payer: agent, role: 2, sessionKeyId: 1n });
    expect(sim.block([first])).toEqual([true]);
    expect(sim.agent(agent)!.sessionKeys[0]!.spent).toBe(sessionTxCap);
    expectRefused(sim, sim.tx(agentFundEnergyPoolKind, fund(sessionTotalCap - sessionTxCap), session, { payer: agent, role: 2, sessionKeyId: 1n }), 'session_key_total_cap');
    // Exactly up to the total cap is fine.
    expect(sim.block([sim.tx(agentFundEnergyPoolKind, fund(sessionTotalCap - sessionTxCap - 1_000n), session, { payer: agent, role: 2, sessionKeyId: 1n })])).toEqual([true]);
  });

  it('session_key_expired: from the expiry DAA score on, never by wall-clock', () => {
    const sim = agentLedger();
    sim.at(999);
    const probe = { payer: agent, role: 2, sessionKeyId: 1n, nonce: sim.account(agent).nonce } as const;
    expect(sim.reason(sim.tx(agentFundEnergyPoolKind, fund(), session, probe))).toBeUndefined();
    sim.at(1000);
    expectRefused(sim, sim.tx(agentFundEnergyPoolKind, fund(), session, { payer: agent, role: 2, sessionKeyId: 1n }), 'session_key_expired');
  });

  it('session_key_revoked: a revoked key signs nothing, and cannot be revoked twice', () => {
    const sim = agentLedger();
    expect(sim.block([sim.tx(agentRevokeSessionKeyKind, { revokedKeyId: 1n }, controller, { payer: agent, role: 1 })])).toEqual([true]);
    expectRefused(sim, sim.tx(agentFundEnergyPoolKind, fund(), session, { payer: agent, role: 2, sessionKeyId: 1n }), 'session_key_revoked');
    expectRefused(sim, sim.tx(agentRevokeSessionKeyKind, { revokedKeyId: 1n }, owner), 'session_key_revoked');
  });

  it('session_key_out_of_scope: a key scoped only for claims cannot fund a pool or create an escrow', () => {
    const sim = agentLedger();
    const claimsOnly = { ...addKey(500n, sessionScopeBit.get(TxKind.EscrowClaim)!), publicKey: session.publicKey, txCap: 10n ** 9n, totalCap: 10n ** 9n };
    expect(sim.block([sim.tx(agentAddSessionKeyKind, claimsOnly, owner)])).toEqual([true]);
    expectRefused(sim, sim.tx(agentFundEnergyPoolKind, fund(), session, { payer: agent, role: 2, sessionKeyId: 2n }), 'session_key_out_of_scope');
    const escrow = { agent: stranger.address, taskHash: new Uint8Array(32), amount: 10n, timeoutDaaScore: 100n, disputeWindow: 0n, arbiter: undefined };
    expectRefused(sim, sim.tx(escrowCreateKind, escrow, session, { payer: agent, role: 2, sessionKeyId: 2n }), 'session_key_out_of_scope');
  });

  it('agent_frozen: no key of a frozen account — owner, controller or session key — is accepted, except the owner unfreezing', () => {
    const sim = agentLedger();
    expect(sim.block([sim.tx(agentFreezeKind, { frozen: true }, owner)])).toEqual([true]);
    expect(sim.agent(agent)!.frozen).toBe(true);
    expectRefused(sim, sim.tx(agentFundEnergyPoolKind, fund(), owner), 'agent_frozen');
    expectRefused(sim, sim.tx(agentAddSessionKeyKind, addKey(), controller, { payer: agent, role: 1 }), 'agent_frozen');
    expectRefused(sim, sim.tx(agentFundEnergyPoolKind, fund(), session, { payer: agent, role: 2, sessionKeyId: 1n }), 'agent_frozen');
    expectRefused(sim, sim.tx(agentFreezeKind, { frozen: true }, owner), 'agent_frozen');
    expect(sim.block([sim.tx(agentFreezeKind, { frozen: false }, owner)])).toEqual([true]);
    expect(sim.block([sim.tx(agentFundEnergyPoolKind, fund(), session, { payer: agent, role: 2, sessionKeyId: 1n })])).toEqual([true]);
  });

  it('session_keys_full: 16 keys at most; revoked and expired ones make room, live ones do not', () => {
    const sim = agentLedger();
    const adds = Array.from({ length: 15 }, () => sim.tx(agentAddSessionKeyKind, addKey(2000n), controller, { payer: agent, role: 1 }));
    expect(sim.block(adds).every(Boolean)).toBe(true);
    expect(sim.agent(agent)!.sessionKeys).toHaveLength(16);
    expectRefused(sim, sim.tx(agentAddSessionKeyKind, addKey(2000n), owner), 'session_keys_full');
    // Revoke key 5 and let key 1 expire (1000): the next add drops both, and ids keep counting.
    expect(sim.block([sim.tx(agentRevokeSessionKeyKind, { revokedKeyId: 5n }, owner)])).toEqual([true]);
    sim.at(1000);
    expect(sim.block([sim.tx(agentAddSessionKeyKind, addKey(2000n), owner)])).toEqual([true]);
    const ids = sim.agent(agent)!.sessionKeys.map((k) => k.id);
    expect(ids).toHaveLength(15);
    expect(ids).not.toContain(1n);
    expect(ids).not.toContain(5n);
    expect(ids.at(-1)).toBe(17n);
  });
});

describe('agent kinds: transitions', () => {
  it('create, set controller, add/revoke session keys, freeze and fund write the documented record', () => {
    const sim = agentLedger();
    const created = sim.agent(agent)!;
    expect(created).toMatchObject({ frozen: false, energyPool: 5_000n, nextSessionKeyId: 2n, claimed: 0n, refunded: 0n, resolved: 0n });
    expect(toHex(created.owner)).toBe(toHex(owner.publicKey));
    expect(toHex(created.controller)).toBe(toHex(controller.publicKey));
    expect(created.sessionKeys).toEqual([
      { id: 1n, publicKey: session.publicKey, allowedKinds: sessionScopeMask, txCap: sessionTxCap, totalCap: sessionTotalCap, spent: 0n, expiryDaaScore: 1000n, revoked: false },
    ]);
    expect(sim.block([sim.tx(agentSetControllerKind, { controller: stranger.publicKey }, owner)])).toEqual([true]);
    expect(toHex(sim.agent(agent)!.controller)).toBe(toHex(stranger.publicKey));
    // The old controller lost its authority, the new one has it.
    expectRefused(sim, sim.tx(agentRevokeSessionKeyKind, { revokedKeyId: 1n }, controller, { payer: agent, role: 1 }), 'signer_not_controller');
    expect(sim.block([sim.tx(agentRevokeSessionKeyKind, { revokedKeyId: 1n }, stranger, { payer: agent, role: 1 })])).toEqual([true]);
  });

  it('a pool-paid fee leaves the pool (to the block reward) and a session key signs with no coins of its own', () => {
    const sim = agentLedger();
    const before = sim.account(agent);
    const tx = sim.tx(agentFundEnergyPoolKind, fund(1n, agent), session, { payer: agent, role: 2, sessionKeyId: 1n, useEnergy: true, fee: 700n });
    expect(sim.block([tx])).toEqual([true]);
    expect(sim.agent(agent)!.energyPool).toBe(5_000n - 700n + 1n);
    expect(sim.account(agent).balance).toBe(before.balance - 1n);
    expect(sim.account(agent).nonce).toBe(before.nonce + 1n);
    expect(sim.account(session.address).balance).toBe(0n);
    expect(sim.agent(agent)!.sessionKeys[0]!.spent).toBe(701n);
  });
});
