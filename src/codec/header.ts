/**
 * The canonical binary block header (docs/consensus.md "Header layout"). Little-endian throughout:
 *
 *   version u16 | parent count u8 | parents 32·n | txRoot 32 | stateRoot 32 | timestampMs u64 | bits u32 |
 *   daaScore u64 | blueScore u64 | blueWork (u8 length + minimal big-endian bytes) | miner 33 | gpuMining u8 |
 *   nonce u64
 *
 * The nonce is last, so the pre-PoW bytes (docs/design.md "Consensus") are the encoding minus its last 8 bytes and a miner hashes
 * them once per job. Each header has exactly one encoding: decoding refuses unknown versions, more than
 * headerParentsMax parents, parents out of order or repeated, a non-minimal blueWork and a gpuMining byte other
 * than 0 or 1; encoding refuses the same, so encode(decode(x)) = x and decode(encode(h)) = h.
 */
import { DecodeError } from '../errors.ts';
import { headerBlueWorkBytesMax, headerBytesMax, headerParentsMax } from '../limits.ts';
import { bigIntToBytesBE, bytesToBigIntBE, compareBytes } from '../util/bytes.ts';
import { createByteReader, type ByteReader } from './bytes-reader.ts';
import { createByteWriter, EncodeError, type ByteWriter } from './bytes-writer.ts';

/** Consecutive levels that share one parent set (docs/pruning-proof.md "Header version 2"). */
export interface LevelParentsRun {
  /** How many consecutive levels, ≥ 1. */
  readonly levels: number;
  /** 32-byte hashes, strictly ascending, non-empty. */
  readonly parents: readonly Uint8Array[];
}

export interface BlockHeader {
  /** u16; only headerVersions are valid. */
  version: number;
  /** 32-byte hashes, strictly ascending by bytes; empty only for genesis (checked by consensus, not here). */
  parents: readonly Uint8Array[];
  /** Merkle root of the block's transaction hashes (src/codec/block.ts). */
  txRoot: Uint8Array;
  /** State root after the block's mergeset (docs/design.md "Consensus"). */
  stateRoot: Uint8Array;
  /** u64 milliseconds since the Unix epoch, a safe integer. */
  timestampMs: number;
  /** u32 compact target (src/consensus/pow.ts). */
  bits: number;
  /** u64 safe integer: blocks in this block's past. */
  daaScore: number;
  /** u64 safe integer: GHOSTDAG blue score. */
  blueScore: number;
  /** GHOSTDAG blue work, 0 ≤ blueWork ≤ 2^256-1. */
  blueWork: bigint;
  /** 33 bytes: address type (0 standard, 1 multisig) + 32-byte payload (src/crypto/address.ts). */
  miner: Uint8Array;
  /** Set by a miner that found the block with a GPU backend (docs/design.md "Mining"). */
  gpuMining: boolean;
  /** u64. */
  nonce: bigint;
  /**
   * Version 2 only (docs/pruning-proof.md "Header version 2"): the parents at levels 1, 2, … (the tips of the
   * level-≥L blocks in this block's past; level 0's are `parents`), run-length compressed: each run gives the same
   * parents to its next `levels` levels. Absent in version 1.
   */
  levelParents?: readonly LevelParentsRun[];
  /** Version 2 only: the pruning point as seen from this block's selected parent (docs/pruning-proof.md). */
  pruningPoint?: Uint8Array;
}

/** Header versions this code understands; a new version is a consensus change. */
export const headerVersions: readonly number[] = [1];
export const headerVersionCurrent = 1;
export const hashBytes = 32;
export const minerBytes = 33;
/** Address type bytes a header's miner may carry: 0 standard, 1 multisig (src/crypto/address.ts). */
export const minerAddressTypes: readonly number[] = [0, 1];
/** The nonce is the last field: the pre-PoW bytes are the encoding minus these. */
export const nonceBytes = 8;

const blueWorkMax = (1n << 256n) - 1n;

/** The rules encoding and decoding share; `fail` builds the error type of the caller's direction. */
function checkFields(h: BlockHeader, fail: (message: string) => Error): void {
  if (!headerVersions.includes(h.version)) {
    throw fail(`header.version: expected one of ${headerVersions.join(', ')}, got ${h.version}`);
  }
  if (h.parents.length > headerParentsMax) {
    throw fail(`header.parents: expected at most ${headerParentsMax}, got ${h.parents.length}`);
  }
  for (let i = 1; i < h.parents.length; i++) {
    if (compareBytes(h.parents[i - 1]!, h.parents[i]!) >= 0) {
      throw fail(`header.parents: expected strictly ascending hashes, got parent ${i} ≤ parent ${i - 1}`);
    }
  }
  const minerType = h.miner[0];
  if (minerType === undefined || !minerAddressTypes.includes(minerType)) {
    throw fail(`header.miner: expected address type ${minerAddressTypes.join(' or ')}, got ${String(minerType)}`);
  }
}

