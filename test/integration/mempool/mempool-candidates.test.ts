// The incremental candidate set (docs/mempool.md "Candidates", src/mempool/candidates.ts) always equals the same set
// recomputed from scratch against the state, after any sequence of admissions (transfers, with and without energy,
// to each other; pool-paid agent transactions), blocks (real acceptance through acceptMergeset, carrying pool
// transactions and conflicting ones the pool never saw), expiries and reorganisations. The blocks' changes reach the
// pool the way the node's service sends them: `blockChanges` of what the block carried, and acceptance's verdicts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fastVerifier } from '../../../server/crypto/fast-verifier.ts';
import { regtestParams } from '../../../src/consensus/params.ts';
import { blake3 } from '../../../src/crypto/blake3.ts';
import { decodeTransaction, encodeTransaction, type AnyTransaction } from '../../../src/kinds/transaction-codec.ts';
import { agentFundEnergyPoolKind } from '../../../src/kinds/agent/agent-fund-energy-pool.ts';
import { WeftError } from '../../../src/errors.ts';
import { blockChanges } from '../../../src/mempool/block-changes.ts';
import { createMempool } from '../../../src/mempool/mempool.ts';
import { stateKey } from '../../../src/state/namespaces.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { createManualClock } from '../../../src/util/clock.ts';
import { kindOf } from '../../../src/kinds/registry.ts';
import { agentLedger, arbiter, client, owner, signed, stranger, type Actor } from '../../helpers/agent-fixtures.ts';
import { transfer } from '../../helpers/ledger-fixtures.ts';

const senders: readonly Actor[] = [owner, client, arbiter, stranger];

const op = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('transfer' as const),
      from: fc.nat(senders.length - 1),
      to: fc.nat(senders.length - 1),
      ahead: fc.nat(3),
      amount: fc.bigInt(0n, 4_000_000_000n),
      fee: fc.bigInt(1_000n, 40_000n),
      energy: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('agent' as const), ahead: fc.nat(2), fee: fc.bigInt(500n, 3_000n) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('block' as const), take: fc.nat(6), foreign: fc.option(fc.nat(senders.length - 1), { nil: undefined }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reorg' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('expire' as const), ms: fc.nat(40_000) }) },
);

describe('the candidate set', () => {
  it('equals a from-scratch recomputation after any sequence of admissions, blocks, expiries and reorganisations (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 30 }), async (ops) => {
        const sim = agentLedger();
        const clock = createManualClock(0);
        const pool = createMempool({
          params: { chainId: regtestParams.chainId },
          accounts: { account: (address) => sim.account(address) },
          records: (namespace, id) => sim.records.get(toHex(stateKey(namespace, id))),
          daaScore: () => sim.daaScore,
          verifier: fastVerifier,
          clock,
          agentPool: (payer) => sim.agent(payer)?.energyPool,
          limits: { txAgeMaxMs: 60_000, txCountMax: 14 },
        });
        const saved = [sim.snapshot()];
        let foreignAmount = 1n;
        for (const o of ops) {
          if (o.kind === 'transfer') {
            const from = senders[o.from]!;
            const nonce = sim.account(from.address).nonce + BigInt(o.ahead);
            const bytes = transfer(from, senders[o.to]!.address, o.amount, nonce, { fee: o.fee, useEnergy: o.energy });
            await pool.add(bytes).catch((e: unknown) => expect(e).toBeInstanceOf(WeftError));
          } else if (o.kind === 'agent') {
            // Pool-paid: the agent account's energy pool pays the fee (a volatile run: rechecked every block).
            const nonce = sim.account(owner.address).nonce + BigInt(o.ahead);
            const tx = signed(agentFundEnergyPoolKind, { agent: owner.address, amount: 1n }, owner, nonce, { fee: o.fee, useEnergy: true });
            await pool.add(encodeTransaction(tx)).catch((e: unknown) => expect(e).toBeInstanceOf(WeftError));
          } else if (o.kind === 'block') {
            const carried: Uint8Array[] = [];
            // A transaction the pool never saw, at a sender's current nonce: it takes that nonce from the pool's.
            if (o.foreign !== undefined) {
              const from = senders[o.foreign]!;
              carried.push(transfer(from, owner.address, foreignAmount++, sim.account(from.address).nonce, { fee: 1_500n }));
            }
            carried.push(...pool.selectForBlock({ maxBytes: 1_000_000, maxCount: o.take }).transactions.map((e) => e.bytes));
            const txs: AnyTransaction[] = carried.map((bytes) => decodeTransaction(bytes));
            const change = blockChanges(carried, (hash) => pool.get(hash));
            const accepted = sim.block(txs);
            const hashes = carried.map((bytes) => blake3(bytes));
            pool.blockApplied({
              accepted: hashes.filter((_, i) => accepted[i]),
              refused: hashes.filter((_, i) => !accepted[i]),
              conflictKeys: txs.filter((_, i) => accepted[i]).flatMap((tx) => kindOf(tx).conflictKeys(tx)),
              change,
            });
            saved.push(sim.snapshot());
          } else if (o.kind === 'reorg') {
            // Back to an earlier state (the blocks since left the chain): everything is rechecked.
            sim.restore(saved[Math.floor(saved.length / 2)]!);
            pool.blockApplied({ accepted: [], refused: [], conflictKeys: [], change: 'all' });
          } else {
            clock.advance(o.ms);
            pool.expire();
          }
          expect(pool.candidates()).toEqual(pool.recomputeCandidates());
          expect(pool.candidateCount).toBe([...pool.candidates().values()].reduce((n, run) => n + run.length, 0));
        }
      }),
      { numRuns: 40 },
    );
  }, 300_000);
});
