// Rules v3 (src/consensus/activation.ts, docs/consensus.md "Activations"): a CLSAG ring member weighs 25 Schnorr
// checks instead of 3, a shield output 5 instead of 1, an escrow claim one more, from the activation's DAA score on. The same body — a real confidential transfer (ring of 2,
// two outputs) repeated — fits the mass budget in a block below the activation and is refused with
// body.mass.too-large at and above it; the mempool weighs for the next block and a template for its own.
import { beforeAll, describe, expect, it } from 'vitest';
import { fastVerifier } from '../../../server/crypto/fast-verifier.ts';
import { BlockRuleError } from '../../../src/chain/errors.ts';
import { validateBodyInIsolation } from '../../../src/chain/validate-body.ts';
import { regtestParamsWith } from '../../../src/consensus/regtest-overrides.ts';
import { massOf } from '../../../src/kinds/mass.ts';
import { kindOf } from '../../../src/kinds/registry.ts';
import { encodeTransaction } from '../../../src/kinds/transaction-codec.ts';
import { blockMassMax } from '../../../src/limits.ts';
import { createMempool } from '../../../src/mempool/mempool.ts';
import { createManualClock } from '../../../src/util/clock.ts';
import { buildRingSpend, buildShield, scanOutput } from '../../../src/wallet/confidential.ts';
import { client, owner, signed } from '../../helpers/agent-fixtures.ts';
import { escrowClaimKind } from '../../../src/kinds/escrow/escrow-claim.ts';
import { escrowReclaimKind } from '../../../src/kinds/escrow/escrow-reclaim.ts';
import { chainId, createTestLedger, seededRandom, stealthWallet } from '../../helpers/confidential-fixtures.ts';
import { blockAtDaaScore, countingVerifier } from '../../helpers/chain-fixtures.ts';
import { ledgerChain, wallet } from '../../helpers/ledger-fixtures.ts';

const activation = 10;
const params = regtestParamsWith({ rulesV3At: activation });
const alice = wallet(1);
const bob = stealthWallet(2);
const carol = stealthWallet(3);

let spend: Uint8Array;
let shieldBytes: Uint8Array;
/** A state where the spend's ring members exist (the shield accepted), for the mempool's state rules. */
let ledger: ReturnType<typeof createTestLedger>;
beforeAll(() => {
  ledger = createTestLedger([[alice.address, 1_000_000n]]);
  const shield = buildShield({ chainId, privateKey: alice.privateKey, fee: 1_000n, nonce: 0n, outputs: [300_000n, 200_000n].map((amount) => ({ to: bob.recipient, amount })), random: seededRandom(1) });
  const [spent, decoy] = shield.outputs.map((o, i) => scanOutput(bob.keys, shield.txPublicKey, i, { ...o, publicAmount: o.amount })!);
  const tx = buildRingSpend({ chainId, fee: 2_000n, inputs: [{ owned: spent!, decoys: [{ oneTimeKey: decoy!.oneTimeKey, commitment: decoy!.commitment }] }], outputs: [{ to: carol.recipient, amount: 250_000n }, { to: bob.recipient, amount: 48_000n }], random: seededRandom(2) });
  spend = encodeTransaction(tx);
  shieldBytes = encodeTransaction(shield);
  expect(ledger.accept([shield]).blocks[0]!.accepted).toEqual([true]);
  for (let i = 0; i < 20; i++) ledger.accept([]); // past the outputs' maturity
});

