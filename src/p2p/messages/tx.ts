/**
 * `tx` (0x0E), one transaction, and `stemtx` (0x10), one on its Dandelion++ stem (src/p2p/dandelion.ts): admitted,
 * then forwarded with `hops` left, or fluffed at 0 (docs/p2p.md "Dandelion++ (`mixnet_hops`)").
 */
import { AssertionError, DecodeError } from '../../errors.ts';
import { txBytesMax } from '../../limits.ts';
import { stemHopsMax } from '../dandelion.ts';
import type { MessageCodec } from './message-codec.ts';

export const txCodec: MessageCodec<{ readonly type: 'tx'; readonly tx: Uint8Array }> = {
  type: 'tx',
  code: 0x0e,
  payloadBytesMax: txBytesMax + 8,
  write: (w, m) => w.lengthPrefixed(m.tx, txBytesMax, 'tx'),
  read: (r) => ({ type: 'tx', tx: r.lengthPrefixed(txBytesMax, 'tx') }),
};

export const stemtxCodec: MessageCodec<{ readonly type: 'stemtx'; readonly hops: number; readonly tx: Uint8Array }> = {
  type: 'stemtx',
  code: 0x10,
  payloadBytesMax: 1 + txBytesMax + 8,
  write(w, m) {
    if (!Number.isInteger(m.hops) || m.hops < 0 || m.hops > stemHopsMax) throw new AssertionError(`stemtx hops: expected 0–${stemHopsMax}, got ${m.hops}`);
    w.u8(m.hops, 'stemtx hops');
    w.lengthPrefixed(m.tx, txBytesMax, 'stemtx');
  },
  read(r) {
    const hops = r.u8('stemtx hops');
    if (hops > stemHopsMax) throw new DecodeError(`stemtx hops: expected at most ${stemHopsMax}, got ${hops}`);
    return { type: 'stemtx', hops, tx: r.lengthPrefixed(txBytesMax, 'stemtx') };
  },
};
