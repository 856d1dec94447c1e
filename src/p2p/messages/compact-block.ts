/**
 * Compact block relay's messages (docs/p2p.md "Compact blocks"): `cmpctblock` (0x17) pushes a block, `getblocktxn`
 * (0x18) asks for the transactions its receiver could not rebuild, `blocktxn` (0x19) answers. A block travels as its
 * header and one short id per transaction; the receiver rebuilds it from transactions it already holds and asks for
 * the rest by index (Bitcoin's BIP 152, without prefilled transactions: Weft blocks have no coinbase transaction).
 *
 * A short id is salted per block, as BIP 152 salts with SipHash keyed by header + nonce: the first 8 bytes of
 * BLAKE3(key ‖ transaction id), where key = BLAKE3(block hash ‖ the sender's random 8-byte nonce). Nobody knows the
 * key before the block is mined and pushed, so no one can grind two transactions (or a pool transaction and a
 * block's) onto one short id in advance; a chance collision (~n²/2^65) is as rare as BIP 152's. Two transactions may
 * still share one: the receiver then cannot rebuild the block from ids alone, and the rebuilt block's transaction
 * root (which the header commits to) decides — on any doubt or mismatch the full block is fetched instead. A
 * collision costs a round trip, never a wrong block.
 */
import { hashBytes, readHeader, writeHeader, type BlockHeader } from '../../codec/header.ts';
import { blake3 } from '../../crypto/blake3.ts';
import { DecodeError } from '../../errors.ts';
import { blockBytesMax, blockTxCountMax, headerBytesMax, txBytesMax } from '../../limits.ts';
import { readCappedCount } from '../capped-count.ts';
import { largeMessageWriterBytes, type MessageCodec } from './message-codec.ts';

/** Bytes of a short transaction id. */
export const shortIdBytes = 8;
/** Bytes of the sender's salt nonce in `cmpctblock`. */
export const compactNonceBytes = 8;

/**
 * A block pushed to a peer: its header and its transactions' short ids in block order, packed (8 bytes each) so a
 * message of 10,000 ids decodes into one view, not 10,000 objects. `nonce` (8 random bytes of the sender's)
 * salts the short ids with the block hash (`shortIdKey`).
 */
export interface CompactBlockMessage {
  readonly type: 'cmpctblock';
  readonly header: BlockHeader;
  readonly nonce: Uint8Array;
  readonly shortIds: Uint8Array;
}
/** The transactions at `indexes` (strictly increasing, at least one) of the block `hash`, which the asker could not rebuild. */
type GetBlockTxnMessage = { readonly type: 'getblocktxn'; readonly hash: Uint8Array; readonly indexes: readonly number[] };
/** The answer: those transactions' bytes, in the order asked. */
type BlockTxnMessage = { readonly type: 'blocktxn'; readonly hash: Uint8Array; readonly transactions: readonly Uint8Array[] };

/** The most bytes a LEB128 count below 2^35 takes. */
const countBytesMax = 5;

/** The salt of one pushed block's short ids: BLAKE3(block hash ‖ nonce). */
export function shortIdKey(blockHash: Uint8Array, nonce: Uint8Array): Uint8Array {
  const input = new Uint8Array(hashBytes + compactNonceBytes);
  input.set(blockHash);
  input.set(nonce, hashBytes);
  return blake3(input);
}

/**
 * The short id of a transaction id under a block's key: BLAKE3(key ‖ id)'s first 8 bytes. One 64-byte hash (the
 * node's Wasm BLAKE3 takes it, ~2 µs), so salting a pool of n transactions for a pushed block costs n hashes.
 */
export function shortIdOf(key: Uint8Array, txId: Uint8Array): Uint8Array {
  const input = new Uint8Array(64);
  input.set(key);
  input.set(txId, 32);
  return blake3(input).subarray(0, shortIdBytes);
}

/** How many short ids a packed run holds. */
export function shortIdCount(shortIds: Uint8Array): number {
  return shortIds.length / shortIdBytes;
}

