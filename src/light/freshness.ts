/**
 * "Verified now" needs more than a verified header: a node can answer get_proof against any block the tab ever
 * verified — a balance and nonce from before a spend — and the proof checks out. So a proof of current state is
 * accepted only against a block on the tab's own selected chain within proofTipDistanceBlocksMax chain blocks of
 * its selected tip (src/light/limits.ts says why that bound). `assertFresh` refuses anything else with
 * LightProofError 'proof-stale'; `freshnessOf` says how far behind the tip (in blocks) and how old (in ms, from the
 * header's own timestamp) the block is, for the page to show ("verified at block N, 3 s ago").
 */
import type { IndexedBlock } from '../chain/block-index.ts';
import { toHash0x } from '../util/bytes.ts';
import { LightProofError } from './errors.ts';
import type { LightChain } from './light-chain.ts';
import { proofTipDistanceBlocksMax } from './limits.ts';

/** What a chain must answer to judge freshness. */
export type FreshnessChain = Pick<LightChain, 'get' | 'selectedTip' | 'blockAtHeight'>;

export interface Freshness {
  /** Selected-chain blocks between the proof's block and the tab's selected tip (0: the tip itself). */
  readonly blocksBehindTip: number;
  /** The header's timestamp, ms since the epoch (what "3 s ago" is measured from). */
  readonly timestampMs: number;
}

/** Throws LightProofError 'proof-stale' unless `block` is on `chain`'s selected chain within the bound of its tip. */
export function assertFresh(chain: FreshnessChain, block: IndexedBlock, what = 'the proof'): Freshness {
  const tip = chain.selectedTip();
  const onChain = chain.blockAtHeight(block.height)?.id === block.id;
  if (!onChain) {
    throw new LightProofError('proof-stale', `${what} is against block ${toHash0x(block.hash)}, which is not on this tab's selected chain (tip at height ${tip.height})`);
  }
  const behind = tip.height - block.height;
  if (behind > proofTipDistanceBlocksMax) {
    throw new LightProofError('proof-stale', `${what} is against block ${block.height}, ${behind} blocks below this tab's tip ${tip.height} (at most ${proofTipDistanceBlocksMax}): old state, not current`);
  }
  return { blocksBehindTip: behind, timestampMs: Number(block.header.timestampMs) };
}

/** "verified at block N, 3 s ago" — the age from the header's timestamp to `nowMs`. */
export function freshnessText(blockHeight: number, timestampMs: number, nowMs: number): string {
  const ageS = Math.max(0, Math.round((nowMs - timestampMs) / 1000));
  const age = ageS < 120 ? `${ageS} s` : ageS < 7200 ? `${Math.round(ageS / 60)} min` : `${Math.round(ageS / 3600)} h`;
  return `verified at block ${blockHeight}, ${age} ago`;
}
