/**
 * The short transaction inventory: `txinv` (0x1b) announces transactions and `gettx` (0x1c) asks for them, each by
 * the first 8 bytes of its id instead of `inv` / `getdata`'s kind byte and 32-byte hash (docs/p2p.md "Relay").
 * Announcements are most of relay's bytes past the transactions themselves: every node hears of each transaction
 * from most of its peers, so a 33-byte item a peer was ~95 bytes a transaction a node in the lab; 8 bytes make it ~25.
 *
 * The short id is the id's prefix, unsalted. Two transactions sharing one cost their maker ~2^32 hashes; the
 * collision only hides the second from a node already holding the first, and only on short-inventory links (it
 * still travels by `inv`, by a block's own salted short ids and `getblocktxn`). Matching a given honest
 * transaction's prefix is a second preimage, ~2^64 hashes. Sent only to peers with the `shortTxInv` service bit.
 */
import { DecodeError } from '../../errors.ts';
import { readCappedCount } from '../capped-count.ts';
import { p2pInvItemsMax } from '../limits.ts';
import type { MessageCodec } from './message-codec.ts';

/** Bytes of a transaction's short inventory id: its id's prefix. */
export const txShortIdBytes = 8;

/** A transaction's short inventory id as a map key: the first 16 hex digits of its id (hex). */
export function txShortKey(idHex: string): string {
  return idHex.slice(0, 2 * txShortIdBytes);
}

type TxInventoryName = 'txinv' | 'gettx';

/** `shortIds`: the ids' prefixes back to back, `txShortIdBytes` each, at most p2pInvItemsMax of them. */
function txInventoryCodec<T extends TxInventoryName>(type: T, code: number): MessageCodec<{ readonly type: T; readonly shortIds: Uint8Array }> {
  const what = { count: `${type} count`, ids: `${type} short ids` };
  return {
    type,
    code,
    payloadBytesMax: 8 + p2pInvItemsMax * txShortIdBytes,
    write(w, m) {
      if (m.shortIds.length % txShortIdBytes !== 0) throw new DecodeError(`${type}: ${m.shortIds.length} bytes of short ids, not a multiple of ${txShortIdBytes}`);
      const count = m.shortIds.length / txShortIdBytes;
      if (count === 0) throw new DecodeError(`${type}: expected at least one short id`);
      w.varint(count, p2pInvItemsMax, what.count);
      w.bytes(m.shortIds, m.shortIds.length, what.ids);
    },
    read(r) {
      const count = readCappedCount(r, p2pInvItemsMax, what.count);
      if (count === 0) throw new DecodeError(`${type}: expected at least one short id`);
      return { type, shortIds: r.bytes(count * txShortIdBytes, what.ids) };
    },
  };
}

export const txinvCodec = txInventoryCodec('txinv', 0x1b);
export const gettxCodec = txInventoryCodec('gettx', 0x1c);
