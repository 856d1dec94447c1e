/**
 * A pool entry: one decoded transaction with what admission, ordering and templates need computed once from its
 * kind (src/kinds/) — its id, its spend (payer, nonce, amount, fee), its conflict keys, its size and mass, and the
 * proofs its authorisation needs.
 *
 * Hashes are taken from the received bytes, never from a re-encoding: the codec is canonical (decode refuses any
 * byte string that is not exactly `encode(tx)`), so BLAKE3(bytes) is the tx hash and BLAKE3("weft/tx/v1" ‖
 * bytes[0 .. body]) the signing hash (docs/transactions.md "Hashing and signing"). test/integration/server/mempool/mempool-admission.test.ts
 * checks both against `txHash` / `signingHash`.
 */
import { blake3 } from '../crypto/blake3.ts';
import type { WitnessCheck } from '../crypto/witness-check.ts';
import { decodeTransaction, type AnyTransaction } from '../kinds/transaction-codec.ts';
import { AddressDecodeError } from '../kinds/errors.ts';
import { PrivacyDecodeError } from '../kinds/confidential/codec.ts';
import type { MassRules, Spend } from '../kinds/kind.ts';
import { massOf } from '../kinds/mass.ts';
import { kindOf } from '../kinds/registry.ts';
import { signingHashOfBody } from '../kinds/signing.ts';
import { toHex } from '../util/bytes.ts';

/** A decoded transaction before admission: its proofs are not yet verified. */
export interface ParsedTransaction {
  readonly tx: AnyTransaction;
  readonly bytes: Uint8Array;
  /** BLAKE3 of `bytes`: the transaction id. */
  readonly hash: Uint8Array;
  /** Lowercase hex of `hash`: the pool's map key. */
  readonly id: string;
  /** Who pays and with which nonce, what it moves and its fee. */
  readonly spend: Spend;
  /** Lowercase hex of the payer's 33-byte address: the key of its nonce queue. */
  readonly sender: string;
  /** Keys it occupies in the pool (src/kinds/kind.ts `conflictKeys`). */
  readonly conflicts: readonly string[];
  /** Its weight against the block mass budget; the pool orders by fee per unit of it. */
  readonly mass: number;
  /** The mass rules `mass` was weighed by (a template under other rules weighs it again, select.ts). */
  readonly massRules: MassRules;
  /** fee / mass as a float: the fast first comparison of `compareFeeRate` (exact bigint only when two are close). */
  readonly rate: number;
  /** undefined: no proof could make it valid (a multisig script that does not hash to `from`). */
  readonly checks: readonly WitnessCheck[] | undefined;
}

export interface PoolEntry extends Omit<ParsedTransaction, 'checks'> {
  readonly size: number;
  /** Clock time (ms) the pool admitted it; expiry counts from here. */
  readonly addedMs: number;
  /** Admission order: the tie-break between equal fee rates (first come, first served). */
  readonly seq: number;
}

/**
 * Decodes and hashes received bytes; `rules` weigh it for the next block (absent: before rules v3). Throws
 * DecodeError (-32602) or InvalidAddressError (-40002).
 */
export function parseTransaction(bytes: Uint8Array, rules?: MassRules): ParsedTransaction {
  let tx: AnyTransaction;
  try {
    tx = decodeTransaction(bytes);
  } catch (error) {
    // An address that does not decode is the seed's -40002, not a generic decode error.
    if (error instanceof AddressDecodeError) throw error.address;
    // A point that breaks the strict privacy rules is the seed's -40006 (privacy_error).
    if (error instanceof PrivacyDecodeError) throw error.privacy;
    throw error;
  }
  const kind = kindOf(tx);
  const hash = blake3(bytes);
  const spend = kind.spend(tx);
  const massRules = normalMassRules(rules);
  const mass = massOf(kind.mass(tx, bytes.length, massRules), massRules);
  return {
    tx,
    bytes,
    hash,
    id: toHex(hash),
    spend,
    sender: toHex(spend.payer),
    conflicts: kind.conflictKeys(tx),
    mass,
    massRules,
    rate: Number(spend.fee) / mass,
    checks: kind.witnessChecks(tx, signingHashOfBody(bytes.subarray(0, kind.bodyBytes(tx)))),
  };
}

/** Two float rates further apart than this (relative) are ordered by the floats alone: each is within 2^-51 of exact. */
const rateSeparation = 2 ** -40;

/**
 * Orders by fee rate (fee per unit of mass), exactly: a.fee/a.mass vs b.fee/b.mass compared as a.fee·b.mass vs
 * b.fee·a.mass in bigint, so two rates never compare equal by rounding. Templates compare ~10^5 pairs, so the float
 * rates decide first when they are clearly apart (the order is then the exact one). Negative: a pays less per unit.
 */
export function compareFeeRate(a: { spend: Spend; mass: number; rate?: number }, b: { spend: Spend; mass: number; rate?: number }): number {
  const ra = a.rate ?? Number(a.spend.fee) / a.mass;
  const rb = b.rate ?? Number(b.spend.fee) / b.mass;
  if (Math.abs(ra - rb) > Math.max(ra, rb) * rateSeparation) return ra < rb ? -1 : 1;
  const left = a.spend.fee * BigInt(b.mass);
  const right = b.spend.fee * BigInt(a.mass);
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Better first: higher fee rate, then earlier admission. The order of templates and of eviction (reversed). */
export function compareForBlock(a: PoolEntry, b: PoolEntry): number {
  return compareFeeRate(b, a) || a.seq - b.seq;
}

/** Mass rules with every flag spelled out (absent: the rules before v3). */
function normalMassRules(rules: MassRules | undefined): MassRules {
  return { rulesV3: rules?.rulesV3 === true, rulesV4: rules?.rulesV4 === true };
}

/** Whether two mass rules weigh every transaction alike. */
export function sameMassRules(a: MassRules, b: MassRules): boolean {
  return a.rulesV3 === b.rulesV3 && (a.rulesV4 === true) === (b.rulesV4 === true);
}
