// Stealth outputs, subaddresses, commitments and amount encryption (src/crypto/monero): the Monero constants the
// note pins (H), and the sender/receiver agreements every private transfer relies on.
import { describe, expect, it } from 'vitest';
import { decryptAmount, commitmentMask, encryptAmount } from '../../../src/crypto/monero/amount-encryption.ts';
import { H, amountMax, commit, zeroCommit } from '../../../src/crypto/monero/commitment.ts';
import { generateKeyImage } from '../../../src/crypto/monero/key-image.ts';
import { keysFromSpendSecret, secretKeyToPublicKey } from '../../../src/crypto/monero/keys.ts';
import { Point, decodePublicPoint, decodeSubgroupPoint, encodePoint, mulBase, mulSecret } from '../../../src/crypto/monero/point.ts';
import { decodeScalar, encodeScalar, encodeVarint, groupOrder, randomScalar } from '../../../src/crypto/monero/scalar.ts';
import { derivationToScalar, derivePublicKey, deriveSecretKey, deriveSubaddressPublicKey, deriveViewTag, generateKeyDerivation } from '../../../src/crypto/monero/stealth.ts';
import { cryptPaymentId } from '../../../src/crypto/monero/payment-id.ts';
import { subaddressPublicKeys, subaddressSpendSecret } from '../../../src/crypto/monero/subaddress.ts';
import { ED25519_TORSION_SUBGROUP } from '@noble/curves/ed25519.js';
import { fromHex, toHex } from '../../../src/util/bytes.ts';
import { createSeededRandom } from '../../helpers/monero-test-rng.ts';

const random = createSeededRandom(17);

describe('Monero constants and codecs', () => {
  it("H is Monero's second generator 8·decompress(keccak(G))", () => {
    expect(toHex(encodePoint(H))).toBe('8b655970153799af2aeadc9ff1add0ea6c7251d54154cfa92c173a0dd39c1f94');
  });

  it('varint is LEB128 (crossing the one-byte boundary at 128)', () => {
    expect(toHex(encodeVarint(0))).toBe('00');
    expect(toHex(encodeVarint(127))).toBe('7f');
    expect(toHex(encodeVarint(128))).toBe('8001');
    expect(toHex(encodeVarint(300))).toBe('ac02');
  });

  it('decodes strictly: non-canonical scalars, small-order public keys, torsioned key images', () => {
    expect(() => decodeScalar(encodeScalar(5n).fill(0xff, 31))).toThrow(/not canonical/);
    expect(() => decodeScalar(new Uint8Array(31))).toThrow(/31 bytes/);
    for (const t of ED25519_TORSION_SUBGROUP) expect(() => decodePublicPoint(fromHex(t))).toThrow(/small-order|not canonical/);
    const P = mulBase(99n);
    expect(decodeSubgroupPoint(encodePoint(P)).equals(P)).toBe(true);
    const torsioned = encodePoint(P.add(Point.fromHex(ED25519_TORSION_SUBGROUP[1]!)));
    expect(() => decodeSubgroupPoint(torsioned)).toThrow(/torsion/);
    expect(() => secretKeyToPublicKey(encodeScalar(0n).fill(0xff))).toThrow(/not canonical/);
  });
});

