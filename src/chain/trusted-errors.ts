/**
 * Refusals of trusted data (docs/pruning-proof.md "Trusted data"): the headers and GHOSTDAG data a chain joining at a
 * pruning point starts from. Every check runs before anything is written, so a refused import changes nothing; the
 * stable `reason` says which check failed so the syncer and tests branch on it, not on messages.
 */
import { WeftError } from '../errors.ts';

export type TrustedDataErrorReason =
  /** Structurally wrong: an empty set, a bad height, an id that is not a hash, a body on a block below the point. */
  | 'malformed'
  /** The pruning point is not the one asked for, or is not among the blocks. */
  | 'pruning-point-mismatch'
  /** A header fails its checks in isolation or its PoW. */
  | 'header-invalid'
  /** A block twice. */
  | 'duplicate'
  /** Blocks not in ascending (blue work, hash): a parent after its child. */
  | 'order'
  /** GHOSTDAG data whose blue score or blue work differ from the header's (which its PoW commits to). */
  | 'ghostdag-header-mismatch'
  /** GHOSTDAG data that contradicts itself or the blocks it names: selected parent, blues, scores, work, height. */
  | 'ghostdag-inconsistent'
  /** A block in the pruning point's future: trusted data ends at the point and its anticone. */
  | 'not-anticone'
  /** The pruning point or a block of its anticone without its transactions, or transactions that fail their checks. */
  | 'body-invalid'
  /** The pruning point's selected chain stops short of the depth the rules above it read (trustedChainDepth). */
  | 'chain-short'
  /** A blue of the pruning point's chain that the set must hold is missing (the band below P has a hole). */
  | 'incomplete'
  /** The state machine's record of the pruning point does not decode. */
  | 'state-record'
  /** The pruning point's state is not in the store yet (import it first: src/state/snapshot-import.ts). */
  | 'state-missing'
  /** The import was used wrongly: a store that holds another chain, a half-joined store opened without its data. */
  | 'import-state';

const notPeerFault = new Set<TrustedDataErrorReason>(['state-missing', 'import-state']);

export class TrustedDataError extends WeftError {
  readonly reason: TrustedDataErrorReason;

  constructor(reason: TrustedDataErrorReason, message: string, details?: unknown) {
    super(notPeerFault.has(reason) ? 'internal' : 'peer_protocol', `trusted data refused (${reason}): ${message}`, { details });
    this.reason = reason;
  }

  /** True when the sender of the trusted data is to blame (ban it, ask another peer). */
  get peerFault(): boolean {
    return !notPeerFault.has(this.reason);
  }
}
