/**
 * The acceptance record of a block (docs/state.md "Stored rows"): what accepting its mergeset did — per merged
 * block its colour, subsidy, fees, energy used and one accepted bit per transaction — plus the running totals of
 * the resulting state (units emitted and burnt, coin fees and energy paid, transactions accepted, all over the
 * block's past). A block's state depends on its past only, so the record is written once, with the block.
 *
 *   version u8 = 1 | emitted | burnt | feesTotal | energyUsedTotal | acceptedTotal | merged count
 *   per merged block: id [32] | flags u8 (bit 0 blue) | subsidy | fees | energyUsed | tx count | bitmap ⌈n/8⌉
 *
 * Numbers are unsigned LEB128 (running totals can outgrow u64 over centuries of fees); bit i of the bitmap is
 * bit (i & 7) of byte (i >> 3).
 */
import { DecodeError } from '../errors.ts';
import { fromHex, toHex } from '../util/bytes.ts';

interface MergedRecord {
  readonly id: string;
  readonly blue: boolean;
  readonly subsidy: bigint;
  readonly fees: bigint;
  readonly energyUsed: bigint;
  readonly accepted: readonly boolean[];
}

export interface AcceptanceTotals {
  readonly emitted: bigint;
  readonly burnt: bigint;
  readonly feesTotal: bigint;
  readonly energyUsedTotal: bigint;
  readonly acceptedTotal: bigint;
}

export interface AcceptanceRecord extends AcceptanceTotals {
  readonly merged: readonly MergedRecord[];
}

export const zeroTotals: AcceptanceTotals = Object.freeze({ emitted: 0n, burnt: 0n, feesTotal: 0n, energyUsedTotal: 0n, acceptedTotal: 0n });
const recordVersion = 1;

/** Appends the LEB128 encoding of a non-negative figure (the record's and the consensus totals' one integer form). */
export function pushVarint(out: number[], value: bigint): void {
  let v = value;
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
}

export function encodeAcceptanceRecord(record: AcceptanceRecord): Uint8Array {
  const out: number[] = [recordVersion];
  for (const n of [record.emitted, record.burnt, record.feesTotal, record.energyUsedTotal, record.acceptedTotal]) pushVarint(out, n);
  pushVarint(out, BigInt(record.merged.length));
  for (const m of record.merged) {
    for (const b of fromHex(m.id)) out.push(b);
    out.push(m.blue ? 1 : 0);
    pushVarint(out, m.subsidy);
    pushVarint(out, m.fees);
    pushVarint(out, m.energyUsed);
    pushVarint(out, BigInt(m.accepted.length));
    const bitmap = new Uint8Array(Math.ceil(m.accepted.length / 8));
    m.accepted.forEach((ok, i) => {
      if (ok) bitmap[i >> 3]! |= 1 << (i & 7);
    });
    for (const b of bitmap) out.push(b);
  }
  return Uint8Array.from(out);
}

export function decodeAcceptanceRecord(bytes: Uint8Array): AcceptanceRecord {
  let at = 0;
  const fail = (what: string): never => {
    throw new DecodeError(`acceptance record: ${what} at offset ${at}`);
  };
  const byte = (): number => (at < bytes.length ? bytes[at++]! : fail('truncated'));
  const varint = (): bigint => {
    let value = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const b = byte();
      value |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return value;
      if (shift > 140n) fail('varint too long');
    }
  };
  if (byte() !== recordVersion) fail('unknown version');
  const [emitted, burnt, feesTotal, energyUsedTotal, acceptedTotal] = [varint(), varint(), varint(), varint(), varint()];
  const count = Number(varint());
  const merged: MergedRecord[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 32 > bytes.length) fail('truncated id');
    const id = toHex(bytes.subarray(at, at + 32));
    at += 32;
    const blue = (byte() & 1) === 1;
    const [subsidy, fees, energyUsed] = [varint(), varint(), varint()];
    const n = Number(varint());
    if (at + Math.ceil(n / 8) > bytes.length) fail('truncated bitmap');
    const accepted = Array.from({ length: n }, (_, j) => (bytes[at + (j >> 3)]! & (1 << (j & 7))) !== 0);
    at += Math.ceil(n / 8);
    merged.push({ id, blue, subsidy, fees, energyUsed, accepted });
  }
  if (at !== bytes.length) fail('trailing bytes');
  return { emitted, burnt, feesTotal, energyUsedTotal, acceptedTotal, merged };
}
