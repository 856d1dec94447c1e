/**
 * A full node's `snapshotChunk` port (fast-sync.ts): chunks of the states it keeps, read from its state trie with
 * their range proofs (readSnapshotChunk), and nothing else. A pruned node keeps the state of its pruning point and of
 * the selected-chain blocks above it (docs/storage.md "Pruning"); every other root — one pruned away, or one it never
 * had — is refused, so a joining node is told at once rather than served a chunk whose nodes a pruning round deletes
 * while it downloads. An archive serves the same window (the last pruningDepth heights), not its whole history.
 *
 * Roots above the floor are found through an index from state root to selected-chain height, built by one walk up
 * from the floor on the first request and then kept by the chain's events; each hit is re-checked against the
 * selected chain at that height, so a reorganisation never leaves a root served that the chain no longer holds.
 */
import type { Chain } from '../chain/chain.ts';
import type { IndexedBlock } from '../chain/block-index.ts';
import type { SnapshotChunk } from '../state/snapshot-codec.ts';
import { readSnapshotChunk, type SnapshotReadLimits } from '../state/snapshot.ts';
import type { StateTrie } from '../state/trie.ts';
import { equalBytes, toHex } from '../util/bytes.ts';

export interface SnapshotServing {
  /** Whether this node serves chunks of the state `root` now. */
  holds(root: Uint8Array): boolean;
  /** The port: the chunk, or undefined for a root the node does not hold. */
  snapshotChunk(root: Uint8Array, from: Uint8Array, limits: SnapshotReadLimits): Promise<SnapshotChunk | undefined>;
  close(): void;
}

export function createSnapshotServing(options: { readonly chain: Chain; readonly trie: StateTrie }): SnapshotServing {
  const { chain, trie } = options;
  // State root (hex) → the selected-chain height that last committed to it; built lazily, swept as the floor rises.
  let heightOfRoot: Map<string, number> | undefined;
  let sweptBelow = 0;

  const floor = (): IndexedBlock => {
    const pruning = chain.pruning();
    if (pruning !== undefined) return pruning.pruningPoint;
    const height = Math.max(0, chain.selectedTip().height - chain.params.pruningDepth);
    return chain.blockAtHeight(height) ?? chain.genesis;
  };

  const index = (from: IndexedBlock): Map<string, number> => {
    if (heightOfRoot === undefined) {
      heightOfRoot = new Map();
      const top = chain.selectedTip().height;
      for (let h = from.height + 1; h <= top; h++) {
        const block = chain.blockAtHeight(h);
        if (block !== undefined) heightOfRoot.set(toHex(block.header.stateRoot), h);
      }
      sweptBelow = from.height;
    } else if (from.height > sweptBelow) {
      for (const [root, h] of heightOfRoot) if (h <= from.height) heightOfRoot.delete(root);
      sweptBelow = from.height;
    }
    return heightOfRoot;
  };

  const unsubscribe = chain.onBlockAccepted((event) => {
    if (heightOfRoot === undefined) return;
    for (const id of event.addedToChain) {
      const block = chain.get(id);
      if (block !== undefined) heightOfRoot.set(toHex(block.header.stateRoot), block.height);
    }
  });

  const holds = (root: Uint8Array): boolean => {
    const base = floor();
    if (equalBytes(base.header.stateRoot, root)) return true;
    const height = index(base).get(toHex(root));
    if (height === undefined || height <= base.height) return false;
    const block = chain.blockAtHeight(height);
    return block !== undefined && equalBytes(block.header.stateRoot, root);
  };

  return {
    holds,
    async snapshotChunk(root, from, limits) {
      if (!holds(root)) return undefined;
      return readSnapshotChunk(trie, root, from, limits);
    },
    close: unsubscribe,
  };
}
