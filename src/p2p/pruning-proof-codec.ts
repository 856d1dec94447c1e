/**
 * The wire form of a pruning-point proof (docs/pruning-proof.md "Serving and joining"): a table of the distinct
 * headers, then per level the indices of its headers in the table. Lower levels usually repeat one another (every
 * level below the lowest level a block of the range reached is the same list), so each header is sent once.
 *
 *   header count varint (≤ p2pPruningProofHeadersMax) ‖ headers (the header codec, src/codec/header.ts)
 *   ‖ level count varint (≤ p2pPruningProofLevelsMax) ‖ per level: count varint (≤ p2pPruningProofLevelHeadersMax)
 *     ‖ indices varint (< header count)
 *
 * Canonical: the table is in order of first use (level 0 first, each list in order), so reading the lists, every
 * index is either one seen before or the next unused one, and every header is used. One proof, one encoding.
 * What the proof *says* is the verifier's business (src/pruning-proof/verify-proof.ts); this only bounds and decodes it.
 */
import { createByteReader } from '../codec/bytes-reader.ts';
import { createByteWriter } from '../codec/bytes-writer.ts';
import { readHeader, writeHeader, type BlockHeader } from '../codec/header.ts';
import { blockHash } from '../consensus/pow.ts';
import { DecodeError } from '../errors.ts';
import { toHex } from '../util/bytes.ts';
import type { PruningProof } from '../pruning-proof/pruning-proof.ts';
import { p2pPruningProofBytesMax, p2pPruningProofHeadersMax, p2pPruningProofLevelHeadersMax, p2pPruningProofLevelsMax } from './limits.ts';
import { MessageOverCapError } from './protocol-errors.ts';

/** The proof's pruning point: the last header of level 0 (its selected tip). */
export function proofPruningPoint(proof: PruningProof): BlockHeader | undefined {
  return proof.levels[0]?.at(-1);
}

export function encodePruningProof(proof: PruningProof): Uint8Array {
  if (proof.levels.length > p2pPruningProofLevelsMax) throw new MessageOverCapError('proof levels', proof.levels.length, p2pPruningProofLevelsMax);
  const indexOf = new Map<string, number>();
  const table: BlockHeader[] = [];
  const lists = proof.levels.map((level) => {
    if (level.length > p2pPruningProofLevelHeadersMax) throw new MessageOverCapError('proof level headers', level.length, p2pPruningProofLevelHeadersMax);
    return level.map((header) => {
      const id = toHex(blockHash(header));
      let index = indexOf.get(id);
      if (index === undefined) {
        index = table.length;
        indexOf.set(id, index);
        table.push(header);
      }
      return index;
    });
  });
  if (table.length > p2pPruningProofHeadersMax) throw new MessageOverCapError('proof headers', table.length, p2pPruningProofHeadersMax);
  const w = createByteWriter(64 * 1024);
  w.varint(table.length, p2pPruningProofHeadersMax, 'proof header count');
  for (const header of table) writeHeader(w, header);
  w.varint(lists.length, p2pPruningProofLevelsMax, 'proof level count');
  for (const list of lists) {
    w.varint(list.length, p2pPruningProofLevelHeadersMax, 'proof level length');
    for (const index of list) w.varint(index, p2pPruningProofHeadersMax - 1, 'proof index');
  }
  const bytes = w.finish();
  if (bytes.length > p2pPruningProofBytesMax) throw new MessageOverCapError('proof bytes', bytes.length, p2pPruningProofBytesMax);
  return bytes;
}

function readBoundedCount(value: number, max: number, what: string): number {
  if (value > max) throw new MessageOverCapError(what, value, max);
  return value;
}

/**
 * Decodes a proof assembled from its pages. Throws MessageOverCapError (a count or the size over its bound) or
 * DecodeError (anything else that does not parse, a non-canonical table): the sender's fault either way.
 */
export function decodePruningProof(bytes: Uint8Array): PruningProof {
  if (bytes.length > p2pPruningProofBytesMax) throw new MessageOverCapError('proof bytes', bytes.length, p2pPruningProofBytesMax);
  const r = createByteReader(bytes);
  const headerCount = readBoundedCount(r.varint(Number.MAX_SAFE_INTEGER, 'proof header count'), p2pPruningProofHeadersMax, 'proof headers');
  const table: BlockHeader[] = [];
  for (let i = 0; i < headerCount; i++) table.push(readHeader(r));
  const levelCount = readBoundedCount(r.varint(Number.MAX_SAFE_INTEGER, 'proof level count'), p2pPruningProofLevelsMax, 'proof levels');
  const levels: BlockHeader[][] = [];
  let used = 0;
  for (let level = 0; level < levelCount; level++) {
    const length = readBoundedCount(r.varint(Number.MAX_SAFE_INTEGER, 'proof level length'), p2pPruningProofLevelHeadersMax, 'proof level headers');
    const list: BlockHeader[] = [];
    for (let i = 0; i < length; i++) {
      const index = r.varint(Number.MAX_SAFE_INTEGER, 'proof index');
      if (index > used || index >= headerCount) {
        throw new DecodeError(`proof level ${level} entry ${i}: index ${index}, expected at most ${Math.min(used, headerCount - 1)} (table in order of first use)`);
      }
      if (index === used) used++;
      list.push(table[index]!);
    }
    levels.push(list);
  }
  r.end('pruning proof');
  if (used !== headerCount) throw new DecodeError(`proof table has ${headerCount} headers, but the levels use ${used}`);
  const seen = new Set<string>();
  for (const header of table) {
    const id = toHex(blockHash(header));
    if (seen.has(id)) throw new DecodeError(`proof table holds header ${id} twice`);
    seen.add(id);
  }
  return { levels };
}
