/**
 * `prefilledblock` (0x1a): a compact block that carries, beside every short id, the transactions its sender does
 * not know its receiver to hold (BIP 152's prefilled transactions, chosen per peer). `cmpctblock` alone makes a
 * receiver that lacks some of a block's transactions ask for them (`getblocktxn`, a round trip a hop); under load a
 * miner's block routinely carries transactions that are still three one-way delays (inv → getdata → tx) from the
 * far side of the network, so each hop paid that round trip. The sender knows which transactions went to or came
 * from each peer (its inventory-known set), and sends those the peer lacks with the block: one one-way delay a hop
 * again, for bytes the receiver would have fetched anyway.
 *
 * Sent only to peers with the `prefilledBlocks` service bit; others get `cmpctblock`. The prefilled transactions are
 * positions of the block (strictly increasing indexes below the short-id count); the header's transaction root
 * still decides whether the rebuilt block is the block, as for `cmpctblock`.
 */
import { readHeader, writeHeader } from '../../codec/header.ts';
import { DecodeError } from '../../errors.ts';
import { blockBytesMax, blockTxCountMax, headerBytesMax, txBytesMax } from '../../limits.ts';
import { readCappedCount } from '../capped-count.ts';
import { compactNonceBytes, shortIdBytes, shortIdCount, type CompactBlockMessage } from './compact-block.ts';
import { largeMessageWriterBytes, type MessageCodec } from './message-codec.ts';

/** The most bytes a LEB128 count or index below 2^35 takes. */
const countBytesMax = 5;

/** One transaction sent with the block: its position in the block and its bytes. */
export interface PrefilledTransaction {
  readonly index: number;
  readonly tx: Uint8Array;
}

export interface PrefilledBlockMessage extends Omit<CompactBlockMessage, 'type'> {
  readonly type: 'prefilledblock';
  /** Strictly increasing positions, each below the short-id count. */
  readonly prefilled: readonly PrefilledTransaction[];
}

export const prefilledblockCodec: MessageCodec<PrefilledBlockMessage> = {
  type: 'prefilledblock',
  code: 0x1a,
  payloadBytesMax: headerBytesMax + compactNonceBytes + 2 * countBytesMax + blockTxCountMax * (shortIdBytes + 2 * countBytesMax) + blockBytesMax,
  writerBytes: largeMessageWriterBytes,
  write(w, m) {
    writeHeader(w, m.header);
    w.bytes(m.nonce, compactNonceBytes, 'prefilledblock nonce');
    if (m.shortIds.length % shortIdBytes !== 0) throw new DecodeError(`prefilledblock short ids: ${m.shortIds.length} bytes, not a multiple of ${shortIdBytes}`);
    const count = shortIdCount(m.shortIds);
    w.varint(count, blockTxCountMax, 'prefilledblock count');
    w.bytes(m.shortIds, m.shortIds.length, 'prefilledblock short ids');
    w.varint(m.prefilled.length, count, 'prefilledblock prefilled count');
    let previous = -1;
    for (const { index, tx } of m.prefilled) {
      if (index <= previous || index >= count) throw new DecodeError(`prefilledblock index ${index}: expected above ${previous} and below ${count}`);
      previous = index;
      w.varint(index, blockTxCountMax - 1, 'prefilledblock index');
      w.lengthPrefixed(tx, txBytesMax, 'prefilledblock transaction');
    }
  },
  read(r) {
    const header = readHeader(r);
    const nonce = r.bytes(compactNonceBytes, 'prefilledblock nonce');
    const count = readCappedCount(r, blockTxCountMax, 'prefilledblock count');
    const shortIds = r.bytes(count * shortIdBytes, 'prefilledblock short ids');
    const prefilledCount = readCappedCount(r, count, 'prefilledblock prefilled count');
    const prefilled: PrefilledTransaction[] = [];
    for (let i = 0; i < prefilledCount; i++) {
      const index = r.varint(blockTxCountMax - 1, 'prefilledblock index');
      // Strictly increasing and inside the block: one encoding, no position sent twice.
      const previous = i > 0 ? prefilled[i - 1]!.index : -1;
      if (index <= previous || index >= count) throw new DecodeError(`prefilledblock index ${index}: expected above ${previous} and below ${count}`);
      const tx = r.lengthPrefixed(txBytesMax, `prefilledblock transactions[${i}]`);
      if (tx.length === 0) throw new DecodeError(`prefilledblock transactions[${i}]: expected non-empty bytes, got 0 bytes`);
      prefilled.push({ index, tx });
    }
    return { type: 'prefilledblock', header, nonce, shortIds, prefilled };
  },
};
