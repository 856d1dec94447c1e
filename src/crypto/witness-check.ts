/**
 * The witness-check port: every stateless cryptographic check a transaction needs — BIP340 Schnorr today, ECDSA, and
 * later ed25519 ring signatures (CLSAG) and range proofs (Bulletproofs+) — as one tagged list that block validation
 * and the mempool verify in ONE batch. A transaction kind (src/kinds/) says which checks it needs; it never verifies
 * them itself, so the node can run the batch on its worker pool and the browser on the calling thread.
 *
 * Schemes other than BIP340 are looked up in a table of pure checkers (`witnessSchemes`), which the worker threads
 * load too: a scheme added there runs in the pool with no other change. Every checker answers false on malformed
 * input and never throws (a witness that cannot be parsed is one that does not verify).
 */
import { ecdsaVerify } from './keys.ts';
import {
  bulletproofPlusScheme,
  checkBulletproofPlusBatch,
  checkBulletproofPlusFields,
  checkClsagFields,
  clsagScheme,
  type BulletproofPlusCheckFields,
  type ClsagCheckFields,
} from './monero/proof-schemes.ts';
import type { AsyncSignatureVerifier, SchnorrCheck, SignatureVerifier } from './verifier.ts';

/** A BIP340 signature: the hot path, batched through the Schnorr verifier (libsecp256k1 workers on the node). */
export interface SchnorrWitnessCheck extends SchnorrCheck {
  readonly scheme: 'bip340';
}

/** Compact low-s ECDSA over a 32-byte digest by an x-only key's even-y point (src/crypto/keys.ts). */
interface EcdsaWitnessCheck {
  readonly scheme: 'ecdsa-secp256k1';
  readonly signature: Uint8Array;
  readonly message: Uint8Array;
  readonly publicKey: Uint8Array;
}

/**
 * Any other registered scheme: `fields` must survive structured cloning (byte arrays, numbers, strings, arrays of
 * them), since the node ships it to a worker thread.
 */
interface SchemeWitnessCheck {
  readonly scheme: string;
  readonly fields: Readonly<Record<string, unknown>>;
}

export type WitnessCheck = SchnorrWitnessCheck | EcdsaWitnessCheck | SchemeWitnessCheck;

/** Verifies one check of its scheme; false for anything malformed. Must be pure: workers run the same code. */
type WitnessChecker = (check: WitnessCheck) => boolean;

/** Pure checkers by scheme, for every scheme but BIP340. Workers import this module, so they share the table. */
const witnessSchemes: ReadonlyMap<string, WitnessChecker> = new Map<string, WitnessChecker>([
  ['ecdsa-secp256k1', (check) => {
    const c = check as EcdsaWitnessCheck;
    return ecdsaVerify(c.signature, c.message, c.publicKey);
  }],
  [clsagScheme, (check) => checkClsagFields((check as SchemeWitnessCheck).fields as unknown as ClsagCheckFields)],
  [bulletproofPlusScheme, (check) => checkBulletproofPlusFields((check as SchemeWitnessCheck).fields as unknown as BulletproofPlusCheckFields)],
]);

/**
 * Schemes whose checks verify faster together (one answer per check, in order; false for anything malformed, never
 * throws). Workers import this module too, so a chunk of them is one batch there.
 */
const witnessBatchSchemes: ReadonlyMap<string, (checks: readonly WitnessCheck[]) => boolean[]> = new Map([
  [bulletproofPlusScheme, (checks: readonly WitnessCheck[]) =>
    checkBulletproofPlusBatch(checks.map((check) => (check as SchemeWitnessCheck).fields as unknown as BulletproofPlusCheckFields))],
]);

/** Verifies non-BIP340 checks on the calling thread: batch schemes one batch per scheme, the rest one by one. */
export function checkWitnesses(checks: readonly WitnessCheck[]): boolean[] {
  const results: boolean[] = new Array(checks.length);
  const batches = new Map<string, number[]>();
  checks.forEach((check, at) => {
    if (!witnessBatchSchemes.has(check.scheme)) results[at] = checkWitness(check);
    else batches.set(check.scheme, [...(batches.get(check.scheme) ?? []), at]);
  });
  for (const [scheme, positions] of batches) {
    let verdicts: boolean[];
    try {
      verdicts = witnessBatchSchemes.get(scheme)!(positions.map((at) => checks[at]!));
    } catch {
      verdicts = [];
    }
    positions.forEach((at, k) => (results[at] = verdicts[k] === true));
  }
  return results;
}

