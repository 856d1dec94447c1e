/**
 * Chooses between two verified proofs (docs/pruning-proof.md "Choosing between two proofs"; rusty-kaspa's
 * `compare_proofs_inner`): the defender is this node's own proof, the challenger a peer's. The challenger must be
 * strictly heavier at the lowest level where the two share a block; ties and undecidable cases keep the defender,
 * so two honest nodes never flap between equal chains.
 */
import type { BlockId, ProofParams } from './level-dag.ts';
import { ProofError } from './proof-errors.ts';
import type { VerifiedLevel, VerifiedProof } from './verify-proof.ts';

export interface ProofContender {
  readonly proof: VerifiedProof;
  /**
   * Blue work of the best header known above the proof's pruning point: the defender's own selected tip; for the
   * challenger, the block whose announcement started the sync (claimed, checked as its headers arrive).
   */
  readonly tipBlueWork: bigint;
}

export interface ProofComparison {
  readonly challengerWins: boolean;
  /** The level whose shared block decided, or null when no full level shares one. */
  readonly level: number | null;
  readonly commonBlock: BlockId | null;
  /** Each side's level work from the shared block plus its work above the pruning point (null without one). */
  readonly defenderWork: bigint | null;
  readonly challengerWork: bigint | null;
}

const saturatingSub = (a: bigint, b: bigint): bigint => (a > b ? a - b : 0n);

/** The challenger's selected chain at a level, from its tip down, until a block the defender's level also holds. */
function commonBlock(challenger: VerifiedLevel, defender: VerifiedLevel): BlockId | null {
  let current: BlockId | null = challenger.tip;
  while (current !== null) {
    if (defender.blocks.has(current)) return current;
    current = challenger.blocks.get(current)!.selectedParent;
  }
  return null;
}

const workFrom = (level: VerifiedLevel, block: BlockId): bigint => saturatingSub(level.tipBlueWork, level.blocks.get(block)!.blueWork);

export function compareProofs(defender: ProofContender, challenger: ProofContender, params: Pick<ProofParams, 'm' | 'genesis'>): ProofComparison {
  const full = 2 * params.m;
  const defenderPeriod = saturatingSub(defender.tipBlueWork, defender.proof.pruningPoint.blueWork);
  const challengerPeriod = saturatingSub(challenger.tipBlueWork, challenger.proof.pruningPoint.blueWork);
  const levels = challenger.proof.levels;
  for (let level = 0; level < levels.length; level++) {
    const mine = levels[level]!;
    if (mine.tipBlueScore < full) continue;
    const theirs = defender.proof.levels[level]!;
    const common = commonBlock(mine, theirs);
    if (common === null) continue;
    const defenderWork = workFrom(theirs, common) + defenderPeriod;
    const challengerWork = workFrom(mine, common) + challengerPeriod;
    return { challengerWins: challengerWork > defenderWork, level, commonBlock: common, defenderWork, challengerWork };
  }
  const none = { level: null, commonBlock: null, defenderWork: null, challengerWork: null };
  if (defender.proof.pruningPointId === params.genesis) return { challengerWins: true, ...none };
  for (let level = levels.length - 1; level >= 0; level--) {
    if (levels[level]!.tipBlueScore < full) continue;
    if (defender.proof.levels[level]!.tipBlueScore < full) return { challengerWins: true, ...none };
  }
  return { challengerWins: false, ...none };
}

/** compareProofs, refusing a challenger that does not win with ProofError('insufficient-work'). */
export function requireHeavierProof(defender: ProofContender, challenger: ProofContender, params: Pick<ProofParams, 'm' | 'genesis'>): ProofComparison {
  const result = compareProofs(defender, challenger, params);
  if (!result.challengerWins) {
    const why =
      result.level === null
        ? 'no full level shares a block with ours and it has no full level we lack'
        : `at level ${result.level} it has work ${result.challengerWork} from the shared block ${result.commonBlock}, ours ${result.defenderWork}`;
    throw new ProofError('insufficient-work', `pruning proof: not heavier than ours (${why}); expected strictly more work`, {
      level: result.level,
      commonBlock: result.commonBlock,
    });
  }
  return result;
}
