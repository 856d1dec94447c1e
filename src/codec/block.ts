/**
 * Blocks: a header and the canonical bytes of each transaction (the transaction codec parses those; this layer only
 * frames and bounds them), plus the transaction merkle root that headers commit to.
 *
 * Encoding: header | tx count (LEB128, ≤ blockTxCountMax) | per tx: length (LEB128, 1..txBytesMax) and bytes.
 * The whole encoding is at most blockBytesMax.
 *
 * Merkle root (docs/consensus.md "Merkle root"): RFC 6962 §2.1 with BLAKE3 — leaf = BLAKE3(0x00 || leafHash),
 * node = BLAKE3(0x01 || left || right), and an odd node at the end of a level is promoted unchanged (never paired
 * with itself), which gives RFC 6962's unbalanced tree. The prefixes keep a leaf from posing as a node, and the
 * promotion keeps [a, b, c] and [a, b, c, c] apart (the Bitcoin duplication flaw, CVE-2012-2459).
 */
import { blake3 } from '../crypto/blake3.ts';
import { DecodeError } from '../errors.ts';
import { blockBytesMax, blockTxCountMax, headerBytesMax, txBytesMax } from '../limits.ts';
import { createByteReader } from './bytes-reader.ts';
import { createByteWriter, EncodeError } from './bytes-writer.ts';
import { readHeader, writeHeader, type BlockHeader } from './header.ts';

export interface Block {
  header: BlockHeader;
  /** Each transaction's canonical encoded bytes. */
  transactions: readonly Uint8Array[];
}

const merkleLeafPrefix = 0x00;
const merkleNodePrefix = 0x01;
const merkleHashBytes = 32;

/** The root of an empty list: BLAKE3 of the empty string, as RFC 6962 defines MTH({}) = HASH(). */
export const emptyMerkleRoot: Uint8Array = blake3(new Uint8Array(0));

export function encodeBlock(block: Block): Uint8Array {
  const txs = block.transactions;
  if (txs.length > blockTxCountMax) {
    throw new EncodeError(`block.transactions: expected at most ${blockTxCountMax}, got ${txs.length}`);
  }
  let size = headerBytesMax + 5;
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

function hashLeaf(leaf: Uint8Array): Uint8Array {
  const input = new Uint8Array(1 + merkleHashBytes);
  input[0] = merkleLeafPrefix;
  input.set(leaf, 1);
  return blake3(input);
}

function hashNode(left: Uint8Array, right: Uint8Array): Uint8Array {
  const input = new Uint8Array(1 + 2 * merkleHashBytes);
  input[0] = merkleNodePrefix;
  input.set(left, 1);
  input.set(right, 1 + merkleHashBytes);
  return blake3(input);
}

/** Merkle root over 32-byte leaf hashes (RFC 6962 shape, BLAKE3, leaf/node prefixes). */
export function merkleRoot(leaves: readonly Uint8Array[]): Uint8Array {
  if (leaves.length === 0) return emptyMerkleRoot.slice();
  let level: Uint8Array[] = leaves.map((leaf, i) => {
    if (leaf.length !== merkleHashBytes) {
      throw new EncodeError(`merkle leaf ${i}: expected ${merkleHashBytes} bytes, got ${leaf.length}`);
    }
    return hashLeaf(leaf);
  });
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i + 1 < level.length; i += 2) next.push(hashNode(level[i]!, level[i + 1]!));
    // An odd last node moves up unchanged: the same tree as RFC 6962's split at the largest power of two.
    if (level.length % 2 === 1) next.push(level[level.length - 1]!);
    level = next;
  }
  return level[0]!;
}

/** The header's txRoot for these transactions: the merkle root of BLAKE3 of each transaction's bytes. */
export function transactionsRoot(block: Pick<Block, 'transactions'>): Uint8Array {
  return merkleRoot(block.transactions.map((tx) => blake3(tx)));
}