describe('stealth outputs', () => {
  const alice = keysFromSpendSecret(randomScalar(random));
  const r = randomScalar(random);
  const R = mulBase(r);

  it('sender and receiver agree on the derivation, one-time keys, view tags and spend secrets', () => {
    const senderDerivation = generateKeyDerivation(alice.viewPublic, r);
    const receiverDerivation = generateKeyDerivation(R, alice.viewSecret);
    expect(senderDerivation).toEqual(receiverDerivation);
    for (const i of [0, 1, 127, 128]) {
      const P = derivePublicKey(senderDerivation, i, alice.spendPublic);
      expect(deriveViewTag(receiverDerivation, i)).toBe(deriveViewTag(senderDerivation, i));
      expect(deriveSubaddressPublicKey(P, receiverDerivation, i).equals(alice.spendPublic)).toBe(true);
      const x = deriveSecretKey(receiverDerivation, i, alice.spendSecret);
      expect(mulBase(x).equals(P)).toBe(true);
      // A key image is deterministic per output and differs between outputs.
      expect(generateKeyImage(encodePoint(P), x).equals(generateKeyImage(encodePoint(P), x))).toBe(true);
    }
    const outputs = [0, 1].map((i) => encodePoint(derivePublicKey(senderDerivation, i, alice.spendPublic)));
    expect(outputs[0]).not.toEqual(outputs[1]);
  });

  it('a different view key finds neither the view tags nor the spend key', () => {
    const bob = keysFromSpendSecret(randomScalar(random));
    const derivation = generateKeyDerivation(alice.viewPublic, r);
    const wrong = generateKeyDerivation(R, bob.viewSecret);
    const P = derivePublicKey(derivation, 0, alice.spendPublic);
    expect(deriveSubaddressPublicKey(P, wrong, 0).equals(alice.spendPublic)).toBe(false);
    const tags = Array.from({ length: 64 }, (_, i) => deriveViewTag(derivation, i) === deriveViewTag(wrong, i));
    expect(tags.filter(Boolean).length).toBeLessThan(8);
  });

  it('pays a subaddress: R = r·D_s, derivation 8·r·C_s = 8·a·R, and the receiver recovers D_s', () => {
    const index = { major: 0, minor: 1 };
    const sub = subaddressPublicKeys(alice.viewSecret, alice.spendPublic, index);
    const primary = subaddressPublicKeys(alice.viewSecret, alice.spendPublic, { major: 0, minor: 0 });
    expect(primary.spend.equals(alice.spendPublic) && primary.view.equals(alice.viewPublic)).toBe(true);
    expect(sub.spend.equals(alice.spendPublic)).toBe(false);
    const txKey = mulSecret(sub.spend, r);
    const derivation = generateKeyDerivation(sub.view, r);
    expect(generateKeyDerivation(txKey, alice.viewSecret)).toEqual(derivation);
    const P = derivePublicKey(derivation, 3, sub.spend);
    expect(deriveSubaddressPublicKey(P, derivation, 3).equals(sub.spend)).toBe(true);
    const x = deriveSecretKey(derivation, 3, subaddressSpendSecret(alice.viewSecret, alice.spendSecret, index));
    expect(mulBase(x).equals(P)).toBe(true);
  });
});

describe('encrypted payment ids', () => {
  it("only the recipient's derivation opens the 8-byte id; other lengths are refused", () => {
    const alice = keysFromSpendSecret(randomScalar(random));
    const r = randomScalar(random);
    const pid = fromHex('0123456789abcdef');
    const encrypted = cryptPaymentId(pid, generateKeyDerivation(alice.viewPublic, r));
    expect(encrypted).not.toEqual(pid);
    expect(cryptPaymentId(encrypted, generateKeyDerivation(mulBase(r), alice.viewSecret))).toEqual(pid);
    const bob = keysFromSpendSecret(randomScalar(random));
    expect(cryptPaymentId(encrypted, generateKeyDerivation(mulBase(r), bob.viewSecret))).not.toEqual(pid);
    expect(() => cryptPaymentId(new Uint8Array(32), new Uint8Array(32))).toThrow(/got 32 bytes, expected 8/);
  });
});

describe('commitments and amount encryption', () => {
  it('commitments add up, zeroCommit is commit(1, a), amounts past u64 are refused', () => {
    expect(commit(5n, 10n).add(commit(7n, 32n)).equals(commit(12n, 42n))).toBe(true);
    expect(zeroCommit(1234n).equals(commit(1n, 1234n))).toBe(true);
    expect(commit(groupOrder - 3n, 0n).add(commit(3n, amountMax)).equals(commit(0n, amountMax))).toBe(true);
    expect(() => commit(1n, amountMax + 1n)).toThrow(/2\^64/);
    expect(() => commit(1n, -1n)).toThrow(/2\^64/);
  });

  it('the receiver opens the encrypted amount and recomputes the mask of the output commitment', () => {
    const alice = keysFromSpendSecret(randomScalar(random));
    const r = randomScalar(random);
    for (const [i, amount] of [[0, 0n], [1, 1n], [2, 123_456_789n], [3, amountMax]] as const) {
      const s = derivationToScalar(generateKeyDerivation(alice.viewPublic, r), i);
      const C = commit(commitmentMask(s), amount);
      const encrypted = encryptAmount(amount, s);
      expect(encrypted).toHaveLength(8);
      const s2 = derivationToScalar(generateKeyDerivation(mulBase(r), alice.viewSecret), i);
      expect(decryptAmount(encrypted, s2)).toBe(amount);
      expect(commit(commitmentMask(s2), decryptAmount(encrypted, s2)).equals(C)).toBe(true);
      expect(decryptAmount(encrypted, s2 + 1n)).not.toBe(amount);
    }
    expect(() => decryptAmount(new Uint8Array(9), 1n)).toThrow(/9 bytes/);
  });
});
