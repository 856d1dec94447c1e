// The coin audit of agent accounts and escrows (issue 15): after any random sequence of agent and escrow
// operations — signed by any actor in any role, accepted or refused, across DAA-score jumps and rollbacks to an
// earlier state (a reorg to a fork point followed by a different branch) — every coin is somewhere:
//   Σ balances + Σ energy pools + Σ escrowed amounts + burnt = emitted.
// Driven through acceptMergeset directly (the same acceptance the ledger runs), so hundreds of blocks run fast.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agentAddSessionKeyKind } from '../../../src/kinds/agent/agent-add-session-key.ts';
import { agentCreateKind } from '../../../src/kinds/agent/agent-create.ts';
import { agentFreezeKind } from '../../../src/kinds/agent/agent-freeze.ts';
import { agentFundEnergyPoolKind } from '../../../src/kinds/agent/agent-fund-energy-pool.ts';
import { sessionScopeMask } from '../../../src/kinds/agent/agent-record.ts';
import { agentRevokeSessionKeyKind } from '../../../src/kinds/agent/agent-revoke-session-key.ts';
import type { AgentTransaction } from '../../../src/kinds/agent/envelope.ts';
import { signCompletionReceipt } from '../../../src/kinds/escrow/completion-receipt.ts';
import { escrowClaimKind } from '../../../src/kinds/escrow/escrow-claim.ts';
import { escrowCreateKind } from '../../../src/kinds/escrow/escrow-create.ts';
import { escrowDisputeKind } from '../../../src/kinds/escrow/escrow-dispute.ts';
import { escrowReclaimKind } from '../../../src/kinds/escrow/escrow-reclaim.ts';
import { escrowIdOf } from '../../../src/kinds/escrow/escrow-record.ts';
import { escrowResolveKind } from '../../../src/kinds/escrow/escrow-resolve.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { actor, chainId, createSimLedger, type Actor, type SendOptions, type SimLedger } from '../../helpers/agent-fixtures.ts';

// Two agent accounts (their owners), each with a controller and a session key, and three plain accounts.
const owners = [actor(1), actor(7)];
const controllers = [actor(2), actor(8)];
const sessions = [actor(3), actor(9)];
const plain = [actor(4), actor(5), actor(6)];
const everyone: Actor[] = [...owners, ...plain];

const pick = <T>(list: readonly T[], i: number): T => list[i % list.length]!;

/** Who signs an escrow step: mostly one of the escrow's own parties, so every path is reached. */
const partyArb = fc.constantFrom('client', 'agent', 'arbiter', 'other');

const opArb = fc.oneof(
  fc.record({ op: fc.constant('create_agent' as const), who: fc.nat() }),
  fc.record({ op: fc.constant('add_key' as const), who: fc.nat(), byController: fc.boolean(), expiry: fc.integer({ min: 1, max: 200 }), cap: fc.bigInt({ min: 0n, max: 200_000n }) }),
  fc.record({ op: fc.constant('revoke_key' as const), who: fc.nat(), id: fc.bigInt({ min: 0n, max: 4n }) }),
  fc.record({ op: fc.constant('freeze' as const), who: fc.nat(), frozen: fc.boolean() }),
  fc.record({ op: fc.constant('fund' as const), by: fc.nat(), who: fc.nat(), amount: fc.bigInt({ min: 0n, max: 100_000n }), role: fc.constantFrom(0, 1, 2) }),
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('escrow' as const),
      by: fc.nat(),
      who: fc.nat(),
      amount: fc.bigInt({ min: 0n, max: 300_000n }),
      timeout: fc.integer({ min: -2, max: 60 }),
      window: fc.integer({ min: 0, max: 30 }),
      arbiter: fc.option(fc.nat(), { nil: undefined }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('claim' as const), escrow: fc.nat(), who: fc.nat(), role: fc.constantFrom(0, 1, 2), receipt: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('reclaim' as const), escrow: fc.nat(), by: partyArb }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('dispute' as const), escrow: fc.nat(), by: partyArb }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('resolve' as const), escrow: fc.nat(), by: partyArb, share: fc.bigInt({ min: 0n, max: 400_000n }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('block' as const), advance: fc.integer({ min: 0, max: 60 }) }) },
  fc.record({ op: fc.constant('reorg' as const), back: fc.nat() }),
  // The legitimate next step of an escrow, so every path is taken often (the ops above mostly probe refusals).
  { weight: 3, arbitrary: fc.record({ op: fc.constant('next_step' as const), escrow: fc.nat(), choice: fc.nat({ max: 2 }), share: fc.bigInt({ min: 0n, max: 400_000n }) }) },
);
type Op = typeof opArb extends fc.Arbitrary<infer T> ? T : never;

