// CLSAG (src/crypto/monero/clsag.ts): the two Monero-generated signatures of ../shared/vectors/monero/clsag.json
// verify, a copy with any single field tampered does not, malformed encodings are refused with their reason, and
// sign→verify holds for random rings (fast-check).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertClsag, signClsag, verifyClsag, type ClsagSignature, type ClsagStatement } from '../../../src/crypto/monero/clsag.ts';
import { commit } from '../../../src/crypto/monero/commitment.ts';
import { PrivacyEncodingError, PrivacyProofError } from '../../../src/crypto/monero/errors.ts';
import { Point, encodePoint, mulBase } from '../../../src/crypto/monero/point.ts';
import { encodeScalar, groupOrder, randomScalar } from '../../../src/crypto/monero/scalar.ts';
import { ED25519_TORSION_SUBGROUP } from '@noble/curves/ed25519.js';
import { fromHex } from '../../../src/util/bytes.ts';
import { clsagBytes, decodeClsag, encodeClsag } from '../../../src/crypto/monero/proof-codec.ts';
import { createSeededRandom } from '../../helpers/monero-test-rng.ts';
import { readVectorJson } from '../../vectors.ts';

interface ClsagVector {
  source: string;
  msg: string;
  cout: string;
  sI: string;
  sD: string;
  sc1: string;
  ss: string[];
  ring: [string, string][];
}

const vectors = readVectorJson<ClsagVector[]>('monero', 'clsag.json');

function fromVector(v: ClsagVector): { statement: ClsagStatement; signature: ClsagSignature } {
  return {
    statement: {
      message: fromHex(v.msg),
      ring: v.ring.map(([p, c]) => ({ publicKey: fromHex(p), commitment: fromHex(c) })),
      pseudoOut: fromHex(v.cout),
      keyImage: fromHex(v.sI),
    },
    signature: { s: v.ss.map(fromHex), c1: fromHex(v.sc1), D: fromHex(v.sD) },
  };
}

const flipBit = (b: Uint8Array): Uint8Array => Uint8Array.from(b, (x, i) => (i === 0 ? x ^ 1 : x));
/** A different valid point in the prime subgroup: the tamper that survives strict decoding. */
const otherPoint = encodePoint(mulBase(0x5eedn));
const plusOne = (b: Uint8Array): Uint8Array => encodeScalar(BigInt(`0x${Buffer.from(b).reverse().toString('hex')}`) + 1n);

type Tamper = [name: string, apply: (v: ClsagVector) => void];

function tampers(v: ClsagVector): Tamper[] {
  const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
  const point = (get: (v: ClsagVector) => string, set: (v: ClsagVector, x: string) => void, name: string): Tamper[] => [
    [`${name} bit flipped`, (w) => set(w, hex(flipBit(fromHex(get(w)))))],
    [`${name} replaced by another point`, (w) => set(w, hex(otherPoint))],
  ];
  const scalar = (get: (v: ClsagVector) => string, set: (v: ClsagVector, x: string) => void, name: string): Tamper[] => [
    [`${name} bit flipped`, (w) => set(w, hex(flipBit(fromHex(get(w)))))],
    [`${name} plus one`, (w) => set(w, hex(plusOne(fromHex(get(w)))))],
  ];
  return [
    ...scalar((w) => w.msg, (w, x) => (w.msg = x), 'msg'),
    ...point((w) => w.cout, (w, x) => (w.cout = x), 'pseudo-output'),
    ...point((w) => w.sI, (w, x) => (w.sI = x), 'key image'),
    ...point((w) => w.sD, (w, x) => (w.sD = x), 'D/8'),
    ...scalar((w) => w.sc1, (w, x) => (w.sc1 = x), 'c1'),
    ...v.ss.flatMap((_, i) => scalar((w) => w.ss[i]!, (w, x) => (w.ss[i] = x), `s[${i}]`)),
    ...v.ring.flatMap((_, i) => [
      ...point((w) => w.ring[i]![0], (w, x) => (w.ring[i]![0] = x), `ring[${i}] key`),
      ...point((w) => w.ring[i]![1], (w, x) => (w.ring[i]![1] = x), `ring[${i}] commitment`),
    ]),
    ['ring members swapped', (w) => ([w.ring[0], w.ring[1]] = [w.ring[1]!, w.ring[0]!])],
    ['last member dropped', (w) => (w.ring.pop(), w.ss.pop())],
  ];
}

