/**
 * The pruning-point proof's shape (docs/pruning-proof.md "The proof"): per level L from 0 to the top level, the
 * headers of level ≥ L that make up level L's selected chain and its merge sets, from a root up to the level's
 * selected tip, in topological order. Builder, verifier and comparison live beside this file.
 */
import type { BlockHeader } from '../codec/header.ts';

export interface PruningProof {
  /** `levels[L]`: the level-L headers, parents before children, ending at that level's selected tip. */
  readonly levels: readonly (readonly BlockHeader[])[];
}