const feeArb = fc.record({ fee: fc.bigInt({ min: 0n, max: 3_000n }), useEnergy: fc.constantFrom(false, false, false, true) });

/** The authority an agent account's transaction is signed with: owner (0), controller (1) or session key 1 (2). */
function asAgent(i: number, role: number): { signer: Actor; options: SendOptions } {
  const payer = pick(owners, i).address;
  if (role === 1) return { signer: pick(controllers, i), options: { payer, role: 1 } };
  if (role === 2) return { signer: pick(sessions, i), options: { payer, role: 2, sessionKeyId: 1n } };
  return { signer: pick(owners, i), options: {} };
}

const byAddress = (address: Uint8Array | undefined): Actor | undefined =>
  address === undefined ? undefined : everyone.find((a) => toHex(a.address) === toHex(address));

/** The actor in `role` of escrow `id` (a stranger when it has none, or for 'other'). */
function party(sim: SimLedger, id: Uint8Array, role: string): Actor {
  const escrow = sim.escrow(id);
  const found = role === 'client' ? escrow?.client : role === 'agent' ? escrow?.agent : role === 'arbiter' ? escrow?.arbiter : undefined;
  return byAddress(found) ?? plain[2]!;
}

function txOf(sim: SimLedger, op: Op, fee: { fee: bigint; useEnergy: boolean }, escrows: readonly Uint8Array[]): AgentTransaction | undefined {
  const now = BigInt(sim.daaScore);
  const escrowAt = (i: number) => (escrows.length === 0 ? new Uint8Array(32) : pick(escrows, i));
  switch (op.op) {
    case 'create_agent':
      return sim.tx(agentCreateKind, { controller: pick(controllers, op.who).publicKey, identityProofHash: undefined }, pick(owners, op.who), fee);
    case 'add_key': {
      const key = { publicKey: pick(sessions, op.who).publicKey, allowedKinds: sessionScopeMask, txCap: op.cap, totalCap: op.cap * 2n, expiryDaaScore: now + BigInt(op.expiry) };
      const { signer, options } = asAgent(op.who, op.byController ? 1 : 0);
      return sim.tx(agentAddSessionKeyKind, key, signer, { ...fee, ...options });
    }
    case 'revoke_key':
      return sim.tx(agentRevokeSessionKeyKind, { revokedKeyId: op.id }, pick(owners, op.who), fee);
    case 'freeze':
      return sim.tx(agentFreezeKind, { frozen: op.frozen }, pick(owners, op.who), fee);
    case 'fund': {
      const target = pick(owners, op.who).address;
      if (op.role === 0) return sim.tx(agentFundEnergyPoolKind, { agent: target, amount: op.amount }, pick(everyone, op.by), fee);
      const { signer, options } = asAgent(op.by, op.role);
      return sim.tx(agentFundEnergyPoolKind, { agent: target, amount: op.amount }, signer, { ...fee, ...options });
    }
    case 'escrow': {
      // Mostly plain clients and arbiters (an agent may hire too: `by` reaches the owners now and then).
      const by = op.by % 4 === 0 ? pick(everyone, op.by >> 2) : pick(plain, op.by);
      const payload = {
        agent: pick(owners, op.who).address,
        taskHash: new Uint8Array(32).fill(op.who & 0xff),
        amount: op.amount,
        timeoutDaaScore: BigInt(Math.max(0, sim.daaScore + op.timeout)),
        disputeWindow: BigInt(op.window),
        arbiter: op.arbiter === undefined ? undefined : pick(plain, op.arbiter).address,
      };
      return sim.tx(escrowCreateKind, payload, by, fee);
    }
    case 'claim': {
      const id = escrowAt(op.escrow);
      // The receipt is signed by the escrow's real client when there is one (else by some plain account).
      const client = byAddress(sim.escrow(id)?.client) ?? pick(plain, op.who);
      const receipt = op.receipt ? { clientKey: client.publicKey, signature: signCompletionReceipt(chainId, id, client.privateKey, new Uint8Array(32)) } : undefined;
      const { signer, options } = asAgent(op.who, op.role);
      return sim.tx(escrowClaimKind, { escrowId: id, receipt }, signer, { ...fee, ...options });
    }
    case 'reclaim':
      return sim.tx(escrowReclaimKind, { escrowId: escrowAt(op.escrow) }, party(sim, escrowAt(op.escrow), op.by), fee);
    case 'dispute':
      return sim.tx(escrowDisputeKind, { escrowId: escrowAt(op.escrow) }, party(sim, escrowAt(op.escrow), op.by), fee);
    case 'resolve': {
      const id = escrowAt(op.escrow);
      return sim.tx(escrowResolveKind, { escrowId: id, agentShare: op.share % ((sim.escrow(id)?.amount ?? 0n) + 2n) }, party(sim, id, op.by), fee);
    }
    case 'next_step': {
      const id = escrowAt(op.escrow);
      const escrow = sim.escrow(id);
      if (escrow === undefined) return undefined;
      const agentIndex = owners.findIndex((o) => toHex(o.address) === toHex(escrow.agent));
      if (escrow.status === 4) return sim.tx(escrowResolveKind, { escrowId: id, agentShare: op.share % (escrow.amount + 1n) }, party(sim, id, 'arbiter'), fee);
      if (op.choice === 0 && agentIndex >= 0) {
        const client = party(sim, id, 'client');
        const receipt = { clientKey: client.publicKey, signature: signCompletionReceipt(chainId, id, client.privateKey, new Uint8Array(32)) };
        const { signer, options } = asAgent(agentIndex, 1);
        return sim.tx(escrowClaimKind, { escrowId: id, receipt }, signer, { ...fee, ...options });
      }
      if (op.choice === 1 || escrow.arbiter === undefined) {
        sim.at(Math.max(sim.daaScore, Number(escrow.timeoutDaaScore)));
        return sim.tx(escrowReclaimKind, { escrowId: id }, party(sim, id, 'client'), fee);
      }
      return sim.tx(escrowDisputeKind, { escrowId: id }, party(sim, id, 'client'), fee);
    }
    default:
      return undefined;
  }
}

