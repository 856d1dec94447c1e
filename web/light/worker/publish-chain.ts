/**
 * A LightChain that tells the page what it verified: the same chain, with every header it indexes and every join
 * sent to the page's mirror (chain-mirror.ts) as `blocks` messages, parents before children, in slices small enough
 * that the page takes each one without a long task.
 */
import type { IndexedBlock } from '../../../src/chain/block-index.ts';
import { encodeHeader } from '../../../src/codec/header.ts';
import { blockHash } from '../../../src/consensus/pow.ts';
import type { LightChain } from '../../../src/light/light-chain.ts';
import { toHex } from '../../../src/util/bytes.ts';
import type { FromLightWorker, MirrorBlock } from './protocol.ts';

/** Blocks per message: a 2,000-header page arrives in four, each cloned and indexed in a few ms. */
const mirrorSliceBlocks = 500;

function mirrorBlockOf(chain: LightChain, block: IndexedBlock): MirrorBlock {
  const { id, hash, header, height, seq } = block;
  const { selectedParent = null, mergesetBlues = [], mergesetReds = [] } = chain.mergeset(id) ?? {};
  return { id, hash, headerBytes: encodeHeader(header), selectedParent: block.selectedParent?.id ?? null, height, seq, mergeset: { selectedParent, mergesetBlues, mergesetReds } };
}

function post(chain: LightChain, send: (message: FromLightWorker) => void, blocks: readonly IndexedBlock[], reset: boolean): void {
  const tip = chain.selectedTip().id;
  for (let at = 0; at === 0 || at < blocks.length; at += mirrorSliceBlocks) {
    const slice = blocks.slice(at, at + mirrorSliceBlocks).map((b) => mirrorBlockOf(chain, b));
    const first = reset && at === 0 ? { reset: { genesis: mirrorBlockOf(chain, chain.genesis), joinedAt: chain.joinedAt()?.id ?? null } } : {};
    send({ type: 'blocks', ...first, blocks: slice, tip });
  }
}

/** Sends the whole chain (a reset) now, and from then on what `addHeaders` and `join` change. */
export function publishingChain(chain: LightChain, send: (message: FromLightWorker) => void): LightChain {
  // The highest seq the mirror has; a join starts seqs over, and sends everything again.
  let sentSeq = 0;
  const sendAll = (): void => {
    const blocks = [...chain.blocks()];
    sentSeq = blocks.reduce((max, b) => Math.max(max, b.seq), 0);
    post(chain, send, blocks, true);
  };
  const sendAdded = (headers: Parameters<LightChain['addHeaders']>[0]): void => {
    const added: IndexedBlock[] = [];
    for (const header of headers) {
      const block = chain.get(toHex(blockHash(header)));
      if (block !== undefined && block.seq > sentSeq) added.push(block);
    }
    if (added.length === 0) return;
    sentSeq = added.at(-1)!.seq;
    post(chain, send, added, false);
  };
  sendAll();
  // Every other member (the engine's getter included) reads through to the chain itself.
  return Object.create(chain, {
    addHeaders: {
      value: (headers: Parameters<LightChain['addHeaders']>[0]) => {
        // The headers before a bad one stay verified (LightChain.addHeaders), so they are sent either way.
        try {
          return chain.addHeaders(headers);
        } finally {
          sendAdded(headers);
        }
      },
    },
    join: {
      value: async (checked: Parameters<LightChain['join']>[0]) => {
        await chain.join(checked);
        sendAll();
      },
    },
  }) as LightChain;
}
