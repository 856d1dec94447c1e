// The confidential kinds through acceptance (docs/privacy.md "The ledger"): shield → confidential transfer →
// unshield with real CLSAGs and BP+ proofs on small rings, every checkContext refusal with its reason, double
// spends by key image within one mergeset and across blocks, an inflating transaction refused by the balance
// rule, and what the mempool and the APIs are told (synthetic payer, conflict keys, privacy level, hidden fields).
import { beforeAll, describe, expect, it } from 'vitest';
import { commit } from '../../../src/crypto/monero/commitment.ts';
import { encodePoint } from '../../../src/crypto/monero/point.ts';
import { balanceCost, energyCost } from '../../../src/kinds/kind.ts';
import { decodeConfidentialOutputRecord, decodeKeyImageRecord } from '../../../src/kinds/confidential/records.ts';
import { ringSpendBalances, type SignedRingSpend } from '../../../src/kinds/confidential/ring-spend.ts';
import type { ShieldTransaction } from '../../../src/kinds/confidential/shield.ts';
import type { RingMember } from '../../../src/kinds/confidential/codec.ts';
import { kindOf } from '../../../src/kinds/registry.ts';
import { transactionFields } from '../../../src/kinds/json-view.ts';
import { blake3 } from '../../../src/crypto/blake3.ts';
import { equalBytes, toHex } from '../../../src/util/bytes.ts';
import { buildRingSpend, buildShield, scanOutput, type OwnedOutput } from '../../../src/wallet/confidential.ts';
import { wallet } from '../../helpers/ledger-fixtures.ts';
import { chainId, createTestLedger, proofsHold, seededRandom, stealthWallet } from '../../helpers/confidential-fixtures.ts';

const alice = wallet(1);
const bob = stealthWallet(2);
const carol = stealthWallet(3);
const dave = wallet(4);

/** A shield of `amounts` to `to` from alice at `nonce`, and the outputs `to` finds in it. */
function shield(to: ReturnType<typeof stealthWallet>, amounts: bigint[], nonce: bigint, seed: number) {
  const tx = buildShield({ chainId, privateKey: alice.privateKey, fee: 1_000n, nonce, outputs: amounts.map((amount) => ({ to: to.recipient, amount })), random: seededRandom(seed) });
  const owned = tx.outputs.map((o, i) => scanOutput(to.keys, tx.txPublicKey, i, { ...o, publicAmount: o.amount })!);
  return { tx, owned };
}

const member = (o: OwnedOutput): RingMember => ({ oneTimeKey: o.oneTimeKey, commitment: o.commitment });

