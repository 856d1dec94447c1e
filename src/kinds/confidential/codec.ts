/**
 * The wire pieces the confidential kinds share (shield.ts, ring-spend.ts): stealth outputs, ring inputs and the
 * strict point rules of docs/privacy.md "Strict decoding" applied while decoding, so a transaction that decodes
 * holds only canonical points of the right kind:
 *
 *   public_output = one_time_key [32] | view_tag u8 | amount u64 (> 0)                    (shield: amount shown)
 *   hidden_output = one_time_key [32] | view_tag u8 | commitment [32] | encrypted_amount [8]
 *   ring_input    = (one_time_key [32] | commitment [32]) × ring_size | key_image [32] | pseudo_out [32]
 *
 * One-time keys, ring keys, ring commitments, pseudo-outputs and tx public keys must not be small-order; output
 * commitments and key images must be torsion-free and not the identity (a range proof then covers exactly C, and
 * a key image has one encoding). Ring members are strictly ascending by one-time key, so a ring has one encoding and
 * no repeated member; key images and output keys do not repeat within a transaction.
 */
import { DecodeError } from '../../errors.ts';
import { PrivacyEncodingError } from '../../crypto/monero/errors.ts';
import { cachedPublicPoint, cachedSubgroupPoint } from '../../crypto/monero/decoded-points.ts';
import { encryptedAmountBytes } from '../../crypto/monero/amount-encryption.ts';
import { compareBytes, toHex } from '../../util/bytes.ts';
import { failDecode, type Fail, type TxReader } from '../value-transfer.ts';

export const pointBytes = 32;
export const hiddenOutputBytes = pointBytes + 1 + pointBytes + encryptedAmountBytes;
export const ringMemberBytes = 2 * pointBytes;
const u64Max = (1n << 64n) - 1n;

export interface PublicOutput {
  readonly oneTimeKey: Uint8Array;
  readonly viewTag: number;
  readonly amount: bigint;
}

export interface HiddenOutput {
  readonly oneTimeKey: Uint8Array;
  readonly viewTag: number;
  readonly commitment: Uint8Array;
  readonly encryptedAmount: Uint8Array;
}

export interface RingMember {
  /** The member output's one-time key: its id in the `confidential_output` namespace. */
  readonly oneTimeKey: Uint8Array;
  /** Its commitment as stored there (checked against state by checkContext). */
  readonly commitment: Uint8Array;
}

export interface RingInput {
  readonly ring: readonly RingMember[];
  readonly keyImage: Uint8Array;
  readonly pseudoOut: Uint8Array;
}

/**
 * A point that breaks the strict rules: a DecodeError to the codec and to block validation; admission answers it
 * with the PrivacyEncodingError it carries (-40006 privacy_error), like an address error answers -40002.
 */
export class PrivacyDecodeError extends DecodeError {
  readonly privacy: PrivacyEncodingError;
  constructor(message: string, privacy: PrivacyEncodingError) {
    super(message, { reason: 'privacy_encoding' });
    this.privacy = privacy;
  }
}

export type PointRule = 'public' | 'subgroup';

/** Checks `bytes` under `rule`; a failure goes to `fail`, or is a PrivacyDecodeError when decoding. */
export function checkPoint(what: string, bytes: Uint8Array, rule: PointRule, fail: Fail): void {
  if (!(bytes instanceof Uint8Array) || bytes.length !== pointBytes) fail(`transaction ${what}: expected ${pointBytes} bytes`);
  try {
    // Remembered: the CLSAG and range-proof checks decode the same points again (decoded-points.ts).
    if (rule === 'public') cachedPublicPoint(bytes, what);
    else cachedSubgroupPoint(bytes, what);
  } catch (error) {
    if (!(error instanceof PrivacyEncodingError)) throw error;
    if (fail === failDecode) throw new PrivacyDecodeError(`transaction ${what}: ${error.message}`, error);
    fail(`transaction ${what}: ${error.message}`);
  }
}

export function checkCount(what: string, count: number, min: number, max: number, fail: Fail): void {
  if (!Number.isInteger(count) || count < min || count > max) fail(`transaction ${what}: got ${count}, expected ${min}..${max}`);
}

function checkViewTag(what: string, tag: number, fail: Fail): void {
  if (!Number.isInteger(tag) || tag < 0 || tag > 0xff) fail(`transaction ${what} view tag: expected a byte`);
}

export function checkU64(what: string, value: bigint, fail: Fail): void {
  if (typeof value !== 'bigint' || value < 0n || value > u64Max) fail(`transaction ${what}: got ${value}, expected a u64`);
}

/** No one-time key twice among a transaction's outputs (the second could never be created). */
export function checkDistinct(what: string, items: readonly Uint8Array[], fail: Fail): void {
  const seen = new Set<string>();
  for (const item of items) {
    const hex = toHex(item);
    if (seen.has(hex)) fail(`transaction ${what}: ${hex} appears twice`);
    seen.add(hex);
  }
}