/** Verifies one non-BIP340 check on the calling thread; an unknown scheme never verifies. */
export function checkWitness(check: WitnessCheck): boolean {
  const checker = witnessSchemes.get(check.scheme);
  if (checker === undefined) return false;
  try {
    return checker(check) === true;
  } catch {
    return false;
  }
}

export interface WitnessVerifier {
  readonly name: string;
  /** One answer per check, in order. */
  verifyWitnesses(checks: readonly WitnessCheck[]): boolean[];
}

export interface AsyncWitnessVerifier {
  readonly name: string;
  verifyWitnesses(checks: readonly WitnessCheck[]): Promise<boolean[]>;
}

/** Splits a batch into its Schnorr part (positions and checks) and answers the rest with `others`. */
function splitBatch(checks: readonly WitnessCheck[]): { schnorrAt: number[]; schnorr: SchnorrCheck[]; otherAt: number[] } {
  const schnorrAt: number[] = [];
  const schnorr: SchnorrCheck[] = [];
  const otherAt: number[] = [];
  checks.forEach((check, i) => {
    if (check.scheme === 'bip340') {
      schnorrAt.push(i);
      schnorr.push(check as SchnorrWitnessCheck);
    } else otherAt.push(i);
  });
  return { schnorrAt, schnorr, otherAt };
}

/** A synchronous witness verifier over a Schnorr verifier: BIP340 batched through it, other schemes inline. */
export function witnessVerifierOver(schnorr: SignatureVerifier): WitnessVerifier {
  return {
    name: schnorr.name,
    verifyWitnesses(checks) {
      const { schnorrAt, schnorr: items, otherAt } = splitBatch(checks);
      const results = new Array<boolean>(checks.length);
      const verdicts = items.length === 0 ? [] : schnorr.verifySchnorrBatch(items);
      schnorrAt.forEach((at, k) => (results[at] = verdicts[k] === true));
      const otherVerdicts = checkWitnesses(otherAt.map((at) => checks[at]!));
      otherAt.forEach((at, k) => (results[at] = otherVerdicts[k] === true));
      return results;
    },
  };
}

/**
 * An asynchronous witness verifier: BIP340 batched through `schnorr`, other schemes through `others` (a worker pool's
 * generic path) or inline when none is given.
 */
export function asyncWitnessVerifierOver(
  schnorr: SignatureVerifier | AsyncSignatureVerifier,
  others?: (checks: readonly WitnessCheck[]) => Promise<boolean[]>,
): AsyncWitnessVerifier {
  return {
    name: schnorr.name,
    async verifyWitnesses(checks) {
      const { schnorrAt, schnorr: items, otherAt } = splitBatch(checks);
      const results = new Array<boolean>(checks.length);
      const otherChecks = otherAt.map((at) => checks[at]!);
      const [verdicts, otherVerdicts] = await Promise.all([
        items.length === 0 ? [] : schnorr.verifySchnorrBatch(items),
        otherChecks.length === 0 ? [] : others ? others(otherChecks) : checkWitnesses(otherChecks),
      ]);
      schnorrAt.forEach((at, k) => (results[at] = verdicts[k] === true));
      otherAt.forEach((at, k) => (results[at] = otherVerdicts[k] === true));
      return results;
    },
  };
}

/** Whatever verifier a caller passed (a Schnorr verifier, sync or async, or a witness verifier) as a witness verifier. */
export function asWitnessVerifier(
  verifier: SignatureVerifier | AsyncSignatureVerifier | WitnessVerifier | AsyncWitnessVerifier,
): WitnessVerifier | AsyncWitnessVerifier {
  if ('verifyWitnesses' in verifier) return verifier;
  if ('verifySchnorr' in verifier) return witnessVerifierOver(verifier);
  return asyncWitnessVerifierOver(verifier);
}