describe('shield, confidential transfer and unshield through acceptance', () => {
  // Built once: BP+ proving is the slow part (~0.5 s per proof on the shared box).
  let ledger: ReturnType<typeof createTestLedger>;
  let shielded: ReturnType<typeof shield>;
  let transfer: SignedRingSpend;
  beforeAll(() => {
    ledger = createTestLedger([[alice.address, 1_000_000n]]);
    shielded = shield(bob, [300_000n, 200_000n, 50_000n], 0n, 1);
    const [spent, decoy] = shielded.owned as [OwnedOutput, OwnedOutput];
    transfer = buildRingSpend({ chainId, fee: 2_000n, inputs: [{ owned: spent, decoys: [member(decoy)] }], outputs: [{ to: carol.recipient, amount: 250_000n }, { to: bob.recipient, amount: 48_000n }], random: seededRandom(2) });
  });

  it('shields: the balance pays amount + fee, outputs are stored with zeroCommit and the creating DAA score', () => {
    expect(proofsHold(shielded.tx)).toBe(true);
    const result = ledger.accept([shielded.tx]);
    expect(result.blocks[0]!.accepted).toEqual([true]);
    expect(ledger.account(alice.address)).toMatchObject({ balance: 1_000_000n - 550_000n - 1_000n, nonce: 1n });
    const stored = decodeConfidentialOutputRecord(ledger.record('confidential_output', shielded.tx.outputs[0]!.oneTimeKey)!);
    expect(stored).toMatchObject({ amountKind: 'public', commitment: shielded.owned[0]!.commitment, createdDaaScore: BigInt(ledger.daaScore) });
    expect(transactionFields(shielded.tx, new Uint8Array(32), 'rweft')).toMatchObject({ kind: 'shield', privacy_level: 'medium', amount_exact: '0.0055' });
  });

  it('transfers privately: proofs verify, the key image is recorded as spent, the receiver finds its output', () => {
    expect(proofsHold(transfer)).toBe(true);
    expect(ringSpendBalances(transfer)).toBe(true);
    const result = ledger.accept([transfer]);
    expect(result.blocks[0]!.accepted).toEqual([true]);
    expect(result.blocks[0]!.fees).toBe(2_000n);
    const spent = decodeKeyImageRecord(ledger.record('key_image', transfer.inputs[0]!.keyImage)!);
    expect(spent).toEqual({ txHash: blake3(kindOf(transfer).encode(transfer)), daaScore: BigInt(ledger.daaScore) });
    const found = scanOutput(carol.keys, transfer.txPublicKey, 0, transfer.outputs[0]!);
    expect(found?.amount).toBe(250_000n);
    expect(scanOutput(bob.keys, transfer.txPublicKey, 0, transfer.outputs[0]!)).toBeUndefined();
    const view = transactionFields(transfer, new Uint8Array(32), 'rweft');
    expect(view).toMatchObject({ kind: 'confidential_transfer', privacy_level: 'high', fee_exact: '0.00002', ring_size: 2 });
    expect(view).not.toHaveProperty('from');
    expect(view).not.toHaveProperty('amount');
    expect(kindOf(transfer).parties(transfer)).toEqual([]);
  });

  it('refuses the same key image again, in a later block and twice in one mergeset', () => {
    expect(ledger.accept([transfer]).blocks[0]!.accepted).toEqual([false]);
    const again = buildRingSpend({ chainId, fee: 3_000n, inputs: [{ owned: shielded.owned[0]!, decoys: [member(shielded.owned[2]!)] }], outputs: [{ to: bob.recipient, amount: 297_000n }], random: seededRandom(3) });
    expect(proofsHold(again)).toBe(true);
    const fresh = createTestLedger([[alice.address, 1_000_000n]]);
    fresh.accept([shielded.tx]);
    // Two parallel blocks of one mergeset each carry a spend of the same output: only the first is accepted.
    const result = fresh.accept([transfer], [again]);
    expect(result.blocks.map((b) => b.accepted)).toEqual([[true], [false]]);
  });

  it('unshields to a transparent address, crediting the public amount', () => {
    const change = scanOutput(bob.keys, transfer.txPublicKey, 1, transfer.outputs[1]!)!;
    expect(change.amount).toBe(48_000n);
    const unshield = buildRingSpend({ chainId, fee: 1_000n, inputs: [{ owned: change, decoys: [member(shielded.owned[2]!)] }], outputs: [], unshield: { to: dave.address, amount: 47_000n }, random: seededRandom(4) });
    expect(proofsHold(unshield)).toBe(true);
    expect(ledger.accept([unshield]).blocks[0]!.accepted).toEqual([true]);
    expect(ledger.account(dave.address)?.balance).toBe(47_000n);
    expect(transactionFields(unshield, new Uint8Array(32), 'rweft')).toMatchObject({ kind: 'unshield', privacy_level: 'medium', amount_exact: '0.00047' });
    expect(kindOf(unshield).parties(unshield)).toEqual([{ address: dave.address, role: 'recipient', amount: 47_000n }]);
  });

  it('tells the mempool: a synthetic payer with nothing to pay from its balance, conflicts on key images', () => {
    const kind = kindOf(transfer);
    const spend = kind.spend(transfer);
    expect(spend.payer).toEqual(Uint8Array.of(0xff, ...transfer.inputs[0]!.keyImage));
    expect(spend).toMatchObject({ nonce: 0n, amount: 0n, fee: 2_000n, feeFromCommitments: true });
    expect([balanceCost(spend), energyCost(spend)]).toEqual([0n, 0n]);
    expect(kind.conflictKeys(transfer)).toContain(`key_image:${toHex(transfer.inputs[0]!.keyImage)}`);
    const mass = kind.mass(transfer, kind.encode(transfer).length);
    expect(mass.sigOps).toBe(3 * 2 + 16 * 2);
  });
});

