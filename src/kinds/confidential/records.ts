/**
 * The records the confidential kinds keep in the state trie (src/state/namespaces.ts wires these codecs into the
 * `confidential_output` and `key_image` namespaces; value = version u8 ‖ body, docs/state.md "Namespaces"; a namespace's first layout is version 0, like accounts).
 *
 *   confidential_output, id = the output's one-time key P (32):
 *     v0 = 0 | commitment [32] | view_tag u8 | amount_kind u8 | amount [8] | created_daa_score u64
 *     amount_kind 0: `amount` is the ecdhInfo v2 encrypted amount (hidden); 1: it is the public amount LE64 and the
 *     commitment is zeroCommit(amount) = 1·G + amount·H (coins a shield brought in, mask 1).
 *   key_image, id = the key image I (32):
 *     v0 = 0 | tx_hash [32] | daa_score u64   — where the image was spent: the spending transaction's id and the
 *     DAA score of the merging block that accepted it. Absent: unspent (provable with get_proof's absence proof).
 *
 * The output id is its one-time key (not a hash of the creating transaction): a ring member then names itself, and
 * refusing a second output with an existing key rules out Monero's "burning bug" (two outputs with one key share
 * one key image, so only one of them could ever be spent).
 */
import { AssertionError, DecodeError } from '../../errors.ts';
import { recordBody } from '../agent/record-version.ts';

export const confidentialOutputRecordVersion = 0;
export const keyImageRecordVersion = 0;
const outputValueBytes = 1 + 32 + 1 + 1 + 8 + 8;
const keyImageValueBytes = 1 + 32 + 8;
const u64Max = (1n << 64n) - 1n;

export interface ConfidentialOutputRecord {
  readonly commitment: Uint8Array;
  readonly viewTag: number;
  /** 'hidden': `amount` is 8 encrypted bytes; 'public': `amount` is LE64 of the public amount. */
  readonly amountKind: 'hidden' | 'public';
  readonly amount: Uint8Array;
  /** DAA score of the merging block that accepted the creating transaction: maturity counts from here. */
  readonly createdDaaScore: bigint;
}

export interface KeyImageRecord {
  /** The id (BLAKE3 of the bytes) of the transaction that spent the image. */
  readonly txHash: Uint8Array;
  readonly daaScore: bigint;
}

function checkVersion(namespace: string, value: Uint8Array, version: number, bytes: number): DataView {
  recordBody(value, namespace, version);
  if (value.length !== bytes) throw new DecodeError(`${namespace} record: got ${value.length} bytes, expected ${bytes}`);
  return new DataView(value.buffer, value.byteOffset, value.byteLength);
}

// Encoding a malformed record is a bug of the kind that built it, never input: AssertionError.
function checkBytes(what: string, bytes: Uint8Array, length: number): void {
  if (!(bytes instanceof Uint8Array) || bytes.length !== length) throw new AssertionError(`${what}: expected ${length} bytes`);
}

function checkU64(what: string, value: bigint): void {
  if (typeof value !== 'bigint' || value < 0n || value > u64Max) throw new AssertionError(`${what}: got ${value}, expected a u64`);
}

export function encodeConfidentialOutputRecord(record: ConfidentialOutputRecord): Uint8Array {
  checkBytes('confidential output commitment', record.commitment, 32);
  checkBytes('confidential output amount', record.amount, 8);
  if (!Number.isInteger(record.viewTag) || record.viewTag < 0 || record.viewTag > 0xff) throw new AssertionError('confidential output view tag: expected a byte');
  if (record.amountKind !== 'hidden' && record.amountKind !== 'public') throw new AssertionError('confidential output amount kind: expected hidden or public');
  checkU64('confidential output created_daa_score', record.createdDaaScore);
  const out = new Uint8Array(outputValueBytes);
  const view = new DataView(out.buffer);
  out[0] = confidentialOutputRecordVersion;
  out.set(record.commitment, 1);
  out[33] = record.viewTag;
  out[34] = record.amountKind === 'public' ? 1 : 0;
  out.set(record.amount, 35);
  view.setBigUint64(43, record.createdDaaScore, true);
  return out;
}

export function decodeConfidentialOutputRecord(value: Uint8Array): ConfidentialOutputRecord {
  const view = checkVersion('confidential_output', value, confidentialOutputRecordVersion, outputValueBytes);
  const amountKind = value[34]!;
  if (amountKind > 1) throw new DecodeError(`confidential_output record: amount kind ${amountKind}, expected 0 or 1`);
  return {
    commitment: value.slice(1, 33),
    viewTag: value[33]!,
    amountKind: amountKind === 1 ? 'public' : 'hidden',
    amount: value.slice(35, 43),
    createdDaaScore: view.getBigUint64(43, true),
  };
}

export function encodeKeyImageRecord(record: KeyImageRecord): Uint8Array {
  checkBytes('key image record tx hash', record.txHash, 32);
  checkU64('key image record daa_score', record.daaScore);
  const out = new Uint8Array(keyImageValueBytes);
  out[0] = keyImageRecordVersion;
  out.set(record.txHash, 1);
  new DataView(out.buffer).setBigUint64(33, record.daaScore, true);
  return out;
}

export function decodeKeyImageRecord(value: Uint8Array): KeyImageRecord {
  const view = checkVersion('key_image', value, keyImageRecordVersion, keyImageValueBytes);
  return { txHash: value.slice(1, 33), daaScore: view.getBigUint64(33, true) };
}
