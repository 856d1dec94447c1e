/**
 * Checking a proof's (or trusted data's) headers against the difficulty adjustment (docs/pruning-proof.md "What a
 * joiner checks of the difficulty"). A header's bits are what `nextBits` gives over its DAA window: its selected
 * parent S and S's chain ancestor `daaWindowBlocks` chain blocks down (difficulty.ts). That is checkable for a header
 * exactly when the data holds a stretch of consecutive selected-chain headers at least the window long below it, and
 * the window does not reach genesis (whose height rule shortens it). PoW alone only says a header meets its own bits;
 * this says the bits are the ones the network's hash rate set, so a fabricated chain cannot mine at a made-up
 * easy difficulty inside any checked stretch.
 *
 * - A proof's level 0 lists future(root) ∩ past(P): a header's selected parent is known when all its parents are in
 *   the list (the parent of highest (blue work, hash), GHOSTDAG's rule); the stretch is P's chain walked that way.
 * - Trusted data holds P's chain for at least trustedChainDepth ≥ daaWindowBlocks heights below F0 with checked
 *   GHOSTDAG data: P and the chain blocks above floor + window are checked.
 *
 * Pure; O(stretch length).
 */
import type { BlockHeader } from '../codec/header.ts';
import { nextBits, type DaaParams } from '../consensus/difficulty.ts';
import { blockHash } from '../consensus/pow.ts';
import { toHex } from '../util/bytes.ts';
import { ProofError } from './proof-errors.ts';
import type { PruningProof } from './pruning-proof.ts';

/**
 * Checks every header of `chain` (tip first, each the selected parent of the one before, all consecutive) whose DAA
 * window lies inside it and above genesis; answers how many it checked. ProofError 'difficulty' (the sender's fault).
 */
export function checkChainDifficulty(params: DaaParams, chain: readonly BlockHeader[], genesisId: string): number {
  const window = params.daaWindowBlocks;
  let checked = 0;
  for (let i = 0; i + 1 + window < chain.length; i++) {
    const start = chain[i + 1 + window]!;
    if (start.daaScore === 0 || toHex(blockHash(start)) === genesisId) break;
    const expected = nextBits(params, chain[i + 1]!, start, window);
    const header = chain[i]!;
    if (header.bits !== expected) {
      const id = toHex(blockHash(header));
      throw new ProofError('difficulty', `header ${id} carries bits 0x${header.bits.toString(16)}; the difficulty adjustment over its window gives 0x${expected.toString(16)}`, { id });
    }
    checked++;
  }
  return checked;
}

/** The selected chain of a proof's level 0 from the pruning point down, as far as each header's parents are all listed. */
export function proofLevelZeroChain(proof: PruningProof): BlockHeader[] {
  const list = proof.levels[0] ?? [];
  const byId = new Map(list.map((h) => [toHex(blockHash(h)), h]));
  const chain: BlockHeader[] = [];
  let at = list[list.length - 1];
  while (at !== undefined) {
    chain.push(at);
    let best: { id: string; header: BlockHeader } | undefined;
    for (const parent of at.parents) {
      const id = toHex(parent);
      const header = byId.get(id);
      if (header === undefined) return chain;
      if (best === undefined || header.blueWork > best.header.blueWork || (header.blueWork === best.header.blueWork && id > best.id)) best = { id, header };
    }
    at = best?.header;
  }
  return chain;
}

/** Checks the bits of the proof's level-0 chain stretch; answers how many headers it could check (0 when shorter than a window). */
export function checkProofDifficulty(params: DaaParams, proof: PruningProof, genesisId: string): number {
  return checkChainDifficulty(params, proofLevelZeroChain(proof), genesisId);
}
