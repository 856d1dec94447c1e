/**
 * secp256k1 keys and signatures on @noble/curves.
 *
 * - Public keys are BIP340 x-only keys (32 bytes): the x coordinate of the even-y point `P = d·G` (or `(n−d)·G`
 *   when `d·G` has odd y). One key serves both signature schemes below.
 * - Schnorr: BIP340 exactly (tagged hashes, even-y nonce), with the auxiliary randomness injected by the caller:
 *   core code never reads a random source itself (docs/style.md habit 7, determinism).
 * - ECDSA: for `sign_message` with `signature_type: "ecdsa"`. Weft defines the ECDSA public key of an x-only key as
 *   its even-y point (SEC1 compressed form `02 || x`); the signer negates its secret when `d·G` has odd y, exactly as
 *   BIP340 does, so that one 32-byte key verifies both kinds. Signatures are 64-byte compact `r || s` with low s
 *   (s ≤ n/2) enforced on signing and on verification (no malleability). The message is a 32-byte digest (no
 *   SHA-256 prehash): callers hash their message with a domain-tagged BLAKE3 first.
 */
import { schnorr, secp256k1 } from '@noble/curves/secp256k1.js';
import { WeftError } from '../errors.ts';
import { bigIntToBytesBE, bytesToBigIntBE } from '../util/bytes.ts';

const privateKeyBytes = 32;
export const publicKeyBytes = 32;
export const signatureBytes = 64;
export const auxRandBytes = 32;
const ecdsaDigestBytes = 32;
/** Drawing a 32-byte value ≥ n has probability ~2^-128; this bound only stops a broken random source looping. */
const keygenAttemptsMax = 64;

/** The group order n of secp256k1. */
const curveOrder = secp256k1.Point.CURVE().n;

/** A secret key, public key, signature or aux randomness of the wrong shape. Code -32602 (InvalidParams). */
export class InvalidKeyError extends WeftError {
  constructor(message: string) {
    super('invalid_params', message);
  }
}

/** A source of cryptographic randomness: returns `length` fresh random bytes. */
export type RandomBytes = (length: number) => Uint8Array;

function expectLength(what: string, bytes: Uint8Array, length: number): void {
  if (!(bytes instanceof Uint8Array) || bytes.length !== length) {
    const got = bytes instanceof Uint8Array ? `${bytes.length} bytes` : typeof bytes;
    throw new InvalidKeyError(`${what}: got ${got}, expected ${length} bytes`);
  }
}

/** True when `privateKey` is 32 bytes encoding an integer in [1, n−1]. */
export function isValidPrivateKey(privateKey: Uint8Array): boolean {
  if (!(privateKey instanceof Uint8Array) || privateKey.length !== privateKeyBytes) return false;
  const d = bytesToBigIntBE(privateKey);
  return d > 0n && d < curveOrder;
}

function checkPrivateKey(privateKey: Uint8Array): void {
  expectLength('private key', privateKey, privateKeyBytes);
  if (!isValidPrivateKey(privateKey)) throw new InvalidKeyError('private key: got 0 or ≥ n, expected 1 ≤ d < n');
}

/** True when `publicKey` is 32 bytes naming the x coordinate of a curve point (BIP340 lift_x succeeds). */
export function isValidPublicKey(publicKey: Uint8Array): boolean {
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== publicKeyBytes) return false;
  try {
    schnorr.utils.lift_x(bytesToBigIntBE(publicKey));
    return true;
  } catch {
    return false;
  }
}

/** Draws a private key from `randomBytes` (rejection sampling, so it is uniform in [1, n−1]). */
export function generatePrivateKey(randomBytes: RandomBytes): Uint8Array {
  for (let attempt = 0; attempt < keygenAttemptsMax; attempt++) {
    const candidate = randomBytes(privateKeyBytes);
    expectLength('random bytes', candidate, privateKeyBytes);
    if (isValidPrivateKey(candidate)) return Uint8Array.from(candidate);
  }
  throw new InvalidKeyError(`random source gave no valid key in ${keygenAttemptsMax} attempts: it is broken`);
}

/** The BIP340 x-only public key (32 bytes) of a private key. */
export function publicKeyFromPrivate(privateKey: Uint8Array): Uint8Array {
  checkPrivateKey(privateKey);
  return schnorr.getPublicKey(privateKey);
}

/** BIP340 signature (64 bytes) over `message` (any length; Weft signs 32-byte hashes). */
export function schnorrSign(message: Uint8Array, privateKey: Uint8Array, auxRand: Uint8Array): Uint8Array {
  checkPrivateKey(privateKey);
  expectLength('aux randomness', auxRand, auxRandBytes);
  return schnorr.sign(message, privateKey, auxRand);
}

/** BIP340 verification. Never throws: a malformed signature or key is simply not valid. */
export function schnorrVerify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  if (!(signature instanceof Uint8Array) || signature.length !== signatureBytes) return false;
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== publicKeyBytes) return false;
  if (!(message instanceof Uint8Array)) return false;
  try {
    return schnorr.verify(signature, message, publicKey);
  } catch {
    return false;
  }
}

/** The secret whose point has even y: `d` or `n − d` (BIP340's negation rule, reused for ECDSA). */
function evenYSecret(privateKey: Uint8Array): Uint8Array {
  const point = secp256k1.Point.BASE.multiply(bytesToBigIntBE(privateKey));
  if (point.toAffine().y % 2n === 0n) return privateKey;
  return bigIntToBytesBE(curveOrder - bytesToBigIntBE(privateKey), privateKeyBytes);
}

/**
 * ECDSA (compact `r || s`, low s) over a 32-byte digest, by the even-y twin of `privateKey`, so that it verifies
 * against the x-only public key. `auxRand` is mixed into RFC 6979 nonce derivation (hedged signing).
 */
export function ecdsaSign(digest: Uint8Array, privateKey: Uint8Array, auxRand: Uint8Array): Uint8Array {
  checkPrivateKey(privateKey);
  expectLength('digest', digest, ecdsaDigestBytes);
  expectLength('aux randomness', auxRand, auxRandBytes);
  return secp256k1.sign(digest, evenYSecret(privateKey), { prehash: false, lowS: true, extraEntropy: auxRand });
}

/** ECDSA verification against the even-y point of an x-only key; high-s signatures are rejected. Never throws. */
export function ecdsaVerify(signature: Uint8Array, digest: Uint8Array, publicKey: Uint8Array): boolean {
  if (!(signature instanceof Uint8Array) || signature.length !== signatureBytes) return false;
  if (!(digest instanceof Uint8Array) || digest.length !== ecdsaDigestBytes) return false;
  if (!isValidPublicKey(publicKey)) return false;
  const compressed = new Uint8Array(1 + publicKeyBytes);
  compressed[0] = 0x02;
  compressed.set(publicKey, 1);
  try {
    return secp256k1.verify(signature, digest, compressed, { prehash: false, lowS: true, format: 'compact' });
  } catch {
    return false;
  }
}
