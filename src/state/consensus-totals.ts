/**
 * The consensus totals under the committed state root (rules v2, docs/state.md "Consensus totals"): the running
 * figures acceptance reads from outside the accounts — units emitted (the cap clamps every subsidy by it), units
 * burnt, coin fees and energy paid, transactions accepted — stored in the state trie under one reserved key, written
 * by every acceptance from activation on in the same batch as the accounts it changes. The header's state root
 * commits to them, so a node joining at a pruning point reads them from the state it verified chunk by chunk, never
 * from a peer's word (before v2 they lived only in the node-local acceptance record, which nothing proves).
 *
 *   key   = BLAKE3("weft/state/totals/v1")                     (state-record.ts: tag ‖ an empty id)
 *   value = version u8 = 1 ‖ emitted ‖ burnt ‖ feesTotal ‖ energyUsedTotal ‖ acceptedTotal   (unsigned LEB128 each)
 *
 * Pure: light clients prove the totals with it like any record (src/state/proof-verify.ts).
 */
import { DecodeError } from '../errors.ts';
import { pushVarint, type AcceptanceTotals } from './acceptance-record.ts';
import { recordVersionOf, stateRecordKey, unknownRecordVersion } from './state-record.ts';

/** The key tag: prefix-free against every namespace tag (namespaces.ts), and the id is empty. */
const consensusTotalsTag = 'weft/state/totals/v1';
/** The one trie key of the totals. */
export const consensusTotalsKey: Uint8Array = stateRecordKey(consensusTotalsTag, new Uint8Array(0));
const totalsVersion = 1;
/** LEB128 of a figure: 20 bytes hold 140 bits, far above any total (the cap is below 2^64). */
const varintBytesMax = 20;

const fields = ['emitted', 'burnt', 'feesTotal', 'energyUsedTotal', 'acceptedTotal'] as const;

export function encodeConsensusTotals(totals: AcceptanceTotals): Uint8Array {
  const out: number[] = [totalsVersion];
  for (const field of fields) pushVarint(out, totals[field]);
  return Uint8Array.from(out);
}

/** DecodeError for an unknown version, a truncated or overlong figure, or trailing bytes. */
export function decodeConsensusTotals(value: Uint8Array): AcceptanceTotals {
  const version = recordVersionOf(value, 'totals');
  if (version !== totalsVersion) throw unknownRecordVersion('totals', version, [totalsVersion]);
  let at = 1;
  const varint = (field: string): bigint => {
    let result = 0n;
    for (let i = 0; i < varintBytesMax; i++) {
      if (at >= value.length) throw new DecodeError(`totals record: ${field} truncated at offset ${at}`);
      const b = value[at++]!;
      result |= BigInt(b & 0x7f) << BigInt(7 * i);
      if ((b & 0x80) === 0) return result;
    }
    throw new DecodeError(`totals record: ${field} longer than ${varintBytesMax} bytes`);
  };
  const [emitted, burnt, feesTotal, energyUsedTotal, acceptedTotal] = fields.map(varint) as [bigint, bigint, bigint, bigint, bigint];
  if (at !== value.length) throw new DecodeError(`totals record: ${value.length - at} trailing bytes`);
  return { emitted, burnt, feesTotal, energyUsedTotal, acceptedTotal };
}

/** Whether two sets of totals are the same figures. */
export function sameTotals(a: AcceptanceTotals, b: AcceptanceTotals): boolean {
  return fields.every((field) => a[field] === b[field]);
}
