// Double spends by key image on a real chain (docs/privacy.md "The ledger"): two spends of one output carried by
// parallel blocks are merged and exactly one is accepted; and across a reorganisation — one spend accepted on a
// branch that then loses the selected chain to a heavier branch carrying the other — the ledger ends with the
// winner's spend accepted, the loser's not, and the key image recorded once, for the winner.
import { describe, expect, it } from 'vitest';
import { encodeTransaction, txHash } from '../../../src/kinds/transaction-codec.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { buildRingSpend, buildShield, scanOutput, type OwnedOutput } from '../../../src/wallet/confidential.ts';
import type { SignedRingSpend } from '../../../src/kinds/confidential/ring-spend.ts';
import type { AnyTransaction } from '../../../src/kinds/kind.ts';
import { ledgerChain, wallet, type LedgerFixture } from '../../helpers/ledger-fixtures.ts';
import { chainId, seededRandom, stealthWallet } from '../../helpers/confidential-fixtures.ts';

const alice = wallet(71);
const bob = stealthWallet(72);
const carol = stealthWallet(73);

/** A chain where bob holds two mature shielded outputs, and two rival spends of the first. */
async function twoRivals(): Promise<{ f: LedgerFixture; a: SignedRingSpend; b: SignedRingSpend; base: string }> {
  const f = await ledgerChain();
  await f.mine({ miner: alice.address });
  await f.mine({ miner: alice.address });
  const shield = buildShield({ chainId, privateKey: alice.privateKey, fee: 10_000n, nonce: 0n, outputs: [{ to: bob.recipient, amount: 500_000n }, { to: bob.recipient, amount: 300_000n }], random: seededRandom(71) });
  await f.mine({ transactions: [encodeTransaction(shield)] });
  await f.mine();
  const base = await f.mine();
  const owned = shield.outputs.map((o, i) => scanOutput(bob.keys, shield.txPublicKey, i, { ...o, publicAmount: o.amount })!) as [OwnedOutput, OwnedOutput];
  const decoys = [{ oneTimeKey: owned[1].oneTimeKey, commitment: owned[1].commitment }];
  const spend = (to: typeof bob, seed: number) => buildRingSpend({ chainId, fee: 5_000n, inputs: [{ owned: owned[0], decoys }], outputs: [{ to: to.recipient, amount: 495_000n }], random: seededRandom(seed) });
  return { f, a: spend(carol, 72), b: spend(bob, 73), base };
}

const carry = (tx: AnyTransaction) => [encodeTransaction(tx)];
const accepted = (f: LedgerFixture, tx: AnyTransaction) => f.ledger.getTransaction(txHash(tx))?.accepted === true;
const spentBy = (f: LedgerFixture, tx: SignedRingSpend) => {
  const record = f.ledger.proveRecord('key_image', tx.inputs[0]!.keyImage).record;
  return record === null ? null : toHex(record.txHash);
};

describe('key-image double spends on a chain', () => {
  it('accepts one of two spends carried by parallel blocks', async () => {
    const { f, a, b, base } = await twoRivals();
    await f.mine({ parents: [base], transactions: carry(a) });
    await f.mine({ parents: [base], transactions: carry(b) });
    await f.mine(); // merges both tips
    await f.mine();
    expect([accepted(f, a), accepted(f, b)].filter(Boolean)).toHaveLength(1);
    const winner = accepted(f, a) ? a : b;
    expect(spentBy(f, a)).toBe(toHex(txHash(winner)));
  }, 60_000);

  it('keeps one spend across a reorganisation to a heavier branch carrying the other', async () => {
    const { f, a, b, base } = await twoRivals();
    const x = await f.mine({ parents: [base], transactions: carry(a) });
    await f.mine({ parents: [x] });
    expect(accepted(f, a)).toBe(true);
    expect(spentBy(f, a)).toBe(toHex(txHash(a)));
    // A heavier branch from the same base carries the rival spend and takes the selected chain.
    let tip = await f.mine({ parents: [base], transactions: carry(b) });
    for (let i = 0; i < 3; i++) tip = await f.mine({ parents: [tip] });
    expect(f.chain.selectedTip().id).toBe(tip);
    expect(accepted(f, b)).toBe(true);
    expect(accepted(f, a)).toBe(false);
    expect(spentBy(f, b)).toBe(toHex(txHash(b)));
    // Merging the losing branch back does not accept its spend: the key image is already spent.
    await f.mine();
    await f.mine();
    expect([accepted(f, a), accepted(f, b)]).toEqual([false, true]);
    expect(spentBy(f, a)).toBe(toHex(txHash(b)));
  }, 60_000);
});
