// Wire and record codecs of the confidential kinds (docs/privacy.md "The ledger"): round trips, exactly one
// encoding per transaction (fast-check over byte mutations), the strict point rules while decoding (non-canonical
// and torsioned points are PrivacyDecodeErrors carrying a privacy_error), bounds, and the proof checks refusing
// tampered CLSAG and range-proof bytes.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeTransaction, encodeTransaction } from '../../../src/kinds/transaction-codec.ts';
import { DecodeError } from '../../../src/errors.ts';
import { encodePoint, decodePoint, Point } from '../../../src/crypto/monero/point.ts';
import { PrivacyEncodingError } from '../../../src/crypto/monero/errors.ts';
import { PrivacyDecodeError } from '../../../src/kinds/confidential/codec.ts';
import {
  decodeConfidentialOutputRecord,
  decodeKeyImageRecord,
  encodeConfidentialOutputRecord,
  encodeKeyImageRecord,
} from '../../../src/kinds/confidential/records.ts';
import type { SignedRingSpend } from '../../../src/kinds/confidential/ring-spend.ts';
import type { ShieldTransaction } from '../../../src/kinds/confidential/shield.ts';
import { InvalidTransactionError } from '../../../src/kinds/errors.ts';
import type { AnyTransaction } from '../../../src/kinds/kind.ts';
import { kindOf } from '../../../src/kinds/registry.ts';
import { signingHashOfBody } from '../../../src/kinds/signing.ts';
import { checkWitness } from '../../../src/crypto/witness-check.ts';
import { buildRingSpend, buildShield, scanOutput } from '../../../src/wallet/confidential.ts';
import { wallet } from '../../helpers/ledger-fixtures.ts';
import { chainId, proofsHold, seededRandom, stealthWallet } from '../../helpers/confidential-fixtures.ts';

const bob = stealthWallet(2);
const carol = stealthWallet(3);
let shield: ShieldTransaction;
let transfer: SignedRingSpend;
let unshield: SignedRingSpend;

beforeAll(() => {
  shield = buildShield({ chainId, privateKey: wallet(1).privateKey, fee: 500n, nonce: 7n, outputs: [{ to: bob.recipient, amount: 900n }, { to: bob.recipient, amount: 100n }], random: seededRandom(1) });
  const owned = shield.outputs.map((o, i) => scanOutput(bob.keys, shield.txPublicKey, i, { ...o, publicAmount: o.amount })!);
  const decoy = { oneTimeKey: owned[1]!.oneTimeKey, commitment: owned[1]!.commitment };
  transfer = buildRingSpend({ chainId, fee: 50n, inputs: [{ owned: owned[0]!, decoys: [decoy] }], outputs: [{ to: carol.recipient, amount: 800n }, { to: bob.recipient, amount: 50n }], random: seededRandom(2) });
  unshield = buildRingSpend({ chainId, fee: 50n, inputs: [{ owned: owned[0]!, decoys: [decoy] }], outputs: [], unshield: { to: wallet(4).address, amount: 850n }, random: seededRandom(3) });
});

const all = () => [shield, transfer, unshield] as AnyTransaction[];

function decodeOutcome(bytes: Uint8Array): 'refused' | Uint8Array {
  try {
    return encodeTransaction(decodeTransaction(bytes));
  } catch (error) {
    expect(error).toBeInstanceOf(DecodeError);
    return 'refused';
  }
}

