// Rules v4 (src/consensus/activation.ts, docs/consensus.md "Activations"): every transaction weighs
// massPerTransactionV4 besides its parts, from the activation's DAA score on. A body of plain transfers that fits the
// mass budget below the activation is refused with body.mass.too-large at and above it; the mempool weighs for the
// next block and a template for its own; rules v3's weights are untouched.
import { describe, expect, it } from 'vitest';
import { fastVerifier } from '../../../server/crypto/fast-verifier.ts';
import { BlockRuleError } from '../../../src/chain/errors.ts';
import { validateBodyInIsolation } from '../../../src/chain/validate-body.ts';
import { massRulesAt } from '../../../src/consensus/activation.ts';
import { regtestParamsWith } from '../../../src/consensus/regtest-overrides.ts';
import { massOf, massPerTransactionV4 } from '../../../src/kinds/mass.ts';
import { kindOf } from '../../../src/kinds/registry.ts';
import { decodeTransaction } from '../../../src/kinds/transaction-codec.ts';
import { blockMassMax } from '../../../src/limits.ts';
import { createMempool } from '../../../src/mempool/mempool.ts';
import { createManualClock } from '../../../src/util/clock.ts';
import { blockAtDaaScore, countingVerifier } from '../../helpers/chain-fixtures.ts';
import { ledgerChain, transfer, wallet } from '../../helpers/ledger-fixtures.ts';

const activation = 10;
const params = regtestParamsWith({ rulesV3At: 0, rulesV4At: activation });
const alice = wallet(1);
const bob = wallet(2);
const plain = transfer(alice, bob.address, 5n, 0n);
const tx = decodeTransaction(plain);
const weigh = (daaScore: number): number => {
  const rules = massRulesAt(params, daaScore);
  return massOf(kindOf(tx).mass(tx, plain.length, rules), rules);
};

describe('rules v4 mass', () => {
  it('adds the same fixed mass to every transaction from the activation on, and only then', () => {
    expect(massRulesAt(params, activation - 1)).toEqual({ rulesV3: true, rulesV4: false });
    expect(massRulesAt(params, activation)).toEqual({ rulesV3: true, rulesV4: true });
    expect(weigh(activation) - weigh(activation - 1)).toBe(massPerTransactionV4);
    // A plain transfer: 162 bytes and one signature (100) before, plus the fixed mass after.
    expect(weigh(activation - 1)).toBe(plain.length + 100);
    expect(weigh(activation)).toBe(plain.length + 100 + massPerTransactionV4);
  });

  it('refuses a block of plain transfers over the budget only from the activation on', async () => {
    // One more transfer than rules v4 allow: well within the budget before it.
    const copies = Math.floor(blockMassMax / weigh(activation)) + 1;
    expect(copies * weigh(activation - 1)).toBeLessThan(blockMassMax);
    const transactions = Array.from({ length: copies }, () => plain);
    const { chain } = await ledgerChain({ params });
    const at = blockAtDaaScore(chain, transactions);
    // The mass rule comes before the proofs: a body that passes it reaches the verifier, one that fails never does.
    const verifier = countingVerifier();
    expect(validateBodyInIsolation(at(activation - 1), params, verifier)).toHaveLength(copies);
    expect(verifier.calls).toBe(1);
    for (const daaScore of [activation, activation + 1]) {
      let refused: unknown;
      try {
        validateBodyInIsolation(at(daaScore), params, verifier);
      } catch (error) {
        refused = error;
      }
      expect(refused).toBeInstanceOf(BlockRuleError);
      expect((refused as BlockRuleError).rule).toBe('body.mass.too-large');
    }
    expect(verifier.calls).toBe(1);
    // One fewer fits under rules v4.
    expect(validateBodyInIsolation(at(activation, transactions.slice(1)), params, verifier)).toHaveLength(copies - 1);
  });

  it('the mempool weighs for the next block, and a template for its own block', async () => {
    let nextDaaScore = activation - 1;
    const pool = createMempool({
      params: { chainId: params.chainId },
      accounts: { account: () => ({ balance: 1_000_000n, nonce: 0n, energy: 0n }) },
      daaScore: () => nextDaaScore,
      massRules: () => massRulesAt(params, nextDaaScore),
      verifier: fastVerifier,
      clock: createManualClock(1_700_000_000_000),
    });
    const before = weigh(activation - 1);
    const after = weigh(activation);
    const entry = await pool.add(plain);
    expect(entry.mass).toBe(before);
    const select = (maxMass: number, daaScore: number) => pool.selectForBlock({ maxBytes: 1_000_000, maxCount: 10, maxMass, massRules: massRulesAt(params, daaScore) }).transactions;
    // A template for a block under rules v4 weighs the entry again: it no longer fits a budget its old weight fit.
    expect(select(before, activation - 1)).toHaveLength(1);
    expect(select(before, activation)).toHaveLength(0);
    expect(select(after, activation)).toHaveLength(1);
    // Once the next block is under rules v4, admission weighs with them.
    nextDaaScore = activation;
    pool.removeAccepted([entry.hash]);
    expect((await pool.add(plain)).mass).toBe(after);
  });
});
