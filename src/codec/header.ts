/**
 * The canonical binary block header (docs/consensus.md "Header layout"). Little-endian throughout:
 *
 *   version u16 | parent count u8 | parents 32·n | [v2: level-run count u8 | per run: levels u8 | parent count u8 |
 *   parents 32·m] | txRoot 32 | stateRoot 32 | [v2: pruningPoint 32] | timestampMs u64 | bits u32 | daaScore u64 |
 *   blueScore u64 | blueWork (u8 length + minimal big-endian bytes) | miner 33 | gpuMining u8 | nonce u64
 *
 * Version 1 carries neither bracketed part; version 2 (docs/pruning-proof.md "Header version 2") carries both.
 * The nonce is last, so the pre-PoW bytes (docs/design.md "Consensus") are the encoding minus its last 8 bytes and a miner hashes
 * them once per job. Each header has exactly one encoding: decoding refuses unknown versions, more than
 * headerParentsMax parents, parents out of order or repeated, a non-minimal blueWork, a gpuMining byte other
 * than 0 or 1, and in version 2 level runs that are not canonical (checkLevelRuns); encoding refuses the same, so
 * encode(decode(x)) = x and decode(encode(h)) = h.
 */
import { DecodeError } from '../errors.ts';
import { headerBlueWorkBytesMax, headerBytesMax, headerBytesMin, headerLevelRunsMax, headerV1BytesMax, headerLevelsCovered, headerParentsMax } from '../limits.ts';
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
export const headerVersions: readonly number[] = [1, 2];
/** The version of every genesis (docs/pruning-proof.md: no genesis hash changes); NetworkParams.headerVersion is the rest's. */
export const headerVersionGenesis = 1;
export const hashBytes = 32;
const minerBytes = 33;
/** Address type bytes a header's miner may carry: 0 standard, 1 multisig (src/crypto/address.ts). */
const minerAddressTypes: readonly number[] = [0, 1];
/** The nonce is the last field: the pre-PoW bytes are the encoding minus these. */
const nonceBytes = 8;

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
  if (h.version === 1 && (h.levelParents !== undefined || h.pruningPoint !== undefined)) {
    throw fail('header.version: a version 1 header has no levelParents and no pruningPoint');
  }
  if (h.version === 2) {
    if (h.levelParents === undefined || h.pruningPoint === undefined) {
      throw fail('header.version: a version 2 header needs levelParents and pruningPoint');
    }
    checkLevelRuns(h.levelParents, fail);
  }
  const minerType = h.miner[0];
  if (minerType === undefined || !minerAddressTypes.includes(minerType)) {
    throw fail(`header.miner: expected address type ${minerAddressTypes.join(' or ')}, got ${String(minerType)}`);
  }
}

const sameParents = (a: readonly Uint8Array[], b: readonly Uint8Array[]): boolean =>
  a.length === b.length && a.every((p, i) => compareBytes(p, b[i]!) === 0);

/**
 * The one canonical form of a run list: at most headerLevelRunsMax runs, each of ≥ 1 levels with 1..headerParentsMax
 * strictly ascending parents, no two neighbours with the same parents, and together exactly levels 1..255.
 */
function checkLevelRuns(runs: readonly LevelParentsRun[], fail: (message: string) => Error): void {
  if (runs.length === 0 || runs.length > headerLevelRunsMax) {
    throw fail(`header.levelParents: expected 1..${headerLevelRunsMax} runs, got ${runs.length}`);
  }
  let levels = 0;
  runs.forEach((run, r) => {
    if (!Number.isInteger(run.levels) || run.levels < 1) throw fail(`header.levelParents: run ${r} covers ${run.levels} levels, expected ≥ 1`);
    levels += run.levels;
    if (run.parents.length === 0 || run.parents.length > headerParentsMax) {
      throw fail(`header.levelParents: run ${r} has ${run.parents.length} parents, expected 1..${headerParentsMax}`);
    }
    for (let i = 1; i < run.parents.length; i++) {
      if (compareBytes(run.parents[i - 1]!, run.parents[i]!) >= 0) {
        throw fail(`header.levelParents: run ${r} parents must be strictly ascending, got parent ${i} ≤ parent ${i - 1}`);
      }
    }
    if (r > 0 && sameParents(runs[r - 1]!.parents, run.parents)) {
      throw fail(`header.levelParents: runs ${r - 1} and ${r} have the same parents; they must be one run`);
    }
  });
  if (levels !== headerLevelsCovered) throw fail(`header.levelParents: runs cover ${levels} levels, expected exactly ${headerLevelsCovered}`);
}

