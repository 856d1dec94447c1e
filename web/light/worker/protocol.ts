/**
 * The messages between a page and its light node's Worker (web/light/light-node.ts, worker/light-worker.ts). The
 * Worker holds the chain, its store and its p2p session; the page holds a mirror of the verified headers
 * (chain-mirror.ts) and the last status. Everything here is structured-clone data: no functions, no classes.
 */
import type { BlockId } from '../../../src/consensus/ghostdag.ts';
import type { NetworkParams } from '../../../src/consensus/params.ts';
import type { LightMergeset } from '../../../src/light/light-chain.ts';
import type { LightNodeStatus } from '../node/types.ts';

/**
 * One verified block as the mirror needs it: the IndexedBlock's fields with its selected parent named by id and its
 * header encoded (one byte array clones far faster than a header's objects; pages decode the few they read).
 */
export interface MirrorBlock {
  readonly id: BlockId;
  readonly hash: Uint8Array;
  readonly headerBytes: Uint8Array;
  readonly selectedParent: BlockId | null;
  readonly height: number;
  readonly seq: number;
  readonly mergeset: LightMergeset;
}

export type ToLightWorker =
  | { readonly type: 'start'; readonly params: NetworkParams; readonly p2pUrl: string; readonly fromGenesis?: boolean }
  | { readonly type: 'retry' }
  | { readonly type: 'close' };

export type FromLightWorker =
  /**
   * Blocks verified since the last message, then the selected tip. `reset` starts the mirror over first: the chain
   * was opened (what the store held) or joined at a pruning point; its `joinedAt` is the point's id, null from
   * genesis. The first message is always a reset.
   */
  | {
      readonly type: 'blocks';
      readonly reset?: { readonly genesis: MirrorBlock; readonly joinedAt: BlockId | null };
      readonly blocks: readonly MirrorBlock[];
      readonly tip: BlockId;
    }
  | { readonly type: 'status'; readonly status: LightNodeStatus }
  /** The node could not start (its modules, its store): the page's startLightNode rejects with this. */
  | { readonly type: 'failed'; readonly message: string };
