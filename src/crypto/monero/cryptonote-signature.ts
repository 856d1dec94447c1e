/**
 * CryptoNote v1 signatures, as Monero's crypto.cpp has them (note §1.8): the single-key Schnorr-style
 * `generate_signature` / `check_signature` and the pre-RingCT ring signature `generate_ring_signature` /
 * `check_ring_signature`. Weft's confidential transfers use CLSAG (clsag.ts); these exist because Monero's tests.txt
 * pins the shared primitives through them and because a one-member ring is the `medium` level's spend proof.
 * Verification follows Monero check for check (including its lenient point decoding), so the vectors' verdicts hold.
 */
import { concatBytes } from '../../util/bytes.ts';
import { hashToEc } from './hash-to-ec.ts';
import { G, decodePoint, encodePoint, mulAddPublic, mulBase, mulSecret, type Point } from './point.ts';
import { PrivacyEncodingError } from './errors.ts';
import { encodeScalar, hashToScalar, isCanonicalScalar, mod, randomScalar, reduceScalar32, type RandomBytes } from './scalar.ts';

const signatureBytes = 64;

/** Signature c ‖ r (32 bytes each). */
export function generateSignature(prefixHash: Uint8Array, publicKey: Uint8Array, secret: bigint, random: RandomBytes): Uint8Array {
  for (;;) {
    const k = randomScalar(random);
    const c = hashToScalar(prefixHash, publicKey, encodePoint(mulBase(k)));
    if (c === 0n) continue;
    const r = mod(k - c * secret);
    if (r === 0n) continue;
    return concatBytes(encodeScalar(c), encodeScalar(r));
  }
}

export function checkSignature(prefixHash: Uint8Array, publicKey: Uint8Array, signature: Uint8Array): boolean {
  if (signature.length !== signatureBytes) return false;
  let P: Point;
  try {
    P = decodePoint(publicKey);
  } catch (e) {
    if (e instanceof PrivacyEncodingError) return false;
    throw e;
  }
  const cBytes = signature.subarray(0, 32);
  const rBytes = signature.subarray(32);
  if (!isCanonicalScalar(cBytes) || !isCanonicalScalar(rBytes)) return false;
  const c = reduceScalar32(cBytes);
  if (c === 0n) return false;
  const comm = mulAddPublic([P, G], [c, reduceScalar32(rBytes)]);
  if (comm.is0()) return false;
  return hashToScalar(prefixHash, publicKey, encodePoint(comm)) === c;
}

/**
 * Ring signature over `publicKeys` by the member at `secretIndex`: n pairs (c_i, r_i). Random draws are taken in
 * Monero's order (k at the signer; c_i then r_i at every other index) so that the test RNG reproduces its vectors.
 */
export function generateRingSignature(
  prefixHash: Uint8Array,
  keyImage: Point,
  publicKeys: readonly Uint8Array[],
  secret: bigint,
  secretIndex: number,
  random: RandomBytes,
): Uint8Array[] {
  const n = publicKeys.length;
  const c: bigint[] = new Array(n).fill(0n);
  const r: bigint[] = new Array(n).fill(0n);
  const ab: Uint8Array[] = [];
  let sum = 0n;
  let k = 0n;
  for (let i = 0; i < n; i++) {
    const hp = hashToEc(publicKeys[i]!);
    if (i === secretIndex) {
      k = randomScalar(random);
      ab.push(encodePoint(mulBase(k)), encodePoint(mulSecret(hp, k)));
    } else {
      c[i] = randomScalar(random);
      r[i] = randomScalar(random);
      const P = decodePoint(publicKeys[i]!, `ring member ${i}`);
      ab.push(encodePoint(mulAddPublic([P, G], [c[i]!, r[i]!])));
      ab.push(encodePoint(mulAddPublic([hp, keyImage], [r[i]!, c[i]!])));
      sum += c[i]!;
    }
  }
  const h = hashToScalar(prefixHash, ...ab);
  c[secretIndex] = mod(h - sum);
  r[secretIndex] = mod(k - c[secretIndex]! * secret);
  return c.map((ci, i) => concatBytes(encodeScalar(ci), encodeScalar(r[i]!)));
}

export function checkRingSignature(
  prefixHash: Uint8Array,
  keyImage: Uint8Array,
  publicKeys: readonly Uint8Array[],
  signatures: readonly Uint8Array[],
): boolean {
  if (signatures.length !== publicKeys.length || publicKeys.length === 0) return false;
  let I: Point;
  try {
    I = decodePoint(keyImage, 'key image');
  } catch (e) {
    if (e instanceof PrivacyEncodingError) return false;
    throw e;
  }
  // Monero refuses a key image outside the prime subgroup (ge_check_subgroup_precomp_vartime).
  if (!I.isTorsionFree()) return false;
  const ab: Uint8Array[] = [];
  let sum = 0n;
  for (let i = 0; i < publicKeys.length; i++) {
    const sig = signatures[i]!;
    if (sig.length !== signatureBytes) return false;
    const cBytes = sig.subarray(0, 32);
    const rBytes = sig.subarray(32);
    if (!isCanonicalScalar(cBytes) || !isCanonicalScalar(rBytes)) return false;
    const c = reduceScalar32(cBytes);
    const r = reduceScalar32(rBytes);
    let P: Point;
    try {
      P = decodePoint(publicKeys[i]!);
    } catch (e) {
      if (e instanceof PrivacyEncodingError) return false;
      throw e;
    }
    ab.push(encodePoint(mulAddPublic([P, G], [c, r])));
    ab.push(encodePoint(mulAddPublic([hashToEc(publicKeys[i]!), I], [r, c])));
    sum += c;
  }
  return mod(hashToScalar(prefixHash, ...ab) - sum) === 0n;
}