export function writeHeader(w: ByteWriter, h: BlockHeader): void {
  const fail = (message: string): Error => new EncodeError(message);
  for (const p of h.parents) if (p.length !== hashBytes) throw fail(`header.parents: expected 32-byte hashes`);
  for (const run of h.levelParents ?? []) {
    for (const p of run.parents) if (p.length !== hashBytes) throw fail('header.levelParents: expected 32-byte hashes');
  }
  if (h.pruningPoint !== undefined && h.pruningPoint.length !== hashBytes) throw fail('header.pruningPoint: expected 32 bytes');
  if (h.miner.length !== minerBytes) throw fail(`header.miner: expected ${minerBytes} bytes, got ${h.miner.length}`);
  checkFields(h, fail);
  if (typeof h.blueWork !== 'bigint' || h.blueWork < 0n || h.blueWork > blueWorkMax) {
    throw fail(`header.blueWork: expected 0..2^256-1, got ${String(h.blueWork)}`);
  }
  w.u16(h.version, 'header.version');
  w.u8(h.parents.length, 'header.parents count');
  for (const p of h.parents) w.bytes(p, hashBytes, 'header.parents');
  if (h.levelParents !== undefined) {
    w.u8(h.levelParents.length, 'header.levelParents count');
    for (const run of h.levelParents) {
      w.u8(run.levels, 'header.levelParents levels');
      w.u8(run.parents.length, 'header.levelParents parent count');
      for (const p of run.parents) w.bytes(p, hashBytes, 'header.levelParents');
    }
  }
  w.bytes(h.txRoot, hashBytes, 'header.txRoot');
  w.bytes(h.stateRoot, hashBytes, 'header.stateRoot');
  if (h.pruningPoint !== undefined) w.bytes(h.pruningPoint, hashBytes, 'header.pruningPoint');
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
  if (!headerVersions.includes(version)) throw fail(`header.version: expected one of ${headerVersions.join(', ')}, got ${version}`);
  const parentCount = r.u8('header.parents count');
  if (parentCount > headerParentsMax) {
    throw fail(`header.parents: expected at most ${headerParentsMax}, got ${parentCount}`);
  }
  const parents: Uint8Array[] = [];
  for (let i = 0; i < parentCount; i++) parents.push(r.bytes(hashBytes, 'header.parents'));
  const levelParents = version === 2 ? readLevelRuns(r, fail) : undefined;
  const txRoot = r.bytes(hashBytes, 'header.txRoot');
  const stateRoot = r.bytes(hashBytes, 'header.stateRoot');
  const pruningPoint = version === 2 ? r.bytes(hashBytes, 'header.pruningPoint') : undefined;
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
    ...(levelParents === undefined ? {} : { levelParents }),
    ...(pruningPoint === undefined ? {} : { pruningPoint }),
  };
  checkFields(header, fail);
  return header;
}

/** Counts are checked before anything is allocated; the run rules themselves are checkLevelRuns'. */
function readLevelRuns(r: ByteReader, fail: (message: string) => Error): LevelParentsRun[] {
  const runCount = r.u8('header.levelParents count');
  if (runCount === 0 || runCount > headerLevelRunsMax) throw fail(`header.levelParents: expected 1..${headerLevelRunsMax} runs, got ${runCount}`);
  const runs: LevelParentsRun[] = [];
  for (let i = 0; i < runCount; i++) {
    const levels = r.u8('header.levelParents levels');
    const count = r.u8('header.levelParents parent count');
    if (count === 0 || count > headerParentsMax) throw fail(`header.levelParents: run ${i} has ${count} parents, expected 1..${headerParentsMax}`);
    const parents: Uint8Array[] = [];
    for (let j = 0; j < count; j++) parents.push(r.bytes(hashBytes, 'header.levelParents'));
    runs.push({ levels, parents });
  }
  return runs;
}

/** The parents of `header` at `level` (≥ 1) from its runs; undefined for a version 1 header. */
export function levelParentsAt(header: BlockHeader, level: number): readonly Uint8Array[] | undefined {
  if (header.levelParents === undefined) return undefined;
  let top = 0;
  for (const run of header.levelParents) {
    top += run.levels;
    if (level <= top) return run.parents;
  }
  return undefined;
}

export function encodeHeader(h: BlockHeader): Uint8Array {
  // Sized for version 1; the writer grows for a version 2 header's runs.
  const w = createByteWriter(headerV1BytesMax + hashBytes);
  writeHeader(w, h);
  return w.finish();
}

/** The length of `encodeHeader(h)` without encoding it (page budgets). */
export function encodedHeaderBytes(h: BlockHeader): number {
  const workBytes = h.blueWork === 0n ? 0 : Math.ceil(h.blueWork.toString(16).length / 2);
  let runs = 0;
  if (h.levelParents !== undefined) runs = 1 + h.levelParents.reduce((sum, run) => sum + 2 + hashBytes * run.parents.length, 0);
  return headerBytesMin + hashBytes * h.parents.length + workBytes + runs + (h.pruningPoint === undefined ? 0 : hashBytes);
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
