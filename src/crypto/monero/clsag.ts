/**
 * CLSAG, Monero's concise linkable ring signature (HF v13; rctSigs.cpp `CLSAG_Gen` / `verRctCLSAGSimple`; note
 * §1.8). One ring over the aggregated keys W_i = μ_P·P_i + μ_C·(C_i − C_offset) proves, for one unknown index l,
 * knowledge of p with P_l = p·G (the output's spend key) and of z with C_l − C_offset = z·G (the input's commitment
 * minus its pseudo-output commits to zero), and links the spend through the key image I = p·Hp(P_l).
 *
 * Kept byte for byte from Monero so its signatures verify here: the 32-byte zero-padded domain keys
 * "CLSAG_agg_0", "CLSAG_agg_1", "CLSAG_round"; the aggregation hashes over (P…, C…, I, D/8, C_offset); the round
 * hash over (P…, C…, C_offset, message, L, R); the auxiliary image published as D·8⁻¹; the loop closing on c_1.
 * Stricter than Monero (docs/privacy.md "Strict decoding"): ring keys, commitments and the pseudo-output must not be
 * small-order, and I and D/8 must be torsion-free and not the identity.
 */
import { concatBytes } from '../../util/bytes.ts';
import { PrivacyEncodingError, PrivacyProofError } from './errors.ts';
import { G, decodeSubgroupExt, encodePoint, mulBase, mulSecret } from './point.ts';
import { cachedHashToEc, cachedHashToEcExt, cachedPublicExt, cachedPublicPoint, cachedSubgroupExt } from './decoded-points.ts';
import { decodeScalar, encodeScalar, hashToScalar, invEight, mod, paddedDomain, randomScalar, type RandomBytes } from './scalar.ts';
import { add, cached, encodeAll, fromPoint, mulEightExt, negate, oddMultiples, straus, strausTerm, wnafDigits, type Cached, type Ext } from './vartime.ts';

const domainAgg0 = paddedDomain('CLSAG_agg_0');
const domainAgg1 = paddedDomain('CLSAG_agg_1');
const domainRound = paddedDomain('CLSAG_round');
const clsagMessageBytes = 32;
/** Rings above this are refused before any group operation (Monero's own bound is far lower in practice). */
const clsagRingSizeMax = 256;

interface ClsagRingMember {
  /** The one-time output key P_i (32 bytes). */
  readonly publicKey: Uint8Array;
  /** The output's amount commitment C_i (32 bytes). */
  readonly commitment: Uint8Array;
}

export interface ClsagStatement {
  /** What is signed (Monero: the pre-MLSAG hash of the transaction), 32 bytes. */
  readonly message: Uint8Array;
  readonly ring: readonly ClsagRingMember[];
  /** C_offset: the input's pseudo-output commitment. */
  readonly pseudoOut: Uint8Array;
  readonly keyImage: Uint8Array;
}

export interface ClsagSignature {
  /** One response per ring member. */
  readonly s: readonly Uint8Array[];
  readonly c1: Uint8Array;
  /** The auxiliary (commitment) key image, stored as D·8⁻¹ like Monero. */
  readonly D: Uint8Array;
}

export interface ClsagSignInput {
  readonly message: Uint8Array;
  readonly ring: readonly ClsagRingMember[];
  readonly pseudoOut: Uint8Array;
  /** The index of the signer's output in the ring. */
  readonly secretIndex: number;
  /** p with P_l = p·G. */
  readonly secretKey: bigint;
  /** z with C_l − pseudoOut = z·G: the real input's mask minus the pseudo-output's mask. */
  readonly commitmentMaskDifference: bigint;
}