/** The i-th short id of a packed run. */
export function shortIdAt(shortIds: Uint8Array, i: number): Uint8Array {
  return shortIds.subarray(i * shortIdBytes, (i + 1) * shortIdBytes);
}

export const cmpctblockCodec: MessageCodec<CompactBlockMessage> = {
  type: 'cmpctblock',
  code: 0x17,
  payloadBytesMax: headerBytesMax + compactNonceBytes + countBytesMax + blockTxCountMax * shortIdBytes,
  writerBytes: largeMessageWriterBytes,
  write(w, m) {
    writeHeader(w, m.header);
    w.bytes(m.nonce, compactNonceBytes, 'cmpctblock nonce');
    if (m.shortIds.length % shortIdBytes !== 0) throw new DecodeError(`cmpctblock short ids: ${m.shortIds.length} bytes, not a multiple of ${shortIdBytes}`);
    w.varint(shortIdCount(m.shortIds), blockTxCountMax, 'cmpctblock count');
    w.bytes(m.shortIds, m.shortIds.length, 'cmpctblock short ids');
  },
  read(r) {
    const header = readHeader(r);
    const nonce = r.bytes(compactNonceBytes, 'cmpctblock nonce');
    const count = readCappedCount(r, blockTxCountMax, 'cmpctblock count');
    return { type: 'cmpctblock', header, nonce, shortIds: r.bytes(count * shortIdBytes, 'cmpctblock short ids') };
  },
};

export const getblocktxnCodec: MessageCodec<GetBlockTxnMessage> = {
  type: 'getblocktxn',
  code: 0x18,
  payloadBytesMax: hashBytes + countBytesMax + blockTxCountMax * countBytesMax,
  write(w, m) {
    w.bytes(m.hash, hashBytes, 'getblocktxn hash');
    if (m.indexes.length === 0) throw new DecodeError('getblocktxn indexes: expected at least one, got none');
    w.varint(m.indexes.length, blockTxCountMax, 'getblocktxn count');
    for (const index of m.indexes) w.varint(index, blockTxCountMax - 1, 'getblocktxn index');
  },
  read(r) {
    const hash = r.bytes(hashBytes, 'getblocktxn hash');
    const count = readCappedCount(r, blockTxCountMax, 'getblocktxn count');
    // An empty request asks for nothing: refused before the block is looked up.
    if (count === 0) throw new DecodeError('getblocktxn indexes: expected at least one, got none');
    const indexes: number[] = [];
    for (let i = 0; i < count; i++) {
      const index = r.varint(blockTxCountMax - 1, 'getblocktxn index');
      // Strictly increasing: one encoding per request, and no index asked twice.
      if (i > 0 && index <= indexes[i - 1]!) throw new DecodeError(`getblocktxn indexes: expected strictly increasing, got ${indexes[i - 1]} then ${index}`);
      indexes.push(index);
    }
    return { type: 'getblocktxn', hash, indexes };
  },
};

export const blocktxnCodec: MessageCodec<BlockTxnMessage> = {
  type: 'blocktxn',
  code: 0x19,
  payloadBytesMax: hashBytes + countBytesMax + blockBytesMax,
  writerBytes: largeMessageWriterBytes,
  write(w, m) {
    w.bytes(m.hash, hashBytes, 'blocktxn hash');
    w.varint(m.transactions.length, blockTxCountMax, 'blocktxn count');
    for (const tx of m.transactions) w.lengthPrefixed(tx, txBytesMax, 'blocktxn transaction');
  },
  read(r) {
    const hash = r.bytes(hashBytes, 'blocktxn hash');
    const count = readCappedCount(r, blockTxCountMax, 'blocktxn count');
    const transactions: Uint8Array[] = [];
    for (let i = 0; i < count; i++) {
      const tx = r.lengthPrefixed(txBytesMax, `blocktxn transactions[${i}]`);
      if (tx.length === 0) throw new DecodeError(`blocktxn transactions[${i}]: expected non-empty bytes, got 0 bytes`);
      transactions.push(tx);
    }
    return { type: 'blocktxn', hash, transactions };
  },
};
