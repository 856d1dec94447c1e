/** `block` (0x0D): one whole block, in the block codec's canonical bytes (docs/p2p.md "Relay"). */
import { decodeBlock, encodeBlock, type Block } from '../../codec/block.ts';
import { blockBytesMax } from '../../limits.ts';
import type { MessageCodec } from './message-codec.ts';

export const blockCodec: MessageCodec<{ readonly type: 'block'; readonly block: Block }> = {
  type: 'block',
  code: 0x0d,
  payloadBytesMax: blockBytesMax,
  write: (w, m) => w.bytes(encodeBlock(m.block)),
  read: (r) => ({ type: 'block', block: decodeBlock(r.bytes(r.remaining, 'block')) }),
};