/** The hash prefixes shared by every step of one signature. */
function transcript(statement: ClsagStatement, D8inv: Uint8Array) {
  const keys = statement.ring.map((m) => m.publicKey);
  const commitments = statement.ring.map((m) => m.commitment);
  const aggTail = concatBytes(...keys, ...commitments, statement.keyImage, D8inv, statement.pseudoOut);
  const muP = hashToScalar(domainAgg0, aggTail);
  const muC = hashToScalar(domainAgg1, aggTail);
  const roundPrefix = concatBytes(domainRound, ...keys, ...commitments, statement.pseudoOut, statement.message);
  return { muP, muC, roundPrefix };
}

// s·G runs on a wide wNAF table of G built once; the key-image term on a narrower one built per signature.
const baseWindow = 8;
const imageWindow = 7;
let baseTable: readonly Cached[] | undefined;

interface DecodedMember {
  readonly P: Ext;
  readonly C: Ext;
  readonly hashedP: Ext;
}

/** Ring members decoded (strictly, remembered across signatures: decoded-points.ts) with Hp(P), in limb form. */
function decodeRing(ring: readonly ClsagRingMember[]): DecodedMember[] {
  return ring.map((m, i) => ({
    P: cachedPublicExt(m.publicKey, `ring key ${i}`),
    C: cachedPublicExt(m.commitment, `ring commitment ${i}`),
    hashedP: cachedHashToEcExt(m.publicKey),
  }));
}

/**
 * The round function c_{i+1} = Hs(prefix ‖ L_i ‖ R_i) with L_i = s_i·G + c_i·μ_P·P_i + c_i·μ_C·(C_i − C_offset) and
 * R_i = s_i·Hp(P_i) + c_i·(μ_P·I + μ_C·D): the key-image part is one point for the whole ring, so it is summed
 * once and given a table; each round is then two Straus sums (three and two terms) sharing nothing but tables, and
 * L and R are encoded with one inversion. All scalars here are public (responses and challenges).
 */
function rounds(ring: readonly DecodedMember[], pseudoOut: Ext, I: Ext, D: Ext, muP: bigint, muC: bigint, roundPrefix: Uint8Array) {
  baseTable ??= oddMultiples(fromPoint(G), baseWindow);
  const image = straus([strausTerm(I, muP), strausTerm(D, muC)]);
  const imageTable = oddMultiples(image, imageWindow);
  const minusOffset = cached(negate(pseudoOut));
  const members = ring.map((m) => ({ P: m.P, offsetC: add(m.C, minusOffset), hashedP: m.hashedP }));
  return (i: number, s: bigint, c: bigint): bigint => {
    const m = members[i]!;
    const L: Ext = straus([{ table: baseTable!, digits: wnafDigits(s, baseWindow) }, strausTerm(m.P, mod(muP * c)), strausTerm(m.offsetC, mod(muC * c))]);
    const R: Ext = straus([strausTerm(m.hashedP, s), { table: imageTable, digits: wnafDigits(c, imageWindow) }]);
    const [Lb, Rb] = encodeAll([L, R]);
    return hashToScalar(roundPrefix, Lb!, Rb!);
  };
}

function checkShape(statement: { message: Uint8Array; ring: readonly ClsagRingMember[] }): void {
  const n = statement.ring.length;
  if (n < 1 || n > clsagRingSizeMax) throw new PrivacyEncodingError(`ring size: got ${n}, expected 1..${clsagRingSizeMax}`);
  if (statement.message.length !== clsagMessageBytes) {
    throw new PrivacyEncodingError(`message: got ${statement.message.length} bytes, expected ${clsagMessageBytes}`);
  }
}