describe('CLSAG against Monero-generated signatures', () => {
  it.each(vectors.map((v) => [v.source.split(' ').pop()!, v] as const))('%s verifies', (_name, v) => {
    const { statement, signature } = fromVector(v);
    expect(statement.ring).toHaveLength(11);
    expect(verifyClsag(statement, signature)).toBe(true);
    // Monero's layout s ‖ c1 ‖ D/8 round-trips: 32·(11 + 2) bytes here, 576 at ring 16.
    const bytes = encodeClsag(signature);
    expect(bytes).toHaveLength(clsagBytes(11));
    expect(clsagBytes(16)).toBe(576);
    expect(verifyClsag(statement, decodeClsag(bytes, 11))).toBe(true);
    expect(() => decodeClsag(bytes, 10)).toThrow(/got 416 bytes, expected 384/);
  });

  it.each(vectors.map((v) => [v.source.split(' ').pop()!, v] as const))('%s: every single-field tamper is rejected', (_name, v) => {
    const list = tampers(v);
    expect(list.length).toBe(2 * (5 + 11 + 22) + 2);
    const accepted = list
      .filter(([, apply]) => {
        const copy = structuredClone(v);
        apply(copy);
        const { statement, signature } = fromVector(copy);
        return verifyClsag(statement, signature);
      })
      .map(([name]) => name);
    expect(accepted).toEqual([]);
  });

  it('refuses non-canonical responses, torsioned or identity key images, with a reason', () => {
    const { statement, signature } = fromVector(vectors[0]!);
    const s0 = BigInt(`0x${Buffer.from(signature.s[0]!).reverse().toString('hex')}`);
    const nonCanonical = Buffer.from((s0 + groupOrder).toString(16).padStart(64, '0'), 'hex').reverse();
    expect(() => assertClsag(statement, { ...signature, s: [new Uint8Array(nonCanonical), ...signature.s.slice(1)] })).toThrow(/response 0: not canonical/);
    const torsion = Point.fromHex(ED25519_TORSION_SUBGROUP[1]!);
    const torsioned = encodePoint(Point.fromBytes(statement.keyImage).add(torsion));
    expect(() => assertClsag({ ...statement, keyImage: torsioned }, signature)).toThrow(/key image: has a torsion component/);
    expect(() => assertClsag({ ...statement, keyImage: encodePoint(Point.ZERO) }, signature)).toThrow(/key image: the identity/);
    const torsionedD = encodePoint(Point.fromBytes(signature.D).add(torsion));
    expect(() => assertClsag(statement, { ...signature, D: torsionedD })).toThrow(PrivacyEncodingError);
    const smallOrderMember = { publicKey: fromHex(ED25519_TORSION_SUBGROUP[2]!), commitment: statement.ring[0]!.commitment };
    expect(() => assertClsag({ ...statement, ring: [smallOrderMember, ...statement.ring.slice(1)] }, signature)).toThrow(/small-order/);
    expect(() => assertClsag({ ...statement, message: new Uint8Array(31) }, signature)).toThrow(/message: got 31 bytes/);
    let proofError: unknown;
    try {
      assertClsag({ ...statement, message: new Uint8Array(32) }, signature);
    } catch (e) {
      proofError = e;
    }
    expect(proofError).toBeInstanceOf(PrivacyProofError);
    expect((proofError as PrivacyProofError).reason).toBe('ring_not_closed');
    expect((proofError as PrivacyProofError).kind).toBe('privacy_error');
  });
});

/** A ring of `n` random outputs with the signer's at `index`; amounts hidden behind random masks. */
function randomRing(seed: number, n: number, index: number) {
  const random = createSeededRandom(seed);
  const members = Array.from({ length: n }, () => {
    const secretKey = randomScalar(random);
    const mask = randomScalar(random);
    const amount = BigInt(`0x${Buffer.from(random(4)).toString('hex')}`);
    return { secretKey, mask, amount, publicKey: encodePoint(mulBase(secretKey)), commitment: encodePoint(commit(mask, amount)) };
  });
  const real = members[index]!;
  const pseudoMask = randomScalar(random);
  const pseudoOut = encodePoint(commit(pseudoMask, real.amount));
  return { random, members, real, pseudoMask, pseudoOut, message: random(32) };
}

describe('CLSAG sign → verify', () => {
  it('round-trips for random rings, signer positions and messages, and links by key image', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.nat(), fc.nat(), (n, at, seed) => {
        const index = at % n;
        const { random, members, real, pseudoMask, pseudoOut, message } = randomRing(seed, n, index);
        const input = {
          message,
          ring: members.map(({ publicKey, commitment }) => ({ publicKey, commitment })),
          pseudoOut,
          secretIndex: index,
          secretKey: real.secretKey,
          commitmentMaskDifference: real.mask - pseudoMask,
        };
        const { signature, keyImage } = signClsag(input, random);
        const statement = { message, ring: input.ring, pseudoOut, keyImage };
        expect(verifyClsag(statement, signature)).toBe(true);
        // The same output signed again (fresh nonces) links through the same key image.
        const again = signClsag({ ...input, message: new Uint8Array(32).fill(7) }, random);
        expect(again.keyImage).toEqual(keyImage);
        expect(verifyClsag({ ...statement, message: new Uint8Array(32).fill(7) }, again.signature)).toBe(true);
        expect(verifyClsag({ ...statement, message: new Uint8Array(32).fill(8) }, again.signature)).toBe(false);
      }),
      { numRuns: 12, seed: 17 },
    );
  });

  it('refuses to sign with secrets that do not open the ring member', () => {
    const { random, members, real, pseudoMask, pseudoOut, message } = randomRing(3, 3, 1);
    const ring = members.map(({ publicKey, commitment }) => ({ publicKey, commitment }));
    const base = { message, ring, pseudoOut, secretIndex: 1, secretKey: real.secretKey, commitmentMaskDifference: real.mask - pseudoMask };
    expect(() => signClsag({ ...base, secretKey: real.secretKey + 1n }, random)).toThrow(/secret key does not open/);
    expect(() => signClsag({ ...base, commitmentMaskDifference: real.mask }, random)).toThrow(/mask difference does not open/);
    // A pseudo-output for another amount cannot be proven: C_l − pseudoOut is no commitment to zero.
    expect(() => signClsag({ ...base, pseudoOut: encodePoint(commit(pseudoMask, real.amount + 1n)) }, random)).toThrow(PrivacyProofError);
  });
});
