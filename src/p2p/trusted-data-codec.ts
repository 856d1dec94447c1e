/**
 * The wire form of trusted data (docs/pruning-proof.md "Serving and joining"; src/chain/trusted-data.ts): the blocks a
 * chain joining at a pruning point starts from, sent in pages like the proof (`trusteddata`).
 *
 *   pruningPoint 32 ‖ block count varint (1..p2pTrustedDataBlocksMax) ‖ per block:
 *     kind u8 (0: header only, the header codec; 1: with its body, a varint-length block in the block codec)
 *     ‖ height varint ‖ selected parent: u8 0, or u8 1 ‖ 32 bytes
 *     ‖ mergeset blues: count varint ‖ 32 each ‖ mergeset reds: likewise
 *     ‖ blue anticone sizes: count varint ‖ (32 ‖ size varint) each, in the sender's map order
 *   ‖ state record: u8 0, or u8 1 ‖ varint-length bytes (≤ p2pTrustedStateRecordBytesMax)
 *
 * A block's blue score and blue work are its header's (its PoW commits to them), so they are not sent twice. Flags
 * are 0 or 1, varints minimal, no id twice in an anticone map: one set, one encoding. Whether the set holds is
 * src/chain/trusted-check.ts's question; this only bounds and decodes it.
 */
import { decodeBlock, encodeBlock } from '../codec/block.ts';
import { createByteReader, type ByteReader } from '../codec/bytes-reader.ts';
import { createByteWriter, type ByteWriter } from '../codec/bytes-writer.ts';
import { hashBytes, readHeader, writeHeader } from '../codec/header.ts';
import type { BlockId, TrustedGhostdagData } from '../consensus/ghostdag.ts';
import { DecodeError } from '../errors.ts';
import { blockBytesMax } from '../limits.ts';
import type { TrustedBlock, TrustedData } from '../chain/trusted-data.ts';
import { fromHex, toHex } from '../util/bytes.ts';
import { p2pTrustedDataBlocksMax, p2pTrustedDataBytesMax, p2pTrustedMergesetIdsMax, p2pTrustedStateRecordBytesMax } from './limits.ts';
import { MessageOverCapError } from './protocol-errors.ts';

function capped(value: number, max: number, what: string): number {
  if (value > max) throw new MessageOverCapError(what, value, max);
  return value;
}

function writeIds(w: ByteWriter, ids: readonly BlockId[], what: string): void {
  w.varint(capped(ids.length, p2pTrustedMergesetIdsMax, what), p2pTrustedMergesetIdsMax, what);
  for (const id of ids) w.bytes(fromHex(id), hashBytes, what);
}

function readIds(r: ByteReader, what: string): BlockId[] {
  const count = capped(r.varint(Number.MAX_SAFE_INTEGER, what), p2pTrustedMergesetIdsMax, what);
  const ids: BlockId[] = [];
  for (let i = 0; i < count; i++) ids.push(toHex(r.bytes(hashBytes, what)));
  return ids;
}

function readFlag(r: ByteReader, what: string): boolean {
  const flag = r.u8(what);
  if (flag > 1) throw new DecodeError(`${what}: expected 0 or 1, got ${flag}`);
  return flag === 1;
}

function writeBlock(w: ByteWriter, block: TrustedBlock): void {
  if (block.transactions === undefined) {
    w.u8(0, 'trusted block kind');
    writeHeader(w, block.header);
  } else {
    w.u8(1, 'trusted block kind');
    w.lengthPrefixed(encodeBlock({ header: block.header, transactions: block.transactions }), blockBytesMax, 'trusted block');
  }
  const g = block.ghostdag;
  w.varint(block.height, Number.MAX_SAFE_INTEGER, 'trusted block height');
  if (g.selectedParent === null) w.u8(0, 'selected parent flag');
  else {
    w.u8(1, 'selected parent flag');
    w.bytes(fromHex(g.selectedParent), hashBytes, 'selected parent');
  }
  writeIds(w, g.mergesetBlues, 'mergeset blues');
  writeIds(w, g.mergesetReds, 'mergeset reds');
  w.varint(capped(g.bluesAnticoneSizes.size, p2pTrustedMergesetIdsMax, 'blue anticone sizes'), p2pTrustedMergesetIdsMax, 'blue anticone sizes');
  for (const [id, size] of g.bluesAnticoneSizes) {
    w.bytes(fromHex(id), hashBytes, 'blue anticone id');
    w.varint(size, Number.MAX_SAFE_INTEGER, 'blue anticone size');
  }
}

