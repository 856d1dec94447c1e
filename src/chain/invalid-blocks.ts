/**
 * Refused blocks: the recent ones in memory, every one in the store (chainKeys.invalid), so that a restarted node
 * neither downloads nor validates again a block it already refused. Each row cost its sender real PoW.
 */
import type { BlockId } from '../consensus/ghostdag.ts';
import { invalidBlocksMax } from '../limits.ts';
import type { KvStore } from '../storage/kv.ts';
import { createBoundedSet } from '../util/bounded-set.ts';
import { fromHex } from '../util/bytes.ts';
import { chainKeys } from './chain-store.ts';

export interface InvalidBlocks {
  has(id: BlockId, hash?: Uint8Array): boolean;
  /** Remembers a block refused by `rule`. */
  mark(id: BlockId, hash: Uint8Array, rule: string): void;
}

export function createInvalidBlocks(store: KvStore): InvalidBlocks {
  const recent = createBoundedSet<BlockId>(invalidBlocksMax);
  return {
    has: (id, hash = fromHex(id)) => recent.has(id) || store.has(chainKeys.invalid(hash)),
    mark(id, hash, rule) {
      recent.add(id);
      // Best effort: a marker lost to a crash only means validating that block once more.
      void store.write([{ type: 'put', key: chainKeys.invalid(hash), value: utf8.encode(rule) }]).catch(() => undefined);
    },
  };
}

const utf8 = new TextEncoder();