describe('rules v3 mass', () => {
  it('weighs a ring member 25 Schnorr checks instead of 3 and a shield output 5 instead of 1, nothing else changed', async () => {
    const { decodeTransaction } = await import('../../../src/kinds/transaction-codec.ts');
    const tx = decodeTransaction(spend);
    const kind = kindOf(tx);
    const before = kind.mass(tx, spend.length, { rulesV3: false });
    const after = kind.mass(tx, spend.length, { rulesV3: true });
    expect(kind.mass(tx, spend.length)).toEqual(before);
    expect(before.sigOps).toBe(3 * 2 + 16 * 2);
    expect(after).toEqual({ ...before, sigOps: 25 * 2 + 16 * 2 });
    const shield = decodeTransaction(shieldBytes);
    expect(kindOf(shield).mass(shield, shieldBytes.length, { rulesV3: false }).sigOps).toBe(1 + 2);
    expect(kindOf(shield).mass(shield, shieldBytes.length, { rulesV3: true }).sigOps).toBe(1 + 5 * 2);
  });

  it('weighs an escrow claim one Schnorr check more (its state rules), every other agent kind as before', () => {
    const escrowId = new Uint8Array(32).fill(9);
    const receipt = { clientKey: client.publicKey, signature: new Uint8Array(64).fill(1) };
    for (const payload of [{ escrowId, receipt: undefined }, { escrowId, receipt }]) {
      const claim = signed(escrowClaimKind, payload, owner, 3n);
      const bytes = encodeTransaction(claim).length;
      const before = escrowClaimKind.mass(claim, bytes, { rulesV3: false });
      expect(before.sigOps).toBe(payload.receipt === undefined ? 1 : 2);
      expect(escrowClaimKind.mass(claim, bytes)).toEqual(before);
      expect(escrowClaimKind.mass(claim, bytes, { rulesV3: true })).toEqual({ ...before, sigOps: before.sigOps + 1 });
    }
    const reclaim = signed(escrowReclaimKind, { escrowId }, client, 0n);
    const bytes = encodeTransaction(reclaim).length;
    expect(escrowReclaimKind.mass(reclaim, bytes, { rulesV3: true })).toEqual(escrowReclaimKind.mass(reclaim, bytes, { rulesV3: false }));
  });

  it('refuses a body over the budget only from the activation on', async () => {
    const { decodeTransaction } = await import('../../../src/kinds/transaction-codec.ts');
    const tx = decodeTransaction(spend);
    const [v2, v3] = [false, true].map((rulesV3) => massOf(kindOf(tx).mass(tx, spend.length, { rulesV3 })));
    // Enough copies to pass under the old weight and fail under the new one.
    const copies = Math.floor(blockMassMax / v2!);
    expect(copies * v3!).toBeGreaterThan(blockMassMax);
    const transactions = Array.from({ length: copies }, () => spend);
    const { chain } = await ledgerChain({ params });
    const at = blockAtDaaScore(chain, transactions);
    // The mass rule comes before the proofs: a body that passes it reaches the verifier (which here only counts, the
    // CLSAGs of hundreds of copies being the slow part and not what is tested), one that fails never does.
    const verifier = countingVerifier();
    expect(validateBodyInIsolation(at(activation - 1), params, verifier)).toHaveLength(copies);
    expect(verifier.calls).toBe(1);
    for (const daaScore of [activation, activation + 1]) {
      expect(() => validateBodyInIsolation(at(daaScore), params, verifier)).toThrow(BlockRuleError);
      try {
        validateBodyInIsolation(at(daaScore), params, verifier);
      } catch (error) {
        expect((error as BlockRuleError).rule).toBe('body.mass.too-large');
      }
    }
    expect(verifier.calls).toBe(1);
  });

  it('the mempool weighs for the next block, and a template for its own block', async () => {
    const { decodeTransaction } = await import('../../../src/kinds/transaction-codec.ts');
    const tx = decodeTransaction(spend);
    const [v2, v3] = [false, true].map((rulesV3) => massOf(kindOf(tx).mass(tx, spend.length, { rulesV3 })));
    let nextIsV3 = false;
    const pool = createMempool({
      params: { chainId },
      accounts: { account: () => ({ balance: 0n, nonce: 0n, energy: 0n }) },
      records: (namespace, id) => ledger.record(namespace as 'key_image' | 'confidential_output', id),
      daaScore: () => ledger.daaScore + 1,
      massRules: () => ({ rulesV3: nextIsV3 }),
      verifier: fastVerifier,
      clock: createManualClock(1_700_000_000_000),
    });
    const entry = await pool.add(spend);
    expect(entry.mass).toBe(v2);
    // A template for a block under rules v3 weighs the entry again: it no longer fits a budget its old weight fit.
    expect(pool.selectForBlock({ maxBytes: 1_000_000, maxCount: 10, maxMass: v2!, massRules: { rulesV3: false } }).transactions).toHaveLength(1);
    expect(pool.selectForBlock({ maxBytes: 1_000_000, maxCount: 10, maxMass: v2!, massRules: { rulesV3: true } }).transactions).toHaveLength(0);
    expect(pool.selectForBlock({ maxBytes: 1_000_000, maxCount: 10, maxMass: v3!, massRules: { rulesV3: true } }).transactions).toHaveLength(1);
    // Once the next block is under rules v3, admission weighs with them.
    nextIsV3 = true;
    pool.removeAccepted([entry.hash]);
    expect((await pool.add(spend)).mass).toBe(v3);
  });
});