describe('checkContext refusals', () => {
  let ledger: ReturnType<typeof createTestLedger>;
  let shielded: ReturnType<typeof shield>;
  const spendOf = (owned: OwnedOutput, decoys: RingMember[], amount: bigint, seed: number, fee = 1_000n) =>
    buildRingSpend({ chainId, fee, inputs: [{ owned, decoys }], outputs: [{ to: carol.recipient, amount }], random: seededRandom(seed) });
  beforeAll(() => {
    ledger = createTestLedger([[alice.address, 1_000_000n]]);
    shielded = shield(bob, [10_000n, 20_000n], 0n, 10);
    ledger.accept([shielded.tx]);
  });

  const reason = (tx: SignedRingSpend | ShieldTransaction) => {
    const state = { daaScore: ledger.daaScore + 1, record: (ns: 'key_image' | 'confidential_output', id: Uint8Array) => ledger.record(ns, id) };
    return kindOf(tx).checkContext(state as never, tx);
  };

  it('ring_member_unknown: a decoy that is no output', () => {
    const stranger = shield(carol, [5n], 1n, 11).owned[0]!;
    expect(reason(spendOf(shielded.owned[0]!, [member(stranger)], 9_000n, 12))).toBe('ring_member_unknown');
  });

  it('ring_member_mismatch: a decoy whose commitment is not the stored one', () => {
    const forged = { ...member(shielded.owned[1]!), commitment: encodePoint(commit(5n, 20_000n)) };
    expect(reason(spendOf(shielded.owned[0]!, [forged], 9_000n, 13))).toBe('ring_member_mismatch');
  });

  it('ring_member_immature: outputs created in this very block are not yet spendable', () => {
    const young = createTestLedger([[alice.address, 1_000_000n]]);
    young.accept([shielded.tx]);
    const state = { daaScore: young.daaScore, record: (ns: 'key_image' | 'confidential_output', id: Uint8Array) => young.record(ns, id) };
    const tx = spendOf(shielded.owned[0]!, [member(shielded.owned[1]!)], 9_000n, 14);
    expect(kindOf(tx).checkContext(state as never, tx)).toBe('ring_member_immature');
    expect(kindOf(tx).checkContext({ ...state, daaScore: young.daaScore + 1 } as never, tx)).toBeUndefined();
  });

  it('balance_mismatch: outputs worth more than the input are refused although every proof verifies', () => {
    // 10,000 in, 10,000 out plus a 1,000 fee: the pseudo-output commits to 10,000 and cannot cover 11,000.
    const inflating = spendOf(shielded.owned[0]!, [member(shielded.owned[1]!)], 10_000n, 15);
    expect(proofsHold(inflating)).toBe(true);
    expect(ringSpendBalances(inflating)).toBe(false);
    expect(reason(inflating)).toBe('balance_mismatch');
    expect(ledger.accept([inflating]).blocks[0]!.accepted).toEqual([false]);
  });

  it('key_image_spent and output_exists', () => {
    const first = spendOf(shielded.owned[0]!, [member(shielded.owned[1]!)], 9_000n, 16);
    expect(ledger.accept([first]).blocks[0]!.accepted).toEqual([true]);
    expect(reason(first)).toBe('key_image_spent');
    const replay = shield(bob, [10_000n, 20_000n], 1n, 10).tx;
    expect(equalBytes(replay.outputs[0]!.oneTimeKey, shielded.tx.outputs[0]!.oneTimeKey)).toBe(true);
    const state = { daaScore: ledger.daaScore, account: () => ({ balance: 10n ** 9n, nonce: 1n, energy: 0n, energyDaaScore: 0 }), record: (ns: 'key_image' | 'confidential_output', id: Uint8Array) => ledger.record(ns, id) };
    expect(kindOf(replay).checkContext(state as never, replay)).toBe('output_exists');
  });

  it('ring_size: a production chain wants rings of exactly 16', () => {
    const mainnet = buildRingSpend({ chainId: 1, fee: 1_000n, inputs: [{ owned: shielded.owned[1]!, decoys: [member(shielded.owned[0]!)] }], outputs: [{ to: carol.recipient, amount: 19_000n }], random: seededRandom(17) });
    expect(reason(mainnet)).toBe('ring_size');
  });

  it('shield: nonce and balance like a transfer', () => {
    const poor = shield(bob, [10n ** 7n], 1n, 18).tx;
    expect(ledger.accept([poor]).blocks[0]!.accepted).toEqual([false]);
    const stale = shield(bob, [1n], 0n, 19).tx;
    expect(ledger.accept([stale]).blocks[0]!.accepted).toEqual([false]);
  });
});