export function checkPublicOutput(o: PublicOutput, i: number, fail: Fail): void {
  checkPoint(`output ${i} one-time key`, o.oneTimeKey, 'public', fail);
  checkViewTag(`output ${i}`, o.viewTag, fail);
  checkU64(`output ${i} amount`, o.amount, fail);
  // A zero output is dust that only grows the decoy set with coins nobody holds.
  if (o.amount === 0n) fail(`transaction output ${i} amount: got 0, expected at least 1`);
}

export function checkHiddenOutput(o: HiddenOutput, i: number, fail: Fail): void {
  checkPoint(`output ${i} one-time key`, o.oneTimeKey, 'public', fail);
  checkViewTag(`output ${i}`, o.viewTag, fail);
  checkPoint(`output ${i} commitment`, o.commitment, 'subgroup', fail);
  if (!(o.encryptedAmount instanceof Uint8Array) || o.encryptedAmount.length !== encryptedAmountBytes) {
    fail(`transaction output ${i} encrypted amount: expected ${encryptedAmountBytes} bytes`);
  }
}

export function checkRingInput(input: RingInput, i: number, ringSize: number, fail: Fail): void {
  if (!Array.isArray(input.ring) || input.ring.length !== ringSize) fail(`transaction input ${i}: ring of ${input.ring?.length}, expected ${ringSize}`);
  input.ring.forEach((member, j) => {
    checkPoint(`input ${i} ring key ${j}`, member.oneTimeKey, 'public', fail);
    checkPoint(`input ${i} ring commitment ${j}`, member.commitment, 'public', fail);
    if (j > 0 && compareBytes(input.ring[j - 1]!.oneTimeKey, member.oneTimeKey) >= 0) {
      fail(`transaction input ${i} ring: members must be strictly ascending by one-time key (member ${j})`);
    }
  });
  checkPoint(`input ${i} key image`, input.keyImage, 'subgroup', fail);
  checkPoint(`input ${i} pseudo-output`, input.pseudoOut, 'public', fail);
}

export function readPublicOutput(read: TxReader, i: number): PublicOutput {
  const output = { oneTimeKey: read.bytes(`output ${i} one-time key`, pointBytes), viewTag: read.u8(`output ${i} view tag`), amount: read.u64(`output ${i} amount`) };
  checkPublicOutput(output, i, failDecode);
  return output;
}

export function readHiddenOutput(read: TxReader, i: number): HiddenOutput {
  const output = {
    oneTimeKey: read.bytes(`output ${i} one-time key`, pointBytes),
    viewTag: read.u8(`output ${i} view tag`),
    commitment: read.bytes(`output ${i} commitment`, pointBytes),
    encryptedAmount: read.bytes(`output ${i} encrypted amount`, encryptedAmountBytes),
  };
  checkHiddenOutput(output, i, failDecode);
  return output;
}

export function readRingInput(read: TxReader, i: number, ringSize: number): RingInput {
  const ring = Array.from({ length: ringSize }, (_, j) => ({
    oneTimeKey: read.bytes(`input ${i} ring key ${j}`, pointBytes),
    commitment: read.bytes(`input ${i} ring commitment ${j}`, pointBytes),
  }));
  const input = { ring, keyImage: read.bytes(`input ${i} key image`, pointBytes), pseudoOut: read.bytes(`input ${i} pseudo-output`, pointBytes) };
  checkRingInput(input, i, ringSize, failDecode);
  return input;
}

/** An append-only byte builder for the encoders (little-endian integers, like every Weft codec). */
export function createWriter() {
  const parts: Uint8Array[] = [];
  let length = 0;
  const push = (bytes: Uint8Array) => {
    parts.push(bytes);
    length += bytes.length;
  };
  const int = (bytes: number, write: (view: DataView) => void) => {
    const out = new Uint8Array(bytes);
    write(new DataView(out.buffer));
    push(out);
  };
  return {
    u8: (v: number) => int(1, (d) => d.setUint8(0, v)),
    u32: (v: number) => int(4, (d) => d.setUint32(0, v, true)),
    u64: (v: bigint) => int(8, (d) => d.setBigUint64(0, v, true)),
    bytes: push,
    finish(): Uint8Array {
      const out = new Uint8Array(length);
      let at = 0;
      for (const part of parts) {
        out.set(part, at);
        at += part.length;
      }
      return out;
    },
  };
}
export type Writer = ReturnType<typeof createWriter>;

export function writePublicOutput(w: Writer, o: PublicOutput): void {
  w.bytes(o.oneTimeKey);
  w.u8(o.viewTag);
  w.u64(o.amount);
}

export function writeHiddenOutput(w: Writer, o: HiddenOutput): void {
  w.bytes(o.oneTimeKey);
  w.u8(o.viewTag);
  w.bytes(o.commitment);
  w.bytes(o.encryptedAmount);
}

export function writeRingInput(w: Writer, input: RingInput): void {
  for (const member of input.ring) {
    w.bytes(member.oneTimeKey);
    w.bytes(member.commitment);
  }
  w.bytes(input.keyImage);
  w.bytes(input.pseudoOut);
}