describe('confidential transaction codecs', () => {
  it('round-trip, and every proof of the built transactions verifies', () => {
    for (const tx of all()) {
      const bytes = encodeTransaction(tx);
      expect(decodeTransaction(bytes)).toEqual(tx);
      expect(kindOf(tx).bodyBytes(tx)).toBe(kindOf(tx).encodeBody(tx).length);
      expect(proofsHold(tx)).toBe(true);
    }
  });

  it('have exactly one encoding: a mutated byte is refused or decodes to a transaction that re-encodes to it', () => {
    const encodings = all().map(encodeTransaction);
    fc.assert(
      fc.property(fc.nat(2), fc.nat(), fc.integer({ min: 1, max: 255 }), (which, position, xor) => {
        const bytes = Uint8Array.from(encodings[which]!);
        bytes[position % bytes.length]! ^= xor;
        const outcome = decodeOutcome(bytes);
        if (outcome !== 'refused') expect(outcome).toEqual(bytes);
      }),
      { numRuns: 150 },
    );
  });

  it('refuses truncation and trailing bytes', () => {
    for (const tx of all()) {
      const bytes = encodeTransaction(tx);
      expect(decodeOutcome(bytes.subarray(0, bytes.length - 1))).toBe('refused');
      expect(decodeOutcome(Uint8Array.of(...bytes, 0))).toBe('refused');
    }
  });

  it('refuses a mutated signed transaction through its proofs when the bytes still decode', () => {
    const clsagAt = encodeTransaction(transfer).length - 10;
    const proofAt = kindOf(transfer).bodyBytes(transfer) - 10;
    for (const at of [clsagAt, proofAt]) {
      const bytes = encodeTransaction(transfer);
      bytes[at]! ^= 1;
      // Proof bytes are only cut while decoding: the tampered transaction decodes, and its proofs fail.
      expect(decodeOutcome(bytes)).not.toBe('refused');
      expect(proofsHold(decodeTransaction(bytes))).toBe(false);
    }
    // A proof verifies only over its own commitments: swapping the two outputs' commitments breaks it.
    const [a, b] = transfer.outputs as [SignedRingSpend['outputs'][0], SignedRingSpend['outputs'][0]];
    const swapped = { ...transfer, outputs: [{ ...a, commitment: b.commitment }, { ...b, commitment: a.commitment }] };
    expect(proofsHold(swapped as AnyTransaction)).toBe(false);
  });

  it('refuses non-canonical and torsioned points as privacy errors, and unordered rings', () => {
    const keyImageAt = kindOf(transfer).bodyBytes(transfer) - transfer.rangeProof.length - 2 * 73 - 64;
    const encoded = encodeTransaction(transfer);
    expect(encoded.subarray(keyImageAt, keyImageAt + 32)).toEqual(transfer.inputs[0]!.keyImage);
    const torsion = Point.fromHex('26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05'); // order 8
    const variants = [
      new Uint8Array(32).fill(0xff).map((v, i) => (i === 31 ? 0x7f : v)), // y ≥ p
      encodePoint(decodePoint(transfer.inputs[0]!.keyImage).add(torsion)),
    ];
    for (const image of variants) {
      const bytes = Uint8Array.from(encoded);
      bytes.set(image, keyImageAt);
      let thrown: unknown;
      try {
        decodeTransaction(bytes);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(PrivacyDecodeError);
      expect((thrown as PrivacyDecodeError).privacy).toBeInstanceOf(PrivacyEncodingError);
      expect((thrown as PrivacyDecodeError).privacy.kind).toBe('privacy_error');
    }
    const reversed = { ...transfer, inputs: [{ ...transfer.inputs[0]!, ring: [...transfer.inputs[0]!.ring].reverse() }] };
    expect(() => encodeTransaction(reversed as AnyTransaction)).toThrow(/ascending/);
  });

  it('refuses out-of-bounds counts and amounts when encoding', () => {
    expect(() => encodeTransaction({ ...transfer, outputs: [] } as AnyTransaction)).toThrow(InvalidTransactionError);
    expect(() => encodeTransaction({ ...shield, outputs: [{ ...shield.outputs[0]!, amount: 0n }] } as ShieldTransaction as AnyTransaction)).toThrow(/at least 1/);
    expect(() => encodeTransaction({ ...shield, outputs: [shield.outputs[0]!, shield.outputs[0]!] } as ShieldTransaction as AnyTransaction)).toThrow(/twice/);
    expect(() => encodeTransaction({ ...unshield, amount: 0n } as AnyTransaction)).toThrow(/at least 1/);
    const ring17 = Array.from({ length: 17 }, () => transfer.inputs[0]!.ring[0]!);
    expect(() => encodeTransaction({ ...transfer, inputs: [{ ...transfer.inputs[0]!, ring: ring17 }] } as AnyTransaction)).toThrow(/ring size/);
  });
});

describe('the witness-check port schemes', () => {
  it("answers false, never throws, for malformed 'clsag' and 'bulletproof-plus' checks", () => {
    const garbage = [{}, { ringKeys: [new Uint8Array(3)], ringCommitments: [] }, { commitments: [new Uint8Array(32)], proof: new Uint8Array(5) }];
    for (const scheme of ['clsag', 'bulletproof-plus']) {
      for (const fields of garbage) expect(checkWitness({ scheme, fields })).toBe(false);
    }
    const checks = kindOf(transfer).witnessChecks(transfer, signingHashOfBody(kindOf(transfer).encodeBody(transfer)))!;
    expect(checks.map((c) => c.scheme)).toEqual(['clsag', 'bulletproof-plus']);
    expect(checks.map(checkWitness)).toEqual([true, true]);
    // Checked over another message (another transaction's signing hash), the CLSAG fails and the range proof holds.
    const elsewhere = kindOf(transfer).witnessChecks(transfer, new Uint8Array(32))!;
    expect(elsewhere.map(checkWitness)).toEqual([false, true]);
  });
});

describe('confidential state records', () => {
  const bytes = (n: number) => fc.uint8Array({ minLength: n, maxLength: n });
  const u64 = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });

  it('round-trip and refuse other versions and lengths', () => {
    fc.assert(
      fc.property(bytes(32), fc.nat(255), fc.boolean(), bytes(8), u64, (commitment, viewTag, hidden, amount, createdDaaScore) => {
        const record = { commitment, viewTag, amountKind: hidden ? ('hidden' as const) : ('public' as const), amount, createdDaaScore };
        const value = encodeConfidentialOutputRecord(record);
        expect(decodeConfidentialOutputRecord(value)).toEqual(record);
        expect(() => decodeConfidentialOutputRecord(Uint8Array.of(2, ...value.subarray(1)))).toThrow(/unknown version/);
        expect(() => decodeConfidentialOutputRecord(value.subarray(0, 50))).toThrow(DecodeError);
      }),
      { numRuns: 50 },
    );
    fc.assert(
      fc.property(bytes(32), u64, (txHash, daaScore) => {
        const value = encodeKeyImageRecord({ txHash, daaScore });
        expect(decodeKeyImageRecord(value)).toEqual({ txHash, daaScore });
        expect(() => decodeKeyImageRecord(Uint8Array.of(...value, 0))).toThrow(DecodeError);
      }),
      { numRuns: 50 },
    );
    expect(() => decodeConfidentialOutputRecord(new Uint8Array(0))).toThrow(DecodeError);
  });
});
