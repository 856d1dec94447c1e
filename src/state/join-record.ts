/**
 * What a node joining at a pruning point keeps of the peer's acceptance record (docs/pruning-proof.md "Trusted data",
 * docs/state.md "Consensus totals"): from rules v2 on only the totals the point's verified state commits to.
 */
import { TrustedDataError } from '../chain/trusted-errors.ts';
import { rulesV2Active } from '../consensus/activation.ts';
import type { NetworkParams } from '../consensus/params.ts';
import { decodeAcceptanceRecord, type AcceptanceRecord, type AcceptanceTotals } from './acceptance-record.ts';
import { consensusTotalsKey, decodeConsensusTotals, sameTotals } from './consensus-totals.ts';
import type { StateTrie } from './trie.ts';

/** The consensus totals committed in the state at `root`, or undefined when that state has none (before rules v2). */
export function committedTotals(trie: StateTrie, root: Uint8Array): AcceptanceTotals | undefined {
  const value = trie.get(root, consensusTotalsKey);
  return value === undefined ? undefined : decodeConsensusTotals(value);
}

/**
 * The acceptance record a node joining at a point with header `point` keeps: the peer's `record` is checked to decode,
 * and from rules v2 on its totals must equal those the point's verified state commits to (`readTotals`: the imported
 * state), and what is kept is those committed totals alone — the per-merged-block part of a peer's record is proven by
 * nothing, so it is dropped. Below v2 the record is taken as given (version 1 rules: nothing commits to it).
 * TrustedDataError 'state-record' (the peer's fault) for a record that does not decode, a v2 state without totals, or
 * totals that contradict the committed ones.
 */
export function checkJoinRecord(
  params: NetworkParams,
  point: { readonly daaScore: number },
  record: Uint8Array | undefined,
  readTotals: () => AcceptanceTotals | undefined,
): AcceptanceRecord {
  if (record === undefined) throw new TrustedDataError('state-record', 'the trusted data has no acceptance record of the pruning point');
  let decoded: AcceptanceRecord;
  try {
    decoded = decodeAcceptanceRecord(record);
  } catch (error) {
    throw new TrustedDataError('state-record', `the pruning point's acceptance record does not decode: ${(error as Error).message}`);
  }
  if (!rulesV2Active(params, point.daaScore)) return decoded;
  let committed: AcceptanceTotals | undefined;
  try {
    committed = readTotals();
  } catch (error) {
    throw new TrustedDataError('state-record', `the consensus totals in the pruning point's state do not decode: ${(error as Error).message}`);
  }
  if (committed === undefined) throw new TrustedDataError('state-record', "the pruning point's state holds no consensus totals (rules v2 write them in every state)");
  if (!sameTotals(decoded, committed)) {
    throw new TrustedDataError('state-record', `the acceptance record's totals (emitted ${decoded.emitted}) contradict those the state root commits to (emitted ${committed.emitted})`);
  }
  return { ...committed, merged: [] };
}