describe('agent and escrow coin conservation', () => {
  it('property: balances + energy pools + escrowed + burnt = emitted after any sequence of operations, blocks and rollbacks', () => {
    let accepted = 0;
    const acceptedKinds = new Set<number>();
    fc.assert(
      fc.property(fc.array(fc.tuple(opArb, feeArb), { minLength: 10, maxLength: 60 }), (ops) => {
        const sim = createSimLedger(everyone.map((a) => [a.address, 2_000_000n] as const));
        const escrows: Uint8Array[] = [];
        const history: ReturnType<SimLedger['snapshot']>[] = [];
        // Every run starts with both agents created and session key 1 each, so the interesting paths are reachable.
        sim.block(owners.map((o, i) => sim.tx(agentCreateKind, { controller: controllers[i]!.publicKey, identityProofHash: undefined }, o)));
        sim.block(owners.map((o, i) => sim.tx(agentAddSessionKeyKind, { publicKey: sessions[i]!.publicKey, allowedKinds: sessionScopeMask, txCap: 100_000n, totalCap: 400_000n, expiryDaaScore: 80n }, o)));
        sim.block(owners.map((o) => sim.tx(agentFundEnergyPoolKind, { agent: o.address, amount: 20_000n }, o)));
        const check = () => {
          const audit = sim.audit(owners.map((o) => o.address), escrows);
          expect(audit.balances + audit.pools + audit.escrowed + audit.burnt).toBe(audit.emitted);
        };
        // Each operation is its own mergeset at the current DAA score (so a refused one never leaves later ones of
        // its payer with a nonce gap); 'block' moves the score on and marks a fork point, 'reorg' goes back to one.
        for (const [op, fee] of ops) {
          if (op.op === 'block') {
            history.push(sim.snapshot());
            sim.at(sim.daaScore + op.advance);
          } else if (op.op === 'reorg') {
            if (history.length > 0) sim.restore(history.splice(history.length - 1 - (op.back % history.length))[0]!);
          } else {
            const tx = txOf(sim, op, fee, escrows);
            if (tx !== undefined && sim.block([tx], 0)[0] === true) {
              accepted++;
              acceptedKinds.add(tx.kind);
              if (tx.kind === escrowCreateKind.tag) escrows.push(escrowIdOf(tx.payer, tx.nonce));
            }
          }
          check();
        }
      }),
      // A fixed seed: reclaims and resolves need a timeout to pass or an arbiter's dispute first, so some random
      // seeds accept none, and the not-vacuous check below must not depend on the draw.
      { numRuns: 30, seed: 1 },
    );
    // The property is not vacuous: many operations were accepted, of every kind but the two setup-only ones.
    expect(accepted).toBeGreaterThan(50);
    expect([...acceptedKinds].sort((a, b) => a - b)).toEqual([0x22, 0x23, 0x24, 0x25, 0x30, 0x31, 0x32, 0x33, 0x34]);
  }, 120_000);
});
