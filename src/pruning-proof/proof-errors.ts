/**
 * Errors of pruning-point proofs (docs/pruning-proof.md "Verification", "Choosing between two proofs"). A proof that
 * breaks a rule is the sender's fault: the syncer drops it and bans the peer. The stable `reason` names the rule so
 * tests and peer scoring branch on it, not on messages.
 */
import { WeftError } from '../errors.ts';

export type ProofErrorReason =
  /** Rule 1: not exactly blockLevelMax + 1 levels, or an empty level (level 0 must name the pruning point). */
  | 'levels'
  /** Rule 2: a header whose PoW fails its bits, or whose level is below the level list it is in. */
  | 'header-level'
  /** Rule 3: a header other than a level's first with none of its parents at that level earlier in the list. */
  | 'disconnected'
  /** Rule 4: a parent whose claimed blue work is not strictly below its child's. */
  | 'blue-work'
  /** Rule 5: a header twice in one level. */
  | 'duplicate'
  /** Rule 6: the level's GHOSTDAG refused a header (parents not an antichain, a mergeset over the limit). */
  | 'ghostdag'
  /** Rule 7: the block M deep below level L + 1's selected tip is missing from level L. */
  | 'interlock'
  /** Rule 8: a level's selected tip is not the pruning point (or, above its level, not one of its parents there). */
  | 'tip'
  /** Rule 9: a level's last header is not its selected tip. */
  | 'tip-last'
  /** Rule 10: a level's selected tip has blue score < 2M there and the level's root is not genesis. */
  | 'too-short'
  /** A chain header whose bits differ from what the difficulty adjustment gives over its window (proof-difficulty.ts). */
  | 'difficulty'
  /** The comparison: the challenger is not strictly heavier than the defender. */
  | 'insufficient-work';

export class ProofError extends WeftError {
  readonly reason: ProofErrorReason;

  constructor(reason: ProofErrorReason, message: string, details?: unknown) {
    super('peer_protocol', message, { details });
    this.reason = reason;
  }

  /**
   * True when the proof's sender is to blame: every rule of a proof's own shape. A lighter proof
   * (`insufficient-work`) may be honest — a peer on a fork, or one that is behind — so it is refused, not punished.
   */
  get peerFault(): boolean {
    return this.reason !== 'insufficient-work';
  }
}

/**
 * The node cannot build a proof for this pruning point from the headers it holds (a header missing, a level that
 * reaches neither 2M blue score nor genesis): a local fault, never a peer's.
 */
export class ProofBuildError extends WeftError {
  constructor(message: string, details?: unknown) {
    super('internal', message, { details });
  }
}
