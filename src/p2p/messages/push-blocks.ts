/**
 * `pushblocks` (0x1d): how a peer wants to hear of our new blocks (BIP 152's `sendcmpct` high-bandwidth flag).
 * `push: true`, a connection's default: each new block is pushed to it as a compact block as soon as we have
 * validated it. `false`: it is announced with `inv`, and the peer asks for the compact form (`getdata` of kind
 * `compactBlock`) if it still lacks the block. A node keeps pushes from the few peers that brought it new blocks first
 * most lately and declines the rest (docs/p2p.md "Compact blocks"), so it is sent each block that many times,
 * whatever its degree. Sent only to peers with the `pushSelection` service bit.
 */
import { DecodeError } from '../../errors.ts';
import type { MessageCodec } from './message-codec.ts';

export const pushblocksCodec: MessageCodec<{ readonly type: 'pushblocks'; readonly push: boolean }> = {
  type: 'pushblocks',
  code: 0x1d,
  payloadBytesMax: 1,
  write: (w, m) => w.u8(m.push ? 1 : 0, 'pushblocks flag'),
  read(r) {
    const flag = r.u8('pushblocks flag');
    if (flag > 1) throw new DecodeError(`pushblocks: flag ${flag}, expected 0 or 1`);
    return { type: 'pushblocks', push: flag === 1 };
  },
};
