/**
 * The inventory messages: `inv` (0x07) announces blocks and transactions, `getdata` (0x08) asks for them, `notfound`
 * (0x09) says which asked-for items the sender does not hold (docs/p2p.md "Relay").
 */
import { hashBytes } from '../../codec/header.ts';
import { DecodeError } from '../../errors.ts';
import { readCappedCount } from '../capped-count.ts';
import { p2pInvItemsMax } from '../limits.ts';
import type { MessageCodec } from './message-codec.ts';

/**
 * Inventory kinds. `stateRoot`, `pruningProof` and `trustedData` appear only in `notfound`: the answer of a node that
 * does not hold the state root asked for in `getsnapshotchunk`, or has no proof (trusted data) of that pruning point
 * for `getpruningproof` (`gettrusteddata`). `compactBlock` appears only in `getdata`, asked of a peer with the
 * `pushSelection` service bit: the block's compact form, as a push would carry it (push-blocks.ts); a node that lacks
 * the block answers `notfound` of kind `block`.
 */
export const InvType = { tx: 1, block: 2, stateRoot: 3, pruningProof: 4, trustedData: 5, compactBlock: 6 } as const;
export type InvType = (typeof InvType)[keyof typeof InvType];

export interface InvItem {
  readonly kind: InvType;
  readonly hash: Uint8Array;
}

type InventoryName = 'inv' | 'getdata' | 'notfound';

function inventoryCodec<T extends InventoryName>(type: T, code: number): MessageCodec<{ readonly type: T; readonly items: readonly InvItem[] }> {
  const kindMax = type === 'notfound' ? InvType.trustedData : InvType.block;
  const allowed = (kind: number): boolean => (kind >= InvType.tx && kind <= kindMax) || (type === 'getdata' && kind === InvType.compactBlock);
  // The field names of its errors, made once instead of per item.
  const what = { count: `${type} count`, kind: `${type} kind`, hash: `${type} hash` };
  return {
    type,
    code,
    payloadBytesMax: 8 + p2pInvItemsMax * (1 + hashBytes),
    write(w, m) {
      w.varint(m.items.length, p2pInvItemsMax, 'inv count');
      for (const item of m.items) {
        w.u8(item.kind, 'inv kind');
        w.bytes(item.hash, hashBytes, 'inv hash');
      }
    },
    read(r) {
      const count = readCappedCount(r, p2pInvItemsMax, what.count);
      const items: InvItem[] = [];
      for (let i = 0; i < count; i++) {
        const kind = r.u8(what.kind);
        if (!allowed(kind)) throw new DecodeError(`${type}[${i}]: unknown inventory kind ${kind}`);
        items.push({ kind: kind as InvType, hash: r.bytes(hashBytes, what.hash) });
      }
      return { type, items };
    },
  };
}

export const invCodec = inventoryCodec('inv', 0x07);
export const getdataCodec = inventoryCodec('getdata', 0x08);
export const notfoundCodec = inventoryCodec('notfound', 0x09);
