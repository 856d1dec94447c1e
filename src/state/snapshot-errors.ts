/**
 * Errors of state snapshot sync (docs/state-trie.md "Snapshots"). A chunk that fails any check is a peer fault: the
 * syncer drops it, bans its sender and asks another peer for the same start key; nothing of it was written. The
 * stable `reason` says which check failed so tests and peer scoring branch on it, not on messages.
 */
import { WeftError } from '../errors.ts';

export type SnapshotErrorReason =
  /** Bytes that do not decode canonically: sizes, counts, bitmaps, trailing bytes, a sibling at a level it cannot be. */
  | 'chunk-malformed'
  /** More leaves than snapshotChunkEntriesMax, or leaf bytes over snapshotChunkLeafBytesMax. */
  | 'chunk-too-large'
  /** Leaf keys not strictly ascending. */
  | 'chunk-not-sorted'
  /** A leaf below the start key, a chunk that is empty but not the last, or a next key that does not follow the last leaf. */
  | 'chunk-out-of-range'
  /** The chunk claims to be the last, but its proof holds keys to the right of its last leaf. */
  | 'chunk-keys-remain'
  /** Leaves and proof do not hash to the snapshot's state root (a leaf dropped, added or altered, a forged hash). */
  | 'chunk-root-mismatch'
  /** The import was used out of order (a chunk after the last, finish before the last). */
  | 'import-state';

export class SnapshotError extends WeftError {
  readonly reason: SnapshotErrorReason;

  constructor(reason: SnapshotErrorReason, message: string, details?: unknown) {
    super(reason === 'import-state' ? 'internal' : 'peer_protocol', message, { details });
    this.reason = reason;
  }

  /** True when the chunk's sender is to blame (every chunk-* reason). */
  get peerFault(): boolean {
    return this.reason !== 'import-state';
  }
}
