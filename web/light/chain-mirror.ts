/**
 * The page's copy of the header chain its light node's Worker verified (worker/light-worker.ts): the same read
 * answers as a LightChain (LightChainView), built from the blocks the Worker sends. Nothing here verifies: the
 * Worker is this page's own code, and a block reaches the mirror only after it passed every header check there.
 * Pages read it synchronously (a proof's block, a DAG colouring), so it lives on the main thread; a block's header
 * is decoded when a page first reads it.
 */
import { skipPointer, type IndexedBlock } from '../../src/chain/block-index.ts';
import { decodeHeader, type BlockHeader } from '../../src/codec/header.ts';
import type { BlockId } from '../../src/consensus/ghostdag.ts';
import type { NetworkParams } from '../../src/consensus/params.ts';
import { moveChainTo } from '../../src/light/chain/move-chain.ts';
import type { LightChainView, LightMergeset } from '../../src/light/light-chain.ts';
import type { FromLightWorker, MirrorBlock } from './worker/protocol.ts';

export interface ChainMirror extends LightChainView {
  /** Takes one `blocks` message from the Worker (the first is a reset: until then the mirror is empty). */
  apply(message: Extract<FromLightWorker, { type: 'blocks' }>): void;
}

interface MirrorGraph {
  readonly genesis: IndexedBlock;
  readonly index: Map<BlockId, IndexedBlock>;
  readonly mergesets: Map<BlockId, LightMergeset>;
  readonly chainIds: BlockId[];
  tip: IndexedBlock;
  joinedAt: IndexedBlock | undefined;
}

function indexedBlockOf(block: MirrorBlock, selectedParent: IndexedBlock | null): IndexedBlock {
  const { id, hash, headerBytes, height, seq } = block;
  // A joined chain's lowest trusted blocks have their selected parent below the set: their chain starts there.
  const skip = skipPointer(selectedParent, height);
  let header: BlockHeader | undefined;
  return {
    id, hash, selectedParent, height, skip, seq,
    get header() {
      return (header ??= decodeHeader(headerBytes));
    },
  };
}

function insert(graph: MirrorGraph, block: MirrorBlock): void {
  const selectedParent = block.selectedParent === null ? null : (graph.index.get(block.selectedParent) ?? null);
  graph.index.set(block.id, indexedBlockOf(block, selectedParent));
  graph.mergesets.set(block.id, block.mergeset);
}

export function createChainMirror(params: NetworkParams): ChainMirror {
  let graph: MirrorGraph | undefined;
  const ready = (): MirrorGraph => {
    if (graph === undefined) throw new Error('the light node has not sent its chain yet');
    return graph;
  };
  return {
    params,
    get genesis() {
      return ready().genesis;
    },
    apply(message) {
      if (message.reset) {
        const genesis = indexedBlockOf(message.reset.genesis, null);
        graph = { genesis, index: new Map(), mergesets: new Map(), chainIds: [], tip: genesis, joinedAt: undefined };
      }
      const g = ready();
      for (const block of message.blocks) insert(g, block);
      if (message.reset?.joinedAt) g.joinedAt = g.index.get(message.reset.joinedAt);
      const tip = g.index.get(message.tip);
      if (tip !== undefined && (message.reset || tip !== g.tip)) moveChainTo(g, tip);
    },
    has: (id) => graph?.index.has(id) ?? false,
    get: (id) => graph?.index.get(id),
    selectedTip: () => ready().tip,
    blockAtHeight(height) {
      const id = graph?.chainIds[height];
      return id === undefined ? undefined : graph!.index.get(id);
    },
    count: () => graph?.index.size ?? 0,
    joinedAt: () => graph?.joinedAt,
    mergeset: (id) => graph?.mergesets.get(id),
  };
}
