/**
 * A pool entry: one decoded transaction with what admission, ordering and templates need computed once — its id,
 * its sender key, its size and the Schnorr checks its signatures need.
 *
 * Hashes are taken from the received bytes, never from a re-encoding: the codec is canonical (decode refuses any
 * byte string that is not exactly `encode(tx)`), so BLAKE3(bytes) is the tx hash and BLAKE3("weft/tx/v1" ‖
 * bytes[0 .. body]) the signing hash (docs/transactions.md "Hashing and signing"). test/mempool-admission.test.ts
 * checks both against `txHash` / `signingHash`.
 */
import { checkAddressBytes, multisigScriptHash } from '../crypto/address.ts';
import { blake3 } from '../crypto/blake3.ts';
import type { SchnorrCheck } from '../crypto/verifier.ts';
import { decodeTransaction, type Transaction } from '../codec/transaction.ts';
import { TxKind } from '../codec/transaction-kinds.ts';
import { DecodeError } from '../errors.ts';
import { concatBytes, equalBytes, toHex } from '../util/bytes.ts';

export interface PoolEntry {
  readonly tx: Transaction;
  /** The canonical encoding as received (what blocks carry). */
  readonly bytes: Uint8Array;
  /** BLAKE3 of `bytes`: the transaction id. */
  readonly hash: Uint8Array;
  /** Lowercase hex of `hash`: the pool's map key. */
  readonly id: string;
  /** Lowercase hex of the 33-byte `from`: the key of the sender's nonce queue. */
  readonly sender: string;
  readonly size: number;
  /** Clock time (ms) the pool admitted it; expiry counts from here. */
  readonly addedMs: number;
  /** Admission order: the tie-break between equal fee rates (first come, first served). */
  readonly seq: number;
}

/** A decoded transaction before admission: its signature checks are not yet verified. */
export interface ParsedTransaction {
  readonly tx: Transaction;
  readonly bytes: Uint8Array;
  readonly hash: Uint8Array;
  readonly id: string;
  readonly sender: string;
  /** undefined: a multisig script that does not hash to `from` — invalid whatever the signatures. */
  readonly checks: readonly SchnorrCheck[] | undefined;
}

const signingTag = new TextEncoder().encode('weft/tx/v1');
/** kind + chain_id + from + to + amount + fee + nonce + use_energy + memo_len (docs/transactions.md layout). */
const bodyFixedBytes = 98;
const fromOffset = 5;
const toOffset = 38;
const addressEnd = 71;

/**
 * An address field of unknown type is -40002 Invalid address (the seed's code for it), not a generic decode error:
 * the codec reports it as DecodeError, so look at the two type bytes first when decoding fails.
 */
function rethrowAddressProblem(bytes: Uint8Array, cause: DecodeError): never {
  if (bytes.length >= addressEnd) {
    checkAddressBytes(bytes.subarray(fromOffset, toOffset));
    checkAddressBytes(bytes.subarray(toOffset, addressEnd));
  }
  throw cause;
}

/** Decodes and hashes received bytes. Throws DecodeError (-32602) or InvalidAddressError (-40002). */
export function parseTransaction(bytes: Uint8Array): ParsedTransaction {
  let tx: Transaction;
  try {
    tx = decodeTransaction(bytes);
  } catch (error) {
    if (error instanceof DecodeError) rethrowAddressProblem(bytes, error);
    throw error;
  }
  const hash = blake3(bytes);
  const message = blake3(concatBytes(signingTag, bytes.subarray(0, bodyFixedBytes + tx.memo.length)));
  return { tx, bytes, hash, id: toHex(hash), sender: toHex(tx.from), checks: signatureChecks(tx, message) };
}

function signatureChecks(tx: Transaction, message: Uint8Array): SchnorrCheck[] | undefined {
  if (tx.kind === TxKind.Transfer) return [{ signature: tx.signature, message, publicKey: tx.from.subarray(1) }];
  if (!equalBytes(multisigScriptHash(tx.script.m, tx.script.publicKeys), tx.from.subarray(1))) return undefined;
  return tx.signatures.map(({ index, signature }) => ({ signature, message, publicKey: tx.script.publicKeys[index]! }));
}

/**
 * Orders by fee rate (fee per encoded byte), exactly: a.fee/a.size vs b.fee/b.size compared as a.fee·b.size vs
 * b.fee·a.size in bigint, so two rates never compare equal by rounding. Negative: a pays less per byte than b.
 */
export function compareFeeRate(a: { tx: Transaction; size: number }, b: { tx: Transaction; size: number }): number {
  const left = a.tx.fee * BigInt(b.size);
  const right = b.tx.fee * BigInt(a.size);
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Better first: higher fee rate, then earlier admission. The order of templates and of eviction (reversed). */
export function compareForBlock(a: PoolEntry, b: PoolEntry): number {
  return compareFeeRate(b, a) || a.seq - b.seq;
}
