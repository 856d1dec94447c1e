/**
 * Blocks whose parents are not known yet wait here instead of being rejected; when a missing parent arrives the
 * chain takes its waiting children back. Bounded by count: the oldest orphan is evicted first, so a peer flooding
 * orphans cannot grow memory.
 */
import type { Block } from '../codec/block.ts';
import type { BlockId } from '../consensus/ghostdag.ts';
import { orphanBlocksMax } from '../limits.ts';

export interface OrphanPool {
  add(id: BlockId, block: Block, missing: readonly BlockId[]): void;
  has(id: BlockId): boolean;
  /** Removes and returns the orphans that were waiting for `parent`. */
  takeChildrenOf(parent: BlockId): Array<{ id: BlockId; block: Block }>;
  /** Missing ancestors worth asking peers for. */
  missingParents(): BlockId[];
  size(): number;
}

export function createOrphanPool(capacity: number = orphanBlocksMax): OrphanPool {
  const orphans = new Map<BlockId, { block: Block; missing: readonly BlockId[] }>();
  const waitingOn = new Map<BlockId, Set<BlockId>>();

  const remove = (id: BlockId): void => {
    const entry = orphans.get(id);
    if (!entry) return;
    orphans.delete(id);
    for (const parent of entry.missing) {
      const set = waitingOn.get(parent);
      set?.delete(id);
      if (set && set.size === 0) waitingOn.delete(parent);
    }
  };

  return {
    add(id, block, missing) {
      if (orphans.has(id)) return;
      while (orphans.size >= capacity) {
        const oldest = orphans.keys().next().value as BlockId;
        remove(oldest);
      }
      orphans.set(id, { block, missing });
      for (const parent of missing) {
        let set = waitingOn.get(parent);
        if (!set) waitingOn.set(parent, (set = new Set()));
        set.add(id);
      }
    },
    has: (id) => orphans.has(id),
    takeChildrenOf(parent) {
      const children = [...(waitingOn.get(parent) ?? [])];
      const out: Array<{ id: BlockId; block: Block }> = [];
      for (const id of children) {
        const entry = orphans.get(id);
        if (!entry) continue;
        remove(id);
        out.push({ id, block: entry.block });
      }
      return out;
    },
    missingParents: () => [...waitingOn.keys()].filter((id) => !orphans.has(id)),
    size: () => orphans.size,
  };
}