function readBlock(r: ByteReader, at: number): TrustedBlock {
  const withBody = readFlag(r, `trusted block ${at} kind`);
  const body = withBody ? decodeBlock(r.lengthPrefixed(blockBytesMax, `trusted block ${at}`)) : undefined;
  const header = body?.header ?? readHeader(r);
  const height = r.varint(Number.MAX_SAFE_INTEGER, 'trusted block height');
  const selectedParent = readFlag(r, 'selected parent flag') ? toHex(r.bytes(hashBytes, 'selected parent')) : null;
  const mergesetBlues = readIds(r, 'mergeset blues');
  const mergesetReds = readIds(r, 'mergeset reds');
  const sizes = capped(r.varint(Number.MAX_SAFE_INTEGER, 'blue anticone sizes'), p2pTrustedMergesetIdsMax, 'blue anticone sizes');
  const bluesAnticoneSizes = new Map<BlockId, number>();
  for (let i = 0; i < sizes; i++) {
    const id = toHex(r.bytes(hashBytes, 'blue anticone id'));
    if (bluesAnticoneSizes.has(id)) throw new DecodeError(`trusted block ${at}: blue anticone size of ${id} given twice`);
    bluesAnticoneSizes.set(id, r.varint(Number.MAX_SAFE_INTEGER, 'blue anticone size'));
  }
  const ghostdag: TrustedGhostdagData = { selectedParent, blueScore: header.blueScore, blueWork: header.blueWork, mergesetBlues, mergesetReds, bluesAnticoneSizes };
  return { header, height, ghostdag, ...(body ? { transactions: body.transactions } : {}) };
}

/** Throws MessageOverCapError when the set is over a wire bound (the server then answers `notfound`). */
export function encodeTrustedData(data: TrustedData): Uint8Array {
  const count = capped(data.blocks.length, p2pTrustedDataBlocksMax, 'trusted blocks');
  const w = createByteWriter(64 * 1024);
  w.bytes(data.pruningPoint, hashBytes, 'pruningPoint');
  w.varint(count, p2pTrustedDataBlocksMax, 'trusted block count');
  for (const block of data.blocks) writeBlock(w, block);
  if (data.stateRecord === undefined) w.u8(0, 'state record flag');
  else {
    w.u8(1, 'state record flag');
    w.lengthPrefixed(data.stateRecord, p2pTrustedStateRecordBytesMax, 'state record');
  }
  const bytes = w.finish();
  capped(bytes.length, p2pTrustedDataBytesMax, 'trusted data bytes');
  return bytes;
}

/** Decodes trusted data assembled from its pages; DecodeError or MessageOverCapError, the sender's fault either way. */
export function decodeTrustedData(bytes: Uint8Array): TrustedData {
  capped(bytes.length, p2pTrustedDataBytesMax, 'trusted data bytes');
  const r = createByteReader(bytes);
  const pruningPoint = r.bytes(hashBytes, 'pruningPoint');
  const count = capped(r.varint(Number.MAX_SAFE_INTEGER, 'trusted block count'), p2pTrustedDataBlocksMax, 'trusted blocks');
  if (count === 0) throw new DecodeError('trusted data: expected at least one block, got 0');
  const blocks: TrustedBlock[] = [];
  for (let at = 0; at < count; at++) blocks.push(readBlock(r, at));
  const stateRecord = readFlag(r, 'state record flag') ? r.lengthPrefixed(p2pTrustedStateRecordBytesMax, 'state record') : undefined;
  r.end('trusted data');
  return { pruningPoint, blocks, ...(stateRecord ? { stateRecord } : {}) };
}