/** Signs; returns the signature and the key image I = p·Hp(P_l). Secret multiplications are constant-time. */
export function signClsag(input: ClsagSignInput, random: RandomBytes): { signature: ClsagSignature; keyImage: Uint8Array } {
  checkShape(input);
  const n = input.ring.length;
  const l = input.secretIndex;
  if (!Number.isInteger(l) || l < 0 || l >= n) throw new PrivacyEncodingError(`secret index: got ${l}, expected 0..${n - 1}`);
  const ring = decodeRing(input.ring);
  const pseudoOut = cachedPublicPoint(input.pseudoOut, 'pseudo-output');
  const p = mod(input.secretKey);
  const z = mod(input.commitmentMaskDifference);
  // Refuse to sign for secrets that do not open the ring member: such a signature could never verify.
  const Pl = cachedPublicPoint(input.ring[l]!.publicKey, `ring key ${l}`);
  const Cl = cachedPublicPoint(input.ring[l]!.commitment, `ring commitment ${l}`);
  if (p === 0n || !mulBase(p).equals(Pl)) throw new PrivacyProofError('secret_mismatch', 'secret key does not open ring member');
  if (z === 0n || !mulBase(z).equals(Cl.subtract(pseudoOut))) {
    throw new PrivacyProofError('secret_mismatch', 'commitment mask difference does not open C_l − pseudoOut');
  }
  const Hl = cachedHashToEc(input.ring[l]!.publicKey);
  const I = mulSecret(Hl, p);
  const D = mulSecret(Hl, z);
  const keyImage = encodePoint(I);
  const D8inv = encodePoint(D.multiplyUnsafe(invEight));
  const { muP, muC, roundPrefix } = transcript({ ...input, keyImage }, D8inv);
  const round = rounds(ring, fromPoint(pseudoOut), fromPoint(I), fromPoint(D), muP, muC, roundPrefix);

  // The signer's own round multiplies secrets (a), so it stays on noble's constant-time path.
  const a = randomScalar(random);
  let c = hashToScalar(roundPrefix, encodePoint(mulBase(a)), encodePoint(mulSecret(Hl, a)));
  const s: bigint[] = new Array(n).fill(0n);
  let c1 = (l + 1) % n === 0 ? c : 0n;
  for (let i = (l + 1) % n; i !== l; i = (i + 1) % n) {
    s[i] = randomScalar(random);
    c = round(i, s[i]!, c);
    if ((i + 1) % n === 0) c1 = c;
  }
  s[l] = mod(a - c * (muP * p + muC * z));
  return { signature: { s: s.map(encodeScalar), c1: encodeScalar(c1), D: D8inv }, keyImage };
}

/** Verifies; throws PrivacyEncodingError for malformed input and PrivacyProofError (with a reason) for a bad proof. */
export function assertClsag(statement: ClsagStatement, signature: ClsagSignature): void {
  checkShape(statement);
  const n = statement.ring.length;
  if (signature.s.length !== n) throw new PrivacyEncodingError(`responses: got ${signature.s.length}, expected ${n}`);
  const s = signature.s.map((b, i) => decodeScalar(b, `response ${i}`));
  const c1 = decodeScalar(signature.c1, 'c1');
  const I = cachedSubgroupExt(statement.keyImage, 'key image');
  const D = mulEightExt(decodeSubgroupExt(signature.D, 'auxiliary key image'));
  const pseudoOut = cachedPublicExt(statement.pseudoOut, 'pseudo-output');
  const ring = decodeRing(statement.ring);
  const { muP, muC, roundPrefix } = transcript(statement, signature.D);
  const round = rounds(ring, pseudoOut, I, D, muP, muC, roundPrefix);
  let c = c1;
  for (let i = 0; i < n; i++) {
    c = round(i, s[i]!, c);
    if (c === 0n) throw new PrivacyProofError('zero_challenge', `round ${i} hashed to zero`);
  }
  if (c !== c1) throw new PrivacyProofError('ring_not_closed', 'CLSAG ring does not close on c1');
}

/** True when the signature verifies; false for any malformed or invalid input. */
export function verifyClsag(statement: ClsagStatement, signature: ClsagSignature): boolean {
  try {
    assertClsag(statement, signature);
    return true;
  } catch (e) {
    if (e instanceof PrivacyEncodingError || e instanceof PrivacyProofError) return false;
    throw e;
  }
}
