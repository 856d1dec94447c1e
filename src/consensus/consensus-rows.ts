/**
 * The consensus tables of the full node's store and their row encodings (docs/storage.md). Blocks are referred to by
 * number (their insertion order), 8 bytes big-endian in keys, so a table's rows sort by block number.
 *
 *   O | number          → hash         insertion order (a topological order)
 *   S | hash            → number
 *   D | number          → GHOSTDAG record (selected parent, blue score, blue work, work, parents, blues, reds,
 *                                          blues anticone sizes)
 *   N | number          → reachability node (interval, tree parent and height, tree children, future covering set)
 *   M | consensus-blocks → block count;  M | ghostdag-tip → number;  M | reindex-root → number
 *
 * Numbers stay below 2^53 (JavaScript safe integers); they are written as u64 so the layout has room.
 */
import { assert } from '../errors.ts';
import { concatBytes } from '../util/bytes.ts';
import type { GhostdagRecord, ReachabilityNode } from './consensus-store.ts';

const T = { order: 0x4f, number: 0x53, ghostdag: 0x44, node: 0x4e, meta: 0x4d } as const;
const utf8 = new TextEncoder();

export function u64be(n: number): Uint8Array {
  const out = new Uint8Array(8);
  writeU64(new DataView(out.buffer), 0, n);
  return out;
}

export function readU64be(bytes: Uint8Array): number {
  return readU64(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), 0);
}

function writeU64(view: DataView, at: number, n: number): void {
  assert(Number.isSafeInteger(n) && n >= 0, `row number ${n} is not a non-negative safe integer`);
  view.setUint32(at, Math.floor(n / 2 ** 32));
  view.setUint32(at + 4, n >>> 0);
}

function readU64(view: DataView, at: number): number {
  return view.getUint32(at) * 2 ** 32 + view.getUint32(at + 4);
}

export const consensusKeys = {
  order: (block: number) => concatBytes(Uint8Array.of(T.order), u64be(block)),
  number: (hash: Uint8Array) => concatBytes(Uint8Array.of(T.number), hash),
  ghostdag: (block: number) => concatBytes(Uint8Array.of(T.ghostdag), u64be(block)),
  node: (block: number) => concatBytes(Uint8Array.of(T.node), u64be(block)),
  blockCount: concatBytes(Uint8Array.of(T.meta), utf8.encode('consensus-blocks')),
  tip: concatBytes(Uint8Array.of(T.meta), utf8.encode('ghostdag-tip')),
  reindexRoot: concatBytes(Uint8Array.of(T.meta), utf8.encode('reindex-root')),
};

/** A growable byte writer for rows. */
class RowWriter {
  private bytes = new Uint8Array(128);
  private view = new DataView(this.bytes.buffer);
  private at = 0;

  private room(n: number): void {
    if (this.at + n <= this.bytes.length) return;
    const next = new Uint8Array(Math.max(this.bytes.length * 2, this.at + n));
    next.set(this.bytes);
    this.bytes = next;
    this.view = new DataView(next.buffer);
  }

  u64(n: number): void {
    this.room(8);
    writeU64(this.view, this.at, n);
    this.at += 8;
  }

  u32(n: number): void {
    this.room(4);
    this.view.setUint32(this.at, n);
    this.at += 4;
  }

  /** A non-negative bigint: length byte, then big-endian magnitude. */
  big(n: bigint): void {
    assert(n >= 0n, `negative work ${n}`);
    const hex = n === 0n ? '' : n.toString(16);
    const len = Math.ceil(hex.length / 2);
    this.room(1 + len);
    this.bytes[this.at++] = len;
    const padded = hex.padStart(len * 2, '0');
    for (let i = 0; i < len; i++) this.bytes[this.at++] = parseInt(padded.slice(i * 2, i * 2 + 2), 16);
  }

  list(xs: readonly number[]): void {
    this.u32(xs.length);
    for (const x of xs) this.u64(x);
  }

  done(): Uint8Array {
    return this.bytes.slice(0, this.at);
  }
}

class RowReader {
  private readonly view: DataView;
  private at = 0;
  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  u64(): number {
    const n = readU64(this.view, this.at);
    this.at += 8;
    return n;
  }

  u32(): number {
    const n = this.view.getUint32(this.at);
    this.at += 4;
    return n;
  }

  big(): bigint {
    const len = this.bytes[this.at++]!;
    let n = 0n;
    for (let i = 0; i < len; i++) n = (n << 8n) | BigInt(this.bytes[this.at++]!);
    return n;
  }

  list(): number[] {
    const n = this.u32();
    const out = new Array<number>(n);
    for (let i = 0; i < n; i++) out[i] = this.u64();
    return out;
  }

  end(): void {
    assert(this.at === this.bytes.length, `row has ${this.bytes.length - this.at} trailing bytes`);
  }
}

export function encodeGhostdagRecord(r: GhostdagRecord): Uint8Array {
  const w = new RowWriter();
  w.u64(r.selectedParent + 1);
  w.u64(r.blueScore);
  w.big(r.blueWork);
  w.big(r.work);
  w.list(r.parents);
  w.list(r.blues);
  w.list(r.reds);
  w.list(r.anticoneSizes);
  return w.done();
}

export function decodeGhostdagRecord(bytes: Uint8Array): GhostdagRecord {
  const r = new RowReader(bytes);
  const selectedParent = r.u64() - 1;
  const blueScore = r.u64();
  const blueWork = r.big();
  const work = r.big();
  const parents = r.list();
  const blues = r.list();
  const reds = r.list();
  const anticoneSizes = r.list();
  r.end();
  return { selectedParent, blueScore, blueWork, work, parents, blues, reds, anticoneSizes };
}

export function encodeReachabilityNode(n: ReachabilityNode): Uint8Array {
  const w = new RowWriter();
  w.u64(n.start);
  w.u64(n.end);
  w.u64(n.parent + 1);
  w.u64(n.height);
  w.list(n.children);
  w.list(n.fcs);
  return w.done();
}

export function decodeReachabilityNode(bytes: Uint8Array): ReachabilityNode {
  const r = new RowReader(bytes);
  const start = r.u64();
  const end = r.u64();
  const parent = r.u64() - 1;
  const height = r.u64();
  const children = r.list();
  const fcs = r.list();
  r.end();
  return { start, end, parent, height, children, fcs };
}