export function writeHeader(w: ByteWriter, h: BlockHeader): void {
  const fail = (message: string): Error => new EncodeError(message);
  for (const p of h.parents) if (p.length !== hashBytes) throw fail(`header.parents: expected 32-byte hashes`);
  if (h.miner.length !== minerBytes) throw fail(`header.miner: expected ${minerBytes} bytes, got ${h.miner.length}`);
  checkFields(h, fail);
  if (typeof h.blueWork !== 'bigint' || h.blueWork < 0n || h.blueWork > blueWorkMax) {
    throw fail(`header.blueWork: expected 0..2^256-1, got ${String(h.blueWork)}`);
  }
  w.u16(h.version, 'header.version');
  w.u8(h.parents.length, 'header.parents count');
  for (const p of h.parents) w.bytes(p, hashBytes, 'header.parents');
  w.bytes(h.txRoot, hashBytes, 'header.txRoot');
  w.bytes(h.stateRoot, hashBytes, 'header.stateRoot');
  w.u64Number(h.timestampMs, 'header.timestampMs');
  w.u32(h.bits, 'header.bits');
  w.u64Number(h.daaScore, 'header.daaScore');
  w.u64Number(h.blueScore, 'header.blueScore');
  const workBytes = h.blueWork === 0n ? 0 : Math.ceil(h.blueWork.toString(16).length / 2);
  w.u8(workBytes, 'header.blueWork length');
  if (workBytes > 0) w.bytes(bigIntToBytesBE(h.blueWork, workBytes));
  w.bytes(h.miner, minerBytes, 'header.miner');
  w.u8(h.gpuMining ? 1 : 0, 'header.gpuMining');
  w.u64(h.nonce, 'header.nonce');
}

export function readHeader(r: ByteReader): BlockHeader {
  const fail = (message: string): Error => new DecodeError(message);
  const version = r.u16('header.version');
  if (!headerVersions.includes(version)) throw fail(`header.version: expected one of ${headerVersions}, got ${version}`);
  const parentCount = r.u8('header.parents count');
  if (parentCount > headerParentsMax) {
    throw fail(`header.parents: expected at most ${headerParentsMax}, got ${parentCount}`);
  }
  const parents: Uint8Array[] = [];
  for (let i = 0; i < parentCount; i++) parents.push(r.bytes(hashBytes, 'header.parents'));
  const txRoot = r.bytes(hashBytes, 'header.txRoot');
  const stateRoot = r.bytes(hashBytes, 'header.stateRoot');
  const timestampMs = r.u64Number('header.timestampMs');
  const bits = r.u32('header.bits');
  const daaScore = r.u64Number('header.daaScore');
  const blueScore = r.u64Number('header.blueScore');
  const workBytes = r.u8('header.blueWork length');
  if (workBytes > headerBlueWorkBytesMax) {
    throw fail(`header.blueWork: expected at most ${headerBlueWorkBytesMax} bytes, got ${workBytes}`);
  }
  const work = r.bytes(workBytes, 'header.blueWork');
  if (workBytes > 0 && work[0] === 0) throw fail('header.blueWork: expected minimal bytes, got a leading zero byte');
  const miner = r.bytes(minerBytes, 'header.miner');
  const gpuByte = r.u8('header.gpuMining');
  if (gpuByte > 1) throw fail(`header.gpuMining: expected 0 or 1, got ${gpuByte}`);
  const nonce = r.u64('header.nonce');
  const header: BlockHeader = {
    version,
    parents,
    txRoot,
    stateRoot,
    timestampMs,
    bits,
    daaScore,
    blueScore,
    blueWork: bytesToBigIntBE(work),
    miner,
    gpuMining: gpuByte === 1,
    nonce,
  };
  checkFields(header, fail);
  return header;
}

export function encodeHeader(h: BlockHeader): Uint8Array {
  const w = createByteWriter(headerBytesMax);
  writeHeader(w, h);
  return w.finish();
}

/** Every header byte except the trailing nonce: what BLAKE3 hashes into the pre-PoW hash (docs/design.md "Consensus"). */
export function encodePrePowHeader(h: BlockHeader): Uint8Array {
  const bytes = encodeHeader(h);
  return bytes.subarray(0, bytes.length - nonceBytes);
}

/** Decodes exactly one header: trailing bytes are a DecodeError. */
export function decodeHeader(bytes: Uint8Array): BlockHeader {
  if (bytes.length > headerBytesMax) {
    throw new DecodeError(`header: expected at most ${headerBytesMax} bytes, got ${bytes.length}`);
  }
  const r = createByteReader(bytes);
  const h = readHeader(r);
  r.end('header');
  return h;
}
