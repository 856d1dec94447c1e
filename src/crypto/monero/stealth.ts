/**
 * CryptoNote dual-key stealth outputs, exactly as Monero derives them (crypto.cpp; note §1.2–1.3):
 *
 * - derivation D = 8·r·A (sender, tx secret r, recipient view key A) = 8·a·R (receiver, view secret a, tx key R);
 * - output scalar s_i = Hs(D ‖ varint(i)); one-time key P_i = s_i·G + B; its spend secret x_i = s_i + b;
 * - view tag = keccak("view_tag" ‖ D ‖ varint(i))[0] (HF v15), which lets a scanner skip ~255/256 foreign outputs;
 * - the receiver recovers the spend key an output pays to as P_i − s_i·G (`derive_subaddress_public_key`).
 * Functions take decoded points: callers decode untrusted bytes with the strict rules of point.ts first.
 */
import { concatBytes } from '../../util/bytes.ts';
import { encodePoint, mulBase, mulEight, mulSecret, type Point } from './point.ts';
import { encodeVarint, fastHash, hashToScalar, mod } from './scalar.ts';

const viewTagSalt = new TextEncoder().encode('view_tag');

/** Monero `generate_key_derivation`: 8·secret·point, encoded. The secret multiplication is constant-time. */
export function generateKeyDerivation(point: Point, secret: bigint): Uint8Array {
  return encodePoint(mulEight(mulSecret(point, secret)));
}

/** Monero `derivation_to_scalar`: Hs(D ‖ varint(index)), the per-output shared secret. */
export function derivationToScalar(derivation: Uint8Array, outputIndex: number): bigint {
  return hashToScalar(derivation, encodeVarint(outputIndex));
}

/** Monero `derive_public_key`: the one-time output key Hs(D ‖ i)·G + B. */
export function derivePublicKey(derivation: Uint8Array, outputIndex: number, spendPublic: Point): Point {
  return mulBase(derivationToScalar(derivation, outputIndex)).add(spendPublic);
}

/** Monero `derive_secret_key`: the secret of a one-time output, Hs(D ‖ i) + b mod l. */
export function deriveSecretKey(derivation: Uint8Array, outputIndex: number, spendSecret: bigint): bigint {
  return mod(derivationToScalar(derivation, outputIndex) + spendSecret);
}

/** Monero `derive_subaddress_public_key`: the spend key P − Hs(D ‖ i)·G that an output pays to. */
export function deriveSubaddressPublicKey(outputKey: Point, derivation: Uint8Array, outputIndex: number): Point {
  return outputKey.subtract(mulBase(derivationToScalar(derivation, outputIndex)));
}

/** Monero `derive_view_tag`: the first byte of keccak("view_tag" ‖ D ‖ varint(i)); the salt has no NUL. */
export function deriveViewTag(derivation: Uint8Array, outputIndex: number): number {
  return fastHash(concatBytes(viewTagSalt, derivation, encodeVarint(outputIndex)))[0]!;
}

