/**
 * Blocks: a header and the canonical bytes of each transaction (the transaction codec parses those; this layer only
 * frames and bounds them), plus the transaction merkle root that headers commit to (the tree is src/codec/merkle.ts).
 *
 * Encoding: header | tx count (LEB128, ≤ blockTxCountMax) | per tx: length (LEB128, 1..txBytesMax) and bytes.
 * The whole encoding is at most blockBytesMax.
 */
import { blake3 } from '../crypto/blake3.ts';
import { DecodeError } from '../errors.ts';
import { blockBytesMax, blockTxCountMax, headerV1BytesMax, txBytesMax } from '../limits.ts';
import { createByteReader } from './bytes-reader.ts';
import { createByteWriter, EncodeError } from './bytes-writer.ts';
import { encodeHeader, readHeader, writeHeader, type BlockHeader } from './header.ts';
import { merkleRoot } from './merkle.ts';

export interface Block {
  header: BlockHeader;
  /** Each transaction's canonical encoded bytes. */
  transactions: readonly Uint8Array[];
}

/** LEB128 length of `n` (n < 2^35), as the byte writer encodes it. */
function varintBytes(n: number): number {
  return n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5;
}

/**
 * The bytes one transaction of `txLength` bytes takes in a block: its length prefix and itself. Block validation's
 * size rule and template selection's byte budget both count with this, so a template never outgrows the rule.
 */
export function blockTxBytes(txLength: number): number {
  return varintBytes(txLength) + txLength;
}

/** The encoded size of a block, without encoding it. */
export function blockEncodedBytes(block: Block): number {
  let bytes = encodeHeader(block.header).length + varintBytes(block.transactions.length);
  for (const tx of block.transactions) bytes += blockTxBytes(tx.length);
  return bytes;
}

export function encodeBlock(block: Block): Uint8Array {
  const txs = block.transactions;
  if (txs.length > blockTxCountMax) {
    throw new EncodeError(`block.transactions: expected at most ${blockTxCountMax}, got ${txs.length}`);
  }
  // A first guess (the writer grows): a version 2 header's runs rarely add more than a few hundred bytes.
  let size = headerV1BytesMax + 1024 + 5;
  for (const tx of txs) size += tx.length + 3;
  const w = createByteWriter(Math.min(size, blockBytesMax));
  writeHeader(w, block.header);
  w.varint(txs.length, blockTxCountMax, 'block.transactions count');
  for (const tx of txs) {
    if (tx.length === 0) throw new EncodeError('block.transactions: expected non-empty transaction bytes, got 0 bytes');
    w.lengthPrefixed(tx, txBytesMax, 'block.transaction');
  }
  if (w.length > blockBytesMax) {
    throw new EncodeError(`block: expected at most ${blockBytesMax} bytes, got ${w.length}`);
  }
  return w.finish();
}

/** Decodes exactly one block: size, count and every transaction length are bounded before anything is allocated. */
export function decodeBlock(bytes: Uint8Array): Block {
  if (bytes.length > blockBytesMax) {
    throw new DecodeError(`block: expected at most ${blockBytesMax} bytes, got ${bytes.length}`);
  }
  const r = createByteReader(bytes);
  const header = readHeader(r);
  const count = r.varint(blockTxCountMax, 'block.transactions count');
  const transactions: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const tx = r.lengthPrefixed(txBytesMax, `block.transactions[${i}]`);
    if (tx.length === 0) throw new DecodeError(`block.transactions[${i}]: expected non-empty bytes, got 0 bytes`);
    transactions.push(tx);
  }
  r.end('block');
  return { header, transactions };
}

/** The header's txRoot for these transactions: the merkle root of BLAKE3 of each transaction's bytes. */
export function transactionsRoot(block: Pick<Block, 'transactions'>): Uint8Array {
  return merkleRoot(block.transactions.map((tx) => blake3(tx)));
}
